"""A tournament under the classic preset and a challenge rule (issue 32): its games are
dealt by those rules, and its exports say so (config.tsh, the bundle's notes, the JSON,
each game's GCG)."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest

from tests.tournaments.helpers import make_players, make_tournament, run_round
from tournaments import exports, services
from tournaments.simulate import play_out


@pytest.mark.django_db
def test_classic_double_challenge_tournament_plays_and_exports_its_rules(olga: Any) -> None:
    players = make_players("ana", "ben")
    tournament = make_tournament(
        olga, players, rounds=1, rules_preset="classic", challenge_rule="double", rated=False
    )
    tables = run_round(tournament, olga)
    game = tables[0].game
    assert game is not None
    state = game.state_obj()
    assert state.rules.preset == "classic"
    assert state.rules.challenge == "double"
    assert state.tileset.language == "en-scrabble"
    play_out(game, {})
    game.refresh_from_db()
    assert game.status == "finished"
    tournament.refresh_from_db()
    data = exports.collect(tournament)
    _fmt, bundle, _report = exports.export(data, "bundle")
    with zipfile.ZipFile(io.BytesIO(bundle)) as archive:
        notes = archive.read("notes.txt").decode("utf-8")
        config = archive.read("config.tsh").decode("utf-8")
        document = json.loads(archive.read("tournament.json"))
        record = archive.read("games/round-01-table-01.gcg").decode("utf-8")
    assert "Rules: rules classic" in notes
    assert "challenge double" in notes
    assert "# rules classic" in config
    assert "challenge double" in config
    assert document["tournament"]["rules_preset"] == "classic"
    assert document["tournament"]["challenge_rule"] == "double"
    assert "#note Wordgame-Language: en-scrabble" in record
    assert "#note Wordgame-Layout: scrabble" in record


@pytest.mark.django_db
def test_classic_preset_refused_for_spanish_tournament(olga: Any) -> None:
    with pytest.raises(services.TournamentError) as exc:
        make_tournament(olga, language="es", rules_preset="classic")
    assert exc.value.code == "bad_rules"
