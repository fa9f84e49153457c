"""GCG records written by Quackle, Macondo and Woogles (engine/gcg.py import).

The files in ``tests/engine/gcg/`` were written for these tests in each program's style
(a classic-Scrabble game on the Scrabble board, played with real words): Quackle's
played-through letters written as letters, lowercase positions, ``-- +0`` for a phony
taken back and padded rack-less lines; Macondo's ``#note`` lines, ``.`` for played-through
letters and ``>nick:  (challenge) +5``; Woogles's ``#tile-distribution``/``#board-layout``
pragmas and a time penalty after the end. Their scores are exact by this engine's rules.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.board import board_tiles
from engine.gcg import GameRecord, export_gcg, import_gcg
from engine.tiles import tileset
from tests.engine.test_gcg import PLAYERS, hand_game

pytestmark = pytest.mark.pure

FILES = Path(__file__).resolve().parent / "gcg"
STYLES = ("quackle", "macondo", "woogles")


def text(style: str) -> str:
    return (FILES / f"{style}_style.gcg").read_text(encoding="utf-8")


def last_total(gcg: str, nick: str) -> int:
    return int(next(line for line in reversed(gcg.splitlines()) if line.startswith(f">{nick}:")).split()[-1])


@pytest.mark.parametrize("style", STYLES)
def test_classic_scrabble_record_imports_and_scores_exactly(style: str) -> None:
    gcg = text(style)
    record = import_gcg(gcg)
    assert (record.language, record.layout) == ("en-scrabble", "scrabble")
    nicks = [line.split()[1] for line in gcg.splitlines() if line.startswith("#player")]
    expected = tuple(last_total(gcg, nick) for nick in nicks)
    assert record.scores() == expected
    end = record.end
    assert end is not None
    assert end.reason == "out"
    assert end.final_scores == expected
    # Scrabble's rule: the player who went out gains twice the other rack, which loses nothing.
    assert end.seat is not None
    left = "I"  # the last rack line of each file: ">...: (I) +2"
    assert end.adjustments[end.seat] == 2 * tileset("en-scrabble").rack_value(left)
    assert end.adjustments[1 - end.seat] == 0
    # Tiles are conserved: the board holds every tile but the rack left over.
    on_board = Counter(board_tiles(record.board()))
    assert on_board + Counter(left) == Counter(tileset("en-scrabble").full_bag())
    kinds = [event.kind for event in record.events]
    assert kinds == (["challenge", "withdrawn", "time"] if style == "woogles" else ["challenge", "withdrawn"])


@pytest.mark.parametrize("style", STYLES)
def test_imported_record_round_trips_through_export(style: str) -> None:
    record = import_gcg(text(style))
    again = import_gcg(export_gcg(record))
    assert again.moves == record.moves
    assert again.events == record.events
    assert again.scores() == record.scores()
    assert again.board() == record.board()


def test_played_through_letters_as_letters_dots_or_parentheses_agree() -> None:
    quackle = import_gcg(text("quackle"))
    macondo = import_gcg(text("macondo"))
    assert quackle.moves == macondo.moves
    assert quackle.board() == macondo.board()
    parenthesised = text("macondo").replace("5E MOJ. +26", "5E MOJ(O) +26")
    assert import_gcg(parenthesised).moves == macondo.moves


def test_a_played_through_letter_must_match_the_board() -> None:
    wrong = text("quackle").replace("6e SPOOR +38", "6e SPOAR +38")
    with pytest.raises(ValueError, match="letter 4 is A, the board has O"):
        import_gcg(wrong)


def test_phony_taken_back_leaves_the_board_and_costs_the_turn() -> None:
    record = import_gcg(text("macondo"))
    (phony,) = [event for event in record.events if event.kind == "withdrawn"]
    assert phony.play is not None
    assert phony.points == 0
    assert phony.play.words[0].word == "RIN"
    assert phony.seat == 1
    # Right after it, Ana plays QIS through C3 where the phony's R stood: the square
    # was free again, and Ben had lost his turn.
    after = record.moves[phony.after]
    assert after.seat == 0
    assert after.words[0].word == "QIS"
    assert (2, 2) in {(p.row, p.col) for p in phony.play.placements}
    assert (2, 2) in {(p.row, p.col) for p in after.placements}


def test_phony_taken_back_with_the_wrong_score_is_refused() -> None:
    with pytest.raises(ValueError, match="taking it back is -8"):
        import_gcg(text("macondo").replace("UNRLRPN  -- -8 125", "UNRLRPN  -- -9 124"))


def test_challenge_bonus_goes_only_to_the_player_just_challenged() -> None:
    wrong = text("macondo").replace(">ana:  (challenge) +5 118", ">ben:  (challenge) +5 31")
    with pytest.raises(ValueError, match="challenge bonus goes to the player whose play"):
        import_gcg(wrong)


def test_time_penalty_must_lower_the_score() -> None:
    with pytest.raises(ValueError, match="unsupported move line"):
        import_gcg(text("woogles").replace("(time) -10 420", "(time) +10 440"))


def test_notes_after_the_running_total_are_accepted() -> None:
    noted = text("macondo").replace("RIVER +14 92", "RIVER +14 92 looked for VERIER first")
    assert import_gcg(noted) == import_gcg(text("macondo"))


def test_end_rack_points_must_follow_one_of_the_going_out_rules() -> None:
    # The example: a +520 rack line with a matching total used to be accepted.
    inflated = text("quackle").replace("(I) +2 352", "(I) +520 870")
    with pytest.raises(ValueError, match=r"I is worth 1: going out gains 1 \(the rack moved over\) or 2"):
        import_gcg(inflated)
    # The transfer (gain once, the other player loses it, as WESPA and this game
    # score it) is read as such, and then needs the other player's line.
    transfer = text("quackle").replace("(I) +2 352", "(I) +1 351")
    with pytest.raises(ValueError, match="loses their rack: that line is missing"):
        import_gcg(transfer)
    record = import_gcg(transfer + ">Ana_Lopez: I (I) -1 429\n")
    assert record.going_out == "transfer"
    assert record.scores() == (429, 351)
    assert import_gcg(text("quackle")).going_out is None  # the classic set's own rule
    penalty_line = text("quackle") + ">Ana_Lopez: I (I) -1 429\n"
    with pytest.raises(ValueError, match="who did not go out loses nothing"):
        import_gcg(penalty_line)


def test_end_rack_must_be_tiles_left_off_the_board() -> None:
    # The Z is on the board (ZOONAL): it cannot be on the last rack.
    with pytest.raises(ValueError, match="Z is not among the tiles left off the board"):
        import_gcg(text("quackle").replace("(I) +2 352", "(Z) +20 370"))


def test_this_games_rules_still_need_both_rack_lines() -> None:
    # A going-out game exported by this engine (project rules: +value and -value).
    from engine.moves import pass_turn, play
    from engine.state import GameState
    from tests.engine.helpers import AnyWord, tiles

    state = GameState(
        language="en", layout="wwf", board=("." * 15,) * 15, racks=("ST", "QZ"), bag="", scores=(0, 0), turn=1
    )
    passed = pass_turn(state, 1)
    played = play(passed.state, 0, tiles(7, 7, "across", "ST"), AnyWord())
    lines = export_gcg(GameRecord("en", PLAYERS, (passed.record, played.record))).splitlines()
    without_loss = "\n".join(line for line in lines if not line.startswith(">Ben: QZ (QZ)"))
    with pytest.raises(ValueError, match="loses their rack: that line is missing"):
        import_gcg(without_loss)
    # Doubled, the other rack's line has no place (the classic rule).
    doubled = "\n".join(lines).replace("(QZ) +20 22", "(QZ) +40 42")
    with pytest.raises(ValueError, match="who did not go out loses nothing"):
        import_gcg(doubled)
    doubled_alone = "\n".join(line for line in doubled.splitlines() if not line.startswith(">Ben: QZ (QZ)"))
    assert import_gcg(doubled_alone).scores() == (42, 0)


def test_scoreless_ending_needs_the_rules_number_of_scoreless_turns() -> None:
    from engine.moves import pass_turn

    state, records = hand_game()  # ends on an exchange and a pass: 2 scoreless turns
    ended = pass_turn(state, 0)
    lines = export_gcg(GameRecord("en", PLAYERS, (*records, ended.record))).splitlines()
    assert import_gcg("\n".join(lines)).end is not None
    # Without the third scoreless turn, the rack penalties come too early.
    early = [line for line in lines if not line.startswith(">Ana_Lopez: ") or " - +0 " not in line]
    with pytest.raises(ValueError, match="after 3 scoreless turns by this game's rules; this game had 2"):
        import_gcg("\n".join(early))


def test_more_than_two_players_is_refused() -> None:
    three = text("quackle").replace("#title", "#player3 Cleo Cleo Martin\n#title")
    with pytest.raises(ValueError, match="two-player records; the file has #player3"):
        import_gcg(three)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("#tile-distribution english", "#note Wordgame-Language: xx", "unknown tile set 'xx'"),
        ("#game-type classic", "#game-type wordsmog", "not classic"),
    ],
)
def test_an_unknown_tile_set_of_our_own_or_a_variant_is_refused(old: str, new: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        import_gcg(text("woogles").replace(old, new))


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("#tile-distribution english", "#tile-distribution english_super"),
        ("#board-layout CrosswordGame", "#board-layout SuperCrosswordGame"),
    ],
)
def test_another_programs_unknown_pragma_is_kept_with_a_note(old: str, new: str) -> None:
    record = import_gcg(text("woogles").replace(old, new))
    assert new in record.pragmas
    assert any(note.startswith(new) for note in record.notes)
    # The moves were read on the classic board with the classic tiles, as before.
    assert record.scores() == import_gcg(text("woogles")).scores()
    assert new in export_gcg(record).splitlines()


def test_an_exchange_written_as_a_count_of_tiles_is_read() -> None:
    numeric = text("woogles").replace(">ana: TGTINIE A1 INTI +26 113", ">ana: TGTINIE -4 +0 87")
    numeric = numeric.replace(">ana: GTENYAW (challenge) +5 118\n", "")
    numeric = numeric.replace(">ana: GTENYAW H12 AWNY +36 154", ">ana: GTENYAW H12 AWNY +36 123")
    with pytest.raises(ValueError, match="running total 182 should be 151"):
        import_gcg(numeric)
