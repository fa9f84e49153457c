"""GCG export and import (engine/gcg.py)."""

from __future__ import annotations

import random

import pytest

from engine.gcg import GameRecord, export_gcg, import_gcg, parse_position, position
from engine.moves import MoveRecord, exchange, pass_turn, play, resign, timeout
from engine.state import GameState
from tests.engine.helpers import AnyWord, random_game, tiles

PLAYERS = ("Ana Lopez", "Ben")


def hand_game() -> tuple[GameState, list[MoveRecord]]:
    """A short scripted game: a first play with a blank, a play through a tile, an
    exchange, a pass; the bag and racks are set by hand so every line is known."""
    state = GameState(
        language="en",
        layout="wwf",
        board=("." * 15,) * 15,
        racks=("CAT?SEN", "HOEDRTW"),
        bag="AAEEIIOUXY",
        scores=(0, 0),
    )
    records = []
    # Ana: CAtS across from H8 (0-based row 7, col 6), the blank is the T.
    played = play(state, 0, tiles(7, 6, "across", "CAtS"), AnyWord())
    records.append(played.record)
    # Ben: H, O above and E, D below the A of CAtS: HOAED down column H.
    played = play(played.state, 1, tiles(5, 7, "down", "HO_ED"), AnyWord())
    records.append(played.record)
    played = exchange(played.state, 0, ["E", "N"], random.Random(4))
    records.append(played.record)
    played = pass_turn(played.state, 1)
    records.append(played.record)
    return played.state, records


def test_position_is_row_then_column_across_and_column_then_row_down() -> None:
    assert position(7, 7, "across") == "8H"
    assert position(7, 7, "down") == "H8"
    assert position(0, 14, "across") == "1O"
    assert parse_position("8H") == (7, 7, "across")
    assert parse_position("H8") == (7, 7, "down")
    assert parse_position("15a") == (14, 0, "across")
    with pytest.raises(ValueError, match="position"):
        parse_position("88")


def test_export_writes_standard_lines() -> None:
    state, records = hand_game()
    text = export_gcg(GameRecord(language="en", players=PLAYERS, moves=tuple(records), lexicon="ENABLE"))
    lines = text.splitlines()
    assert lines[0] == "#character-encoding UTF-8"
    assert lines[1] == "#player1 Ana_Lopez Ana Lopez"
    assert lines[2] == "#player2 Ben Ben"
    assert "#lexicon ENABLE" in lines
    assert "#note Wordgame-Language: en" in lines
    # Play 1: C4 A1 t0 S1 = 6, across from row 8 column G.
    assert ">Ana_Lopez: CAT?SEN 8G CAtS +6 6" in lines
    # Play 2: H O . E D down column H from row 6, through the old A.
    score = records[1].score
    assert f">Ben: HOEDRTW H6 HO.ED +{score} {score}" in lines
    assert any(line.startswith(">Ana_Lopez: ") and " -EN +0 6" in line for line in lines)
    assert any(line.startswith(">Ben: ") and line.endswith(f" - +0 {score}") for line in lines)
    assert state.over is False
    assert not any(line.startswith("#note Wordgame-End") for line in lines)


def test_hand_game_with_blank_and_exchange_round_trips() -> None:
    state, records = hand_game()
    record = GameRecord(language="en", players=PLAYERS, moves=tuple(records))
    back = import_gcg(export_gcg(record))
    assert back == record
    assert back.board() == state.board
    assert back.scores() == state.scores


def test_random_game_with_blanks_and_exchange_round_trips() -> None:
    # Seed 2 (found by running random_game) has both a blank played and an exchange.
    states, records = random_game(2, "es")
    assert any(p.blank for r in records for p in r.placements)
    assert any(r.kind == "exchange" for r in records)
    record = GameRecord(language="es", players=PLAYERS, moves=tuple(records))
    back = import_gcg(export_gcg(record))
    assert back == record
    assert back.board() == states[-1].board
    assert back.scores() == states[-1].scores


def test_going_out_writes_rack_gain_and_loss() -> None:
    state = GameState(
        language="en", layout="wwf", board=("." * 15,) * 15, racks=("ST", "QZ"), bag="", scores=(0, 0), turn=1
    )
    passed = pass_turn(state, 1)
    played = play(passed.state, 0, tiles(7, 7, "across", "ST"), AnyWord())
    record = GameRecord(language="en", players=PLAYERS, moves=(passed.record, played.record))
    lines = export_gcg(record).splitlines()
    assert ">Ben: QZ - +0 0" in lines
    assert ">Ana_Lopez: ST 8H ST +2 2" in lines
    assert ">Ana_Lopez: (QZ) +20 22" in lines
    assert ">Ben: QZ (QZ) -20 -20" in lines
    assert lines[-1] == "#note Wordgame-End: out Ana_Lopez"
    back = import_gcg("\n".join(lines))
    assert back == record
    assert back.end is not None
    assert back.end.final_scores == (22, -20)


def test_scoreless_ending_writes_each_rack_penalty() -> None:
    # The hand game ends on an exchange and a pass: one more pass is the third
    # scoreless turn, and each player loses their own rack.
    state, records = hand_game()
    played = pass_turn(state, 0)
    end = played.state.end
    assert end is not None
    assert end.reason == "scoreless"
    record = GameRecord(language="en", players=PLAYERS, moves=(*records, played.record))
    lines = export_gcg(record).splitlines()
    ana, ben = played.state.racks
    assert f">Ana_Lopez: {ana} ({ana}) -{-end.adjustments[0]} {end.final_scores[0]}" in lines
    assert f">Ben: {ben} ({ben}) -{-end.adjustments[1]} {end.final_scores[1]}" in lines
    assert end.adjustments[0] < 0
    assert lines[-1] == "#note Wordgame-End: scoreless"
    assert import_gcg("\n".join(lines)) == record


@pytest.mark.parametrize("action", [resign, timeout])
def test_resign_and_timeout_are_written_as_a_note(action: object) -> None:
    state, records = hand_game()
    played = action(state, 0)  # type: ignore[operator]
    record = GameRecord(language="en", players=PLAYERS, moves=(*records, played.record))
    text = export_gcg(record)
    assert text.splitlines()[-1] == f"#note Wordgame-End: {played.record.kind} Ana_Lopez"
    back = import_gcg(text)
    assert back == record
    assert back.end is not None
    assert back.end.winner == 1


def test_import_accepts_parenthesised_played_through_letters() -> None:
    _state, records = hand_game()
    text = export_gcg(GameRecord(language="en", players=PLAYERS, moves=tuple(records)))
    assert import_gcg(text.replace("HO.ED", "HO(A)ED")) == import_gcg(text)


def test_import_refuses_a_wrong_score() -> None:
    _state, records = hand_game()
    text = export_gcg(GameRecord(language="en", players=PLAYERS, moves=tuple(records)))
    with pytest.raises(ValueError, match="CAtS scores 6"):
        import_gcg(text.replace("CAtS +6 6", "CAtS +7 7"))


def test_import_refuses_an_illegal_play() -> None:
    bad = "#player1 a A\n#player2 b B\n>a: CATSEEN 1A CAT +9 9\n"
    with pytest.raises(ValueError, match="line 3"):
        import_gcg(bad)


def test_import_refuses_a_wrong_running_total() -> None:
    _state, records = hand_game()
    text = export_gcg(GameRecord(language="en", players=PLAYERS, moves=tuple(records)))
    with pytest.raises(ValueError, match="running total"):
        import_gcg(text.replace("CAtS +6 6", "CAtS +6 60"))


def test_import_of_non_ascii_language() -> None:
    state = GameState(
        language="es",
        layout="wwf",
        board=("." * 15,) * 15,
        racks=("AÑO?ABC", "EEEEEEE"),
        bag="",
        scores=(0, 0),
    )
    played = play(state, 0, tiles(7, 6, "across", "AÑOs"), AnyWord())
    record = GameRecord(language="es", players=PLAYERS, moves=(played.record,))
    text = export_gcg(record)
    assert "AÑOs" in text
    assert import_gcg(text) == record
