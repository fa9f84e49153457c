from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move
from tests.games.helpers import at_version, make_game, tiles

HX = {"HX-Request": "true"}
CAT = tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))


def post(client: Client, name: str, game: Game, data: dict[str, Any] | None = None) -> Any:
    return client.post(reverse(f"games:{name}", args=[game.pk]), at_version(game, **(data or {})), headers=HX)


@pytest.mark.django_db
def test_play_applies_and_answers_with_the_delta_from_the_version_played_on(
    client: Client, ana: Any, game_ana_ben: Game
) -> None:
    client.force_login(ana)
    version = game_ana_ben.version
    response = post(client, "play", game_ana_ben, {"tiles": CAT, "version": version, "action_id": "a1"})
    assert response.status_code == 200
    text = response.text
    assert text.startswith(f'<div id="game-sync" hidden data-version="{version + 1}" data-base="{version}"')
    # The three new tiles, the scores, the move panel, the first log line, the new rack.
    for root in ('id="sq-7-7"', 'id="sq-7-8"', 'id="sq-7-9"', 'id="scoreboard"', 'id="move-panel"'):
        assert root in text
    for root in ('id="move-log"', 'id="rack-tiles"'):
        assert root in text
    assert 'id="board"' not in text  # not the whole board
    assert 'id="sq-0-0"' not in text
    assert 'hx-swap-oob="true"' in text
    assert Move.objects.filter(game=game_ana_ben, kind="play").count() == 1


@pytest.mark.django_db
def test_a_repeated_play_answers_with_the_snapshot(client: Client, ana: Any, game_ana_ben: Game) -> None:
    """The repeat changes nothing: no delta to send, the page gets everything."""
    client.force_login(ana)
    data = {"tiles": CAT, "version": game_ana_ben.version, "action_id": "a1"}
    post(client, "play", game_ana_ben, data)
    again = post(client, "play", game_ana_ben, data).text
    for root in ('id="board"', 'id="rack"', 'id="scoreboard"', 'id="move-panel"', 'id="move-log"'):
        assert root in again
    assert 'data-base=""' in again
    assert Move.objects.filter(game=game_ana_ben, kind="play").count() == 1


@pytest.mark.django_db
def test_illegal_play_shows_error_and_keeps_pending_tiles(
    client: Client, ana: Any, game_ana_ben: Game
) -> None:
    client.force_login(ana)
    off_centre = tiles((0, 0, "C"), (0, 1, "A"), (0, 2, "T"))
    response = post(client, "play", game_ana_ben, {"tiles": off_centre, "version": game_ana_ben.version})
    assert response.status_code == 200
    assert 'id="move-panel"' in response.text
    assert 'id="board"' not in response.text
    assert "centre star" in response.text
    assert f'data-pending="{off_centre}"' in response.text
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_unknown_word_names_the_word(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    response = post(client, "play", game_ana_ben, {"tiles": tiles((7, 7, "D"), (7, 8, "C"))})
    assert "Not in the dictionary: DC." in response.text


@pytest.mark.django_db
def test_move_out_of_turn_shows_error(client: Client, ben: Any, game_ana_ben: Game) -> None:
    client.force_login(ben)
    response = post(client, "play", game_ana_ben, {"tiles": tiles((7, 7, "Z"), (7, 8, "K"))})
    assert response.status_code == 200
    assert "not your turn" in response.text.lower()


@pytest.mark.django_db
def test_malformed_tiles_are_refused_politely(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    response = post(client, "play", game_ana_ben, {"tiles": "7;7;C"})
    assert "could not be read" in response.text


@pytest.mark.django_db
def test_stale_version_says_the_game_changed_when_nobody_moved(
    client: Client, ana: Any, game_ana_ben: Game
) -> None:
    # The version before the invitation was accepted: nobody played since (issue 23,
    # point 4: "the game moved on" only when someone moved).
    client.force_login(ana)
    response = post(client, "play", game_ana_ben, {"tiles": CAT, "version": game_ana_ben.version - 1})
    assert "The game changed meanwhile" in response.text
    assert "moved on" not in response.text
    assert 'id="board"' in response.text  # the client catches up
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_stale_version_says_the_game_moved_on_when_the_opponent_moved(
    client: Client, ana: Any, ben: Any
) -> None:
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    read = game.version
    game.pass_turn(ana, version=read)
    game.pass_turn(ben, version=game.version)
    client.force_login(ana)
    response = post(client, "play", game, {"tiles": CAT, "version": read + 1})
    assert "The game moved on" in response.text
    assert not Move.objects.filter(kind="play").exists()


@pytest.mark.django_db
def test_double_submit_is_applied_once(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    data = {"tiles": CAT, "version": game_ana_ben.version, "action_id": "same-click"}
    first = post(client, "play", game_ana_ben, data)
    second = post(client, "play", game_ana_ben, data)
    assert first.status_code == second.status_code == 200
    assert "moved on" not in second.text
    assert Move.objects.count() == 1


@pytest.mark.django_db
def test_preview_scores_without_changing_state(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    response = post(client, "preview", game_ana_ben, {"tiles": CAT})
    assert 'id="move-panel"' in response.text
    assert "CAT" in response.text
    game = Game.objects.get(pk=game_ana_ben.pk)
    assert game.version == game_ana_ben.version
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_preview_reports_invalid_word(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    response = post(client, "preview", game_ana_ben, {"tiles": tiles((7, 7, "D"), (7, 8, "C"))})
    assert "Not in the dictionary: DC." in response.text


@pytest.mark.django_db
def test_spectator_cannot_post_a_move(client: Client, cleo: Any, game_ana_ben: Game) -> None:
    client.force_login(cleo)
    for name in ("play", "preview", "pass", "exchange", "resign", "chat"):
        response = post(client, name, game_ana_ben, {"tiles": CAT, "confirm": "yes", "text": "hi"})
        assert response.status_code == 403, name
        assert "Only the players" in response.text
    assert not Move.objects.exists()


@pytest.mark.django_db
def test_private_game_is_404_for_outsiders(client: Client, cleo: Any, game_ana_ben: Game) -> None:
    Game.objects.filter(pk=game_ana_ben.pk).update(is_public=False)
    client.force_login(cleo)
    assert client.get(reverse("games:detail", args=[game_ana_ben.pk])).status_code == 404
    assert post(client, "play", game_ana_ben, {"tiles": CAT}).status_code == 404


@pytest.mark.django_db
def test_anonymous_is_sent_to_login(client: Client, game_ana_ben: Game) -> None:
    response = client.get(reverse("games:detail", args=[game_ana_ben.pk]))
    assert response.status_code == 302
    assert "/login" in response["Location"]


@pytest.mark.django_db
def test_pass_and_exchange_views(client: Client, ana: Any, ben: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    post(client, "pass", game_ana_ben, {"version": game_ana_ben.version})
    client.force_login(ben)
    game = Game.objects.get(pk=game_ana_ben.pk)
    response = post(client, "exchange", game, {"exchange": "JQ", "version": game.version})
    assert response.status_code == 200
    assert list(Move.objects.values_list("kind", flat=True)) == ["pass", "exchange"]


@pytest.mark.django_db
def test_exchange_of_tiles_not_on_rack_is_refused(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    response = post(client, "exchange", game_ana_ben, {"exchange": "QQ"})
    assert "not all on your rack" in response.text


@pytest.mark.django_db
def test_resign_needs_confirmation(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    page = client.get(reverse("games:resign", args=[game_ana_ben.pk]))
    assert page.status_code == 200
    assert post(client, "resign", game_ana_ben).status_code == 400
    assert Game.objects.get(pk=game_ana_ben.pk).status == Game.Status.ACTIVE
    response = post(client, "resign", game_ana_ben, {"confirm": "yes"})
    assert response.status_code == 200
    assert Game.objects.get(pk=game_ana_ben.pk).status == Game.Status.FINISHED


@pytest.mark.django_db
def test_non_htmx_post_redirects_with_message(client: Client, ben: Any, game_ana_ben: Game) -> None:
    client.force_login(ben)
    response = client.post(
        reverse("games:pass", args=[game_ana_ben.pk]), at_version(game_ana_ben), follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("games:detail", args=[game_ana_ben.pk])
    assert "not your turn" in response.text.lower()


@pytest.mark.django_db
def test_chat_posts_and_returns_chat_partial(client: Client, ana: Any, game_ana_ben: Game) -> None:
    client.force_login(ana)
    response = post(client, "chat", game_ana_ben, {"text": "good luck!"})
    assert 'id="chat"' in response.text
    assert "good luck!" in response.text


@pytest.mark.django_db
def test_a_failing_broadcast_is_logged_and_the_move_answers_normally(
    client: Client,
    ana: Any,
    game_ana_ben: Game,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from games import realtime

    class DownLayer:
        async def group_send(self, group: str, event: dict[str, Any]) -> None:
            raise ConnectionError("Redis is down")

    monkeypatch.setattr(realtime, "get_channel_layer", DownLayer)
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, "play", game_ana_ben, {"tiles": tiles((7, 7, "C"), (7, 8, "A"), (7, 9, "T"))})
    assert response.status_code == 200
    assert 'id="sq-7-7"' in response.text  # the answer shows the move
    assert Move.objects.filter(game=game_ana_ben).count() == 1
    assert "live update to game-" in caplog.text


@pytest.mark.django_db
def test_a_play_reads_the_moves_once_and_nothing_for_its_answer_before_the_commit(
    client: Client, ana: Any, game_ana_ben: Game
) -> None:
    """What the page showed (the base of the answer's delta) is worked out after the
    play from what the answer reads: the opponent's push, sent on commit, does not wait
    for a read of the moves, the extras and the vacations before the play."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(ana)
    version = game_ana_ben.version
    with CaptureQueriesContext(connection) as queries:
        response = post(client, "play", game_ana_ben, {"tiles": CAT, "version": version, "action_id": "a1"})
    assert response.text.startswith(
        f'<div id="game-sync" hidden data-version="{version + 1}" data-base="{version}"'
    )
    sql = [q["sql"] for q in queries.captured_queries]
    # Inside the action: its look-up of the action id (a daily bonus paid by the
    # middleware may open a transaction earlier).
    begin = next(i for i, q in enumerate(sql) if 'FROM "games_gameaction"' in q)
    assert not [q for q in sql[:begin] if '"games_move"' in q or '"games_extrapurchase"' in q]
    assert len([q for q in sql if q.startswith("SELECT") and 'FROM "games_move"' in q]) == 1


@pytest.mark.django_db
def test_buying_an_extra_answers_with_the_delta_with_the_aids_and_the_extras(
    ana: Any, game_ana_ben: Game
) -> None:
    from accounts.models import User
    from games import extras

    User.objects.filter(pk=ana.pk).update(coins=20)
    client = Client()
    client.force_login(ana)
    version = game_ana_ben.version
    response = client.post(
        reverse("games:buy", args=[game_ana_ben.pk, extras.TILE_BAG]),
        {"version": version, "action_id": "buy-1"},
        headers=HX,
    )
    text = response.text
    assert text.startswith(f'<div id="game-sync" hidden data-version="{version + 1}" data-base="{version}"')
    assert 'id="aids"' in text
    assert 'id="extras"' in text
    assert 'class="tile-bag"' in text
    assert 'id="board"' not in text


@pytest.mark.django_db
def test_a_failing_send_to_the_game_still_tells_the_players_lobbies(
    client: Client,
    ana: Any,
    ben: Any,
    game_ana_ben: Game,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """A change's events go out together; one that fails is logged on its own."""
    from games import realtime

    sent: list[str] = []

    class HalfDownLayer:
        async def group_send(self, group: str, event: dict[str, Any]) -> None:
            if group.startswith("game-"):
                raise ConnectionError("Redis is down")
            sent.append(group)

    layer = HalfDownLayer()
    monkeypatch.setattr(realtime, "get_channel_layer", lambda: layer)
    hops: list[Any] = []
    to_loop = realtime.run_coroutine

    def counted(function: Any) -> Any:
        hops.append(function)
        return to_loop(function)

    monkeypatch.setattr(realtime, "run_coroutine", counted)
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client, "play", game_ana_ben, {"tiles": CAT})
    assert response.status_code == 200
    assert sorted(sent) == sorted(realtime.lobby_group(u.pk) for u in (ana, ben))
    assert f"live update to {realtime.game_group(game_ana_ben.pk)} failed" in caplog.text
    assert "live update to lobby-" not in caplog.text
    assert len(hops) == 1  # the game's and the two lobbies' updates in one hop


@pytest.mark.django_db
def test_a_play_reads_the_seats_once(client: Client, ana: Any, game_ana_ben: Game) -> None:
    """``Game.act`` takes the seats the view read with the game at the same version (a
    change of the seats moves the version on): they are read once."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(ana)
    with CaptureQueriesContext(connection) as queries:
        response = post(client, "play", game_ana_ben, {"tiles": CAT})
    assert response.status_code == 200
    assert len([q for q in queries.captured_queries if q["sql"].startswith('SELECT "games_seat"')]) == 1


@pytest.mark.django_db
def test_a_repeat_after_the_opponent_bought_an_extra_answers_the_snapshot(
    ana: Any, ben: Any, game_ana_ben: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The repeat of a play reads the game; the opponent buys an extra before the repeat
    reaches ``Game.act``, which moves the game on by one version. That version was not
    this play's, so the answer is the whole page (with the opponent's aid), not a delta
    worked out as if it were."""
    from accounts.models import User
    from games import extras, live
    from games.actions import BuyExtra

    client = Client()
    client.force_login(ana)
    data = {"tiles": CAT, "version": game_ana_ben.version, "action_id": "a1"}
    post(client, "play", game_ana_ben, data)
    User.objects.filter(pk=ben.pk).update(coins=20)
    noted = live.before_action

    def then_the_opponent_buys(game: Game, viewer: Any, action: Any) -> Any:
        before = noted(game, viewer, action)
        Game.objects.get(pk=game.pk).act(ben, BuyExtra(extras.TILE_BAG), version=game.version)
        return before

    monkeypatch.setattr(live, "before_action", then_the_opponent_buys)
    again = client.post(reverse("games:play", args=[game_ana_ben.pk]), data, headers=HX).text
    assert 'data-base=""' in again
    assert 'id="board"' in again
    assert 'id="aids"' in again


@pytest.mark.django_db
def test_preview_shows_the_bingo_bonus_as_its_own_line(
    client: Client, ana: Any, game_ana_ben: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    import re

    import engine
    from engine.lexicon import WordListLexicon
    from games import models as game_models
    from tests.games.helpers import WORDS

    words = WordListLexicon([*WORDS, "COASTED"], engine.tileset("en").alphabet)
    monkeypatch.setattr(game_models, "lexicon_for", lambda language, version=None: words)
    client.force_login(ana)
    coasted = tiles(*((7, 1 + i, letter) for i, letter in enumerate("COASTED")))
    response = post(client, "preview", game_ana_ben, {"tiles": coasted})
    line = re.search(r'<p class="preview-line valid">(.*?)</p>', response.text, re.S)
    assert line is not None, response.text
    text = re.sub(r"<[^>]+>", "", line.group(1))
    word, bonus = re.fullmatch(r"COASTED (\d+) · Bingo bonus (\d+)", text.strip()).groups()  # type: ignore[union-attr]
    assert int(bonus) == 35
    play = re.search(r"Play (\d+)", response.text)
    assert play is not None
    assert int(word) + int(bonus) == int(play.group(1))
