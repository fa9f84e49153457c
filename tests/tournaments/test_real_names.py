"""Players' real names ("Last, First"): set by the player in their settings or by the
organiser for one tournament, used in the files, and the pre-flight warns without one."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.tournaments.helpers import finish_round, make_players, make_tournament, run_round
from tournaments import exports, services
from tournaments.models import TournamentEvent
from tournaments.services import TournamentError


@pytest.mark.django_db
def test_a_player_sets_their_real_name_in_the_settings_and_the_files_use_it(olga: Any, client: Any) -> None:
    ana, ben = make_players("ana", "ben")
    client.force_login(ana)
    response = client.post(
        reverse("preferences"),
        {
            "display_name": "",
            "first_name": " Ana ",
            "last_name": "Silva",
            "game_language": "",
            "interface_language": "",
        },
    )
    assert response.status_code == 302
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    finish_round(run_round(tournament, olga))
    data = exports.collect(tournament, with_games=False)
    names = [line.split("  ")[0].strip() for line in exports.tsh_lines(data)]
    assert "Silva, Ana" in names
    warnings = exports.preflight(data).warnings
    assert not any("Silva" in w and "real name" in w for w in warnings)
    assert any("(ben) has no real name" in w for w in warnings)


@pytest.mark.django_db
def test_the_organiser_sets_a_real_name_for_their_event(olga: Any, client: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    bens = tournament.registrations.get(user=ben)
    with pytest.raises(TournamentError) as refused:
        services.set_real_name(tournament=tournament, registration=bens, by=olga, real_name="Ben Jones")
    assert refused.value.code == "bad_real_name"
    with pytest.raises(TournamentError) as refused:
        services.set_real_name(tournament=tournament, registration=bens, by=ana, real_name="Jones, Ben")
    assert refused.value.code == "not_organiser"
    client.force_login(olga)
    client.post(
        reverse("tournaments:player-name", args=[tournament.pk, bens.pk]),
        {"real_name": "  Jones ,  Ben ", "reason": "as on his NASPA card"},
        headers={"HX-Request": "true"},
    )
    bens.refresh_from_db()
    assert bens.real_name == "Jones, Ben"
    assert bens.name == "Jones, Ben"
    event = tournament.events.get(kind=TournamentEvent.Kind.NAME_SET)
    assert event.data["real_name"] == "Jones, Ben"
    assert event.reason == "as on his NASPA card"
    assert services.rebuild(tournament).players[bens.pk].name == "Jones, Ben"
    run_round(tournament, olga)
    data = exports.collect(tournament, with_games=False)
    assert any(line.startswith("Jones, Ben") for line in exports.tsh_lines(data))
    assert not any("Jones" in w and "real name" in w for w in exports.preflight(data).warnings)
    # Blank goes back to the player's own (none: the username, with a warning).
    services.set_real_name(tournament=tournament, registration=bens, by=olga, real_name="")
    bens.refresh_from_db()
    assert bens.name == "ben"
