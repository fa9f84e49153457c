"""Every export format against golden files, the pre-flight check, and the three ways
out: the organiser's page, the admin action and ``manage.py export_tournament``.

The golden tournament is played for real, deterministically: five players, a round
robin, every game dealt from a fixed seed and played by the computer at fixed levels
with the tests' small word list, one forfeit and one adjudicated score. Regenerate the
files after an intended change with ``UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from engine.analysis import Level
from tests.factories import make_user
from tests.tournaments.helpers import FIXED_START, make_players, make_tournament
from tournaments import exports, services
from tournaments.exports import ExportData, ExportPlayer, preflight, scorecard_errors
from tournaments.models import Pairing, Tournament
from tournaments.simulate import play_out
from tournaments.standings import BYE, PENDING, PLAYED, Outcome, Rules

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
TEXT_FILES = {
    "standings-csv": "standings.csv",
    "results-csv": "results.csv",
    "json": "tournament.json",
    "tsh": "a.t",
}


def check_golden(name: str, content: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run with UPDATE_GOLDEN=1"
    assert content == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def golden_tournament(organiser: Any) -> Tournament:
    """A finished five-player round robin (see the module docstring)."""
    names = ["ana", "ben", "cleo", "dan", "eve"]
    players = make_players(*names)
    players[2].first_name, players[2].last_name = "Cleo", "Martin"
    players[2].save()
    ratings = {"ana": ("NA1001", 1710), "ben": ("NA1002", 1840), "cleo": ("NA1003", 1425), "dan": ("", 1600)}
    for user in players:
        if user.username in ratings:
            number, rating = ratings[user.username]
            services.set_membership(user=user, body="naspa", number=number, rating=rating)
    tournament = make_tournament(
        organiser,
        players,
        name="Golden club round robin",
        rounds=5,
        rating_body="naspa",
        starts_at=FIXED_START,
    )
    chosen: list[Level] = ["hard", "medium", "easy", "hard", "medium"]
    levels = {p.pk: level for p, level in zip(players, chosen, strict=True)}
    for round_number in range(1, 6):
        services.pair_round(tournament=tournament, by=organiser)
        services.start_round(tournament=tournament, by=organiser, seed=2024)
        tables = Pairing.objects.filter(round__tournament=tournament, round__number=round_number).order_by(
            "table"
        )
        for table in tables.exclude(game=None):
            assert table.game is not None
            play_out(table.game, levels)
    services.override_result(
        tournament=tournament,
        by=organiser,
        round_number=2,
        table=1,
        override="forfeit",
        absent="second",
        reason="did not turn up",
    )
    services.override_result(
        tournament=tournament,
        by=organiser,
        round_number=4,
        table=2,
        override="scores",
        first_score=412,
        second_score=398,
        reason="adjudicated from the scoresheet",
    )
    tournament.refresh_from_db()
    return tournament


@pytest.mark.django_db
def test_every_format_matches_its_golden_file(olga: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament = golden_tournament(olga)
    assert tournament.status == Tournament.Status.FINISHED
    data = exports.collect(tournament)
    report = preflight(data)
    assert report.errors == []
    assert report.warnings == [
        "Player 3 (dan) has no member number.",
        "Player 5 (eve) has no member number.",
        *(
            f'Player {n} ({name}) has no real name ("Last, First"): the files show the username.'
            for n, name in ((1, "ben"), (2, "ana"), (3, "dan"), (5, "eve"))
        ),
    ]
    for name, filename in TEXT_FILES.items():
        _fmt, content, _ = exports.export(data, name)
        check_golden(filename, content.decode("utf-8"))
    _fmt, zipped, _ = exports.export(data, "gcg-zip")
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        members = archive.namelist()
        assert len(members) == 10  # five rounds of two games, the fifth player idle
        for member in members:
            check_golden(f"gcg/{member}", archive.read(member).decode("utf-8"))
    _fmt, bundle, _ = exports.export(data, "bundle")
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        listing = "\n".join(archive.namelist()) + "\n"
        check_golden("bundle-contents.txt", listing)
        for filename in TEXT_FILES.values():
            assert archive.read(filename).decode("utf-8") == (GOLDEN / filename).read_text(encoding="utf-8")
        for member in members:
            assert archive.read(f"games/{member}") == (GOLDEN / "gcg" / member).read_bytes()
        check_golden("config.tsh", archive.read("config.tsh").decode("utf-8"))
        assert archive.read("warnings.txt").decode("utf-8").splitlines() == report.warnings
    # The same bytes every time: a zip's members carry no clock.
    assert exports.export(exports.collect(tournament), "bundle")[1] == bundle


def test_tsh_file_lists_byes_forfeits_and_first_second_as_tsh_writes_them() -> None:
    data = ExportData(
        name="t",
        language="en",
        system="swiss",
        rounds=3,
        rated=True,
        rating_body="wespa",
        dictionary_version=0,
        starts_at="",
        status="running",
        rules=Rules(),
        players=(
            ExportPlayer(1, "Smith, Ann", "ann", "W1", 1800, True),
            ExportPlayer(2, "Bo", "bo", "W2", None, True),
            ExportPlayer(3, "Cy", "cy", "", 1500, True),
        ),
        outcomes=(
            Outcome(1, 1, 1, 2, PLAYED, 420, 380),
            Outcome(1, 2, 3, None, BYE),
            Outcome(2, 1, 3, 1, "forfeit", absent="second"),
            Outcome(2, 2, 2, None, BYE),
            Outcome(3, 1, 2, 3, PENDING),
            Outcome(3, 2, 1, None, BYE),
        ),
    )
    assert list(exports.tsh_lines(data)) == [
        "Smith, Ann 1800 2 0 0; 420 -50 50; p12 1 0 0",
        "Bo            0 1 0 3; 380 50; p12 2 0 1",
        "Cy         1500 0 0 2; 50 50; p12 0 0 2",
    ]


def test_preflight_refuses_double_bookings_and_unknown_players() -> None:
    data = ExportData(
        name="t",
        language="en",
        system="swiss",
        rounds=1,
        rated=True,
        rating_body="",
        dictionary_version=0,
        starts_at="",
        status="running",
        rules=Rules(),
        players=(ExportPlayer(1, "A", "a", "", None, True), ExportPlayer(2, "B", "b", "", None, True)),
        outcomes=(Outcome(1, 1, 1, 2, PLAYED, 1, 0), Outcome(1, 2, 1, 7, PLAYED, 1, 0)),
    )
    report = preflight(data)
    assert "Player 1 is at two tables in round 1." in report.errors
    assert "Round 1, table 2: player 7 is not registered." in report.errors
    assert "Round 1: player 2 is paired with 1, but not 1 with 2." in report.errors
    with pytest.raises(exports.ExportRefused):
        exports.export(data, "tsh")


def test_preflight_refuses_pairs_without_one_first_and_one_second() -> None:
    cards = {1: {1: (2, 1)}, 2: {1: (1, 1)}, 3: {1: (0, 2)}}
    assert scorecard_errors(cards) == [
        "Round 1: players 1 and 2 do not have one first and one second.",
        "Round 1: players 2 and 1 do not have one first and one second.",
        "Round 1: player 3 has a bye but is marked first or second.",
    ]


@pytest.mark.django_db
def test_unfinished_games_are_warnings_and_stay_out_of_the_gcg_zip(olga: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    services.pair_round(tournament=tournament, by=olga)
    services.start_round(tournament=tournament, by=olga)
    data = exports.collect(tournament)
    report = preflight(data)
    assert report.ok
    assert "Round 1, table 1: the game is not finished, so it has no result yet." in report.warnings
    _fmt, zipped, _ = exports.export(data, "gcg-zip")
    assert zipfile.ZipFile(io.BytesIO(zipped)).namelist() == []
    results = exports.text_of(exports.write_results_csv, data).splitlines()
    assert results[1].endswith(",pending,")


@pytest.mark.django_db
def test_export_command_writes_text_to_stdout_and_zips_to_a_file(
    olga: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    services.pair_round(tournament=tournament, by=olga)
    services.start_round(tournament=tournament, by=olga)
    services.override_result(
        tournament=tournament,
        by=olga,
        round_number=1,
        table=1,
        override="scores",
        first_score=300,
        second_score=200,
        reason="r",
    )
    out, err = io.StringIO(), io.StringIO()
    call_command("export_tournament", str(tournament.pk), "--format", "standings-csv", stdout=out, stderr=err)
    lines = out.getvalue().splitlines()
    assert lines[0] == "rank,number,player,member_number,rating,wins,losses,draws,spread,total_score"
    assert lines[1].startswith("1,")
    assert "has no member number" in err.getvalue()
    with pytest.raises(CommandError, match="--output"):
        call_command("export_tournament", str(tournament.pk), "--format", "bundle")
    target = tmp_path / "bundle.zip"
    call_command(
        "export_tournament", str(tournament.pk), "--format", "bundle", "--output", str(target), stderr=err
    )
    assert "a.t" in zipfile.ZipFile(target).namelist()
    with pytest.raises(CommandError, match="no tournament"):
        call_command("export_tournament", "999999", "--format", "json")


@pytest.mark.django_db
def test_organiser_downloads_each_format_and_a_player_cannot(olga: Any, client: Any) -> None:
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    services.pair_round(tournament=tournament, by=olga)
    services.start_round(tournament=tournament, by=olga)
    client.force_login(olga)
    for name, fmt in exports.FORMATS.items():
        response = client.get(reverse("tournaments:export", args=[tournament.pk, name]))
        assert response.status_code == 200, name
        assert response["Content-Type"].startswith(fmt.content_type)
        assert f'filename="tournament-{tournament.pk}{fmt.suffix}"' in response["Content-Disposition"]
    document = json.loads(b"".join(client.get(reverse("tournaments:export", args=[tournament.pk, "json"]))))
    assert [p["name"] for p in document["players"]] == ["ana", "ben"]
    client.force_login(ana)
    assert client.get(reverse("tournaments:export", args=[tournament.pk, "json"])).status_code == 403


@pytest.mark.django_db
def test_admin_action_exports_one_tournament(olga: Any, client: Any) -> None:
    admin = make_user("root", is_staff=True, is_superuser=True)
    ana, ben = make_players("ana", "ben")
    tournament = make_tournament(olga, [ana, ben], rounds=1)
    client.force_login(admin)
    url = reverse("admin:tournaments_tournament_changelist")
    response = client.post(url, {"action": "export_tsh", "_selected_action": [tournament.pk]})
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.t"')
    second = make_tournament(olga, name="Another")
    response = client.post(
        url, {"action": "export_tsh", "_selected_action": [tournament.pk, second.pk]}, follow=True
    )
    assert "Choose exactly one tournament to export." in response.content.decode()
