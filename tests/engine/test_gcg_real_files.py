"""Every GCG file in Quackle's, Macondo's and Woogles's (liwords) test data.

``gcg/real/`` holds them as those projects publish them, each folder with its
licence; ``gcg/real/README.md`` says where each comes from and which are not
complete two-player English games (and why). Import re-scores every play and checks
every running total, so a file that imports has every score equal to the file's.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from engine.gcg import decode_gcg, export_gcg, import_gcg

pytestmark = pytest.mark.pure

REAL = Path(__file__).resolve().parent / "gcg" / "real"
FILES = sorted(REAL.glob("*/*.gcg"))

#: Not a two-player English game, or a file that is itself wrong (README.md).
REFUSED = {
    "macondo/gcgio--polish_endgame.gcg": "HUJA scores 28 by the rules, the file says \\+20",
    "macondo/gcgio--name_weird_encoding_with_header.gcg": "unsupported GCG character encoding 'ISO8859-6'",
    "quackle/test--positions--multiplayer-crash.gcg": "two-player records; the file has #player3",
}
#: Positions kept for analysis tests: the game stops before its end.
INCOMPLETE = {
    "macondo/gcgio--guy_vs_bot_almost_complete.gcg",
    "macondo/gcgio--incomplete.gcg",
    "macondo/gcgio--incomplete4.gcg",
    "macondo/gcgio--incomplete_3.gcg",
    "macondo/gcgio--incomplete_elise.gcg",
    "macondo/gcgio--name_iso8859-1.gcg",
    "macondo/gcgio--name_utf8_noheader.gcg",
    "macondo/gcgio--name_utf8_with_header.gcg",
    "quackle/test--positions--consonant_heaviness_tendency.gcg",
    "quackle/test--positions--deadwoodendgame.gcg",
    "quackle/test--positions--logan_we.gcg",
    "quackle/test--positions--one_tile_play.gcg",
    "quackle/test--positions--preendgame.gcg",
    "quackle/test--positions--preendgame2.gcg",
    "quackle/test--positions--preendgame4.gcg",
    "quackle/test--positions--short_game_with_bad_moves.gcg",
}


def name(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def last_totals(text: str, nicks: list[str]) -> tuple[int, ...]:
    """Each player's last running total, as the file writes it: the number right
    after a line's first signed score (a note may follow it)."""
    totals = dict.fromkeys(nicks, 0)
    for line in text.splitlines():
        nick, colon, rest = line.strip().removeprefix(">").partition(":")
        if not line.startswith(">") or not colon:
            continue
        tokens = rest.split()
        for score, total in itertools.pairwise(tokens):
            if re.fullmatch(r"[+-]\d+", score) and re.fullmatch(r"-?\d+", total):
                totals[nick.strip()] = int(total)
                break
    return tuple(totals[nick] for nick in nicks)


def test_the_data_is_all_there_with_its_licences() -> None:
    assert len(FILES) == 87
    for folder in ("macondo", "liwords", "quackle"):
        assert any((REAL / folder).glob("LICENSE*"))
    assert set(REFUSED) | INCOMPLETE <= {name(p) for p in FILES}


@pytest.mark.parametrize("path", FILES, ids=name)
def test_each_real_file_imports_with_the_files_scores_or_is_refused_for_its_stated_reason(path: Path) -> None:
    key = name(path)
    data = path.read_bytes()
    if key in REFUSED:
        with pytest.raises(ValueError, match=REFUSED[key]):
            import_gcg(decode_gcg(data))
        return
    text = decode_gcg(data)
    record = import_gcg(text)
    if key in INCOMPLETE:
        assert record.end is None
        return
    nicks = [line.split()[1] for line in text.splitlines() if line.startswith("#player")]
    assert record.end is not None, "a complete game has an end"
    assert record.scores() == last_totals(text, nicks)
    assert record.end.final_scores == record.scores()
    # Export writes the same game: read back, the same moves, board and scores.
    again = import_gcg(export_gcg(record))
    assert again.scores() == record.scores()
    assert again.board() == record.board()
    assert again.moves == record.moves


def test_the_wespa_game_is_scored_by_the_transfer_rule_with_a_five_point_challenge() -> None:
    text = decode_gcg((REAL / "quackle" / "test--positions--fivepoint.gcg").read_bytes())
    record = import_gcg(text)
    assert record.going_out == "transfer"
    assert [(e.kind, e.points) for e in record.events] == [("challenge", 5)]
    assert record.end is not None
    assert record.end.adjustments == (-1, 1)
    assert record.scores() == (452, 360)


def test_macondos_pass_before_the_last_rack_points_accepts_the_last_play() -> None:
    text = decode_gcg((REAL / "macondo" / "gcgio--doug_v_emely_double_challenge.gcg").read_bytes())
    record = import_gcg(text)
    assert [m.kind for m in record.moves[-2:]] == ["play", "accept"]
    assert record.scores() == (451, 345)
    assert record.end is not None
    assert record.end.seat == 1


def test_both_players_with_the_same_nickname_are_read_in_turn() -> None:
    text = decode_gcg((REAL / "quackle" / "test--positions--consonant_heaviness_tendency.gcg").read_bytes())
    record = import_gcg(text)
    assert record.players == ("New Player 2", "jasonkb")
    assert [m.seat for m in record.moves[:4]] == [0, 1, 0, 1]
    assert record.scores() == (345, 356)
    assert any("NoName" in note for note in record.notes)


def test_an_undeclared_encoding_is_utf8_when_it_can_be_else_latin1() -> None:
    latin = import_gcg(decode_gcg((REAL / "macondo" / "gcgio--name_iso8859-1.gcg").read_bytes()))
    utf8 = import_gcg(decode_gcg((REAL / "macondo" / "gcgio--name_utf8_noheader.gcg").read_bytes()))
    assert latin.players[0] == utf8.players[0] == "césar"
