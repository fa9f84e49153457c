"""GCG records of games played under the classic preset, challenges and time penalties
included: export writes the lines Quackle, Macondo and Woogles write, and import reads
them back to the same scores and board."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine.gcg import GameRecord, export_gcg, import_gcg
from engine.moves import MoveRecord, Played, accept, challenge, exchange, pass_turn, penalize, resign
from engine.state import ChallengeRule, GameState, Rules, new_game, preset
from tests.engine.helpers import random_play

pytestmark = pytest.mark.pure

PLAYERS = ("Ana Lopez", "Ben Okafor")


class Judge:
    """A stand-in lexicon for challenges: a word is valid unless its length is a
    multiple of four (every play stands provisionally; only challenges ask)."""

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and len(word) % 4 != 0


def classic_game(seed: int, rules: Rules) -> tuple[GameState, list[MoveRecord]]:
    """A whole game under ``rules``: random plays, exchanges and passes, challenges of
    about a third of the plays, and a time penalty for seat 0 at the end."""
    rng = random.Random(seed)
    state = new_game("en", rng, rules=rules)
    records: list[MoveRecord] = []
    while not state.over:
        seat = state.turn
        pending = state.pending
        played: Played | None = None
        if pending is not None and (pending.final or rng.random() < 0.35):
            played = challenge(state, seat, Judge()) if rng.random() < 0.7 else None
            if played is None and pending.final:
                played = accept(state, seat)
        if played is None and len(records) > 150:
            played = resign(state, seat)
        if played is None:
            roll = rng.random()
            if roll < 0.85:
                played = random_play(state, rng)
            elif roll < 0.93 and len(state.bag) >= 7:
                rack = state.racks[seat]
                played = exchange(state, seat, rng.sample(rack, rng.randint(1, len(rack))), rng)
        if played is None:
            played = pass_turn(state, seat)
        state = played.state
        # Tiles are conserved through provisional plays and phonies taken back.
        state.check()
        records.append(played.record)
    penalised = penalize(state, 0, 10)
    records.append(penalised.record)
    return penalised.state, records


def record_of(state: GameState, records: list[MoveRecord]) -> GameRecord:
    going_out = state.rules.going_out if state.rules.going_out != "double" else None
    return GameRecord(
        language=state.tileset.language,
        players=PLAYERS,
        moves=tuple(records),
        layout=state.layout,
        going_out=going_out,
        challenge=state.rules.challenge,
    )


@pytest.mark.parametrize("rule", ["single", "double", "five"])
@pytest.mark.parametrize("seed", range(14))
def test_a_classic_game_round_trips_through_gcg(rule: ChallengeRule, seed: int) -> None:
    state, records = classic_game(seed, preset("classic", "en", challenge=rule))
    assert state.over
    record = record_of(state, records)
    assert record.language == "en-scrabble"
    assert record.scores() == state.scores
    assert record.board() == state.board
    text = export_gcg(record)
    back = import_gcg(text)
    assert back.scores() == state.scores
    assert back.board() == state.board
    # Read back and written again, the same text.
    assert export_gcg(back) == text
    assert back.end is not None
    assert state.end is not None
    assert back.end.final_scores == state.end.final_scores
    assert (back.end.reason, back.end.winner) == (state.end.reason, state.end.winner)
    assert ">Ana_Lopez: " in text
    assert "(time) -10" in text
    kinds = {r.kind for r in records}
    assert "challenge" in kinds


def test_the_lines_of_each_challenge_outcome() -> None:
    found: dict[str, str] = {}
    for rule in ("single", "double", "five"):
        for seed in range(6):
            state, records = classic_game(seed, preset("classic", "en", challenge=rule))
            text = export_gcg(record_of(state, records))
            for line in text.splitlines():
                if " -- -" in line:
                    found.setdefault("withdrawn", line)
                if "(challenge) +5 " in line:
                    found.setdefault("bonus", line)
                if line == "#note #unsuccessful-challenge":
                    found.setdefault("turn lost", line)
    # A phony taken back, Woogles' five-point bonus, Macondo's lost double challenge.
    assert set(found) == {"withdrawn", "bonus", "turn lost"}


def test_a_transfer_going_out_game_writes_both_rack_lines_and_reads_back() -> None:
    rules = replace(preset("classic", "en", challenge="single"), going_out="transfer")
    for seed in range(12):
        state, records = classic_game(seed, rules)
        if state.end is not None and state.end.reason == "out":
            break
    else:
        pytest.fail("no game went out")
    record = record_of(state, records)
    assert record.going_out == "transfer"
    back = import_gcg(export_gcg(record))
    assert back.going_out == "transfer"
    assert back.scores() == state.scores


def exported(seed: int = 1, rule: ChallengeRule = "double") -> tuple[GameState, str]:
    state, records = classic_game(seed, preset("classic", "en", challenge=rule))
    return state, export_gcg(record_of(state, records))


def test_move_lines_may_name_a_player_by_a_full_name_with_spaces() -> None:
    state, text = exported()
    spaced = text.replace(">Ana_Lopez:", ">Ana Lopez:").replace(">Ben_Okafor:", ">Ben Okafor:")
    assert ">Ana Lopez: " in spaced
    record = import_gcg(spaced)
    assert record.players == PLAYERS
    assert record.scores() == state.scores


def test_an_exchange_written_as_a_count_without_the_rack_is_read() -> None:
    for seed in range(12):
        state, text = exported(seed)
        lines = text.splitlines()
        exchanges = [
            i for i, line in enumerate(lines) if " -" in line and " +0 " in line and " - +0 " not in line
        ]
        if exchanges:
            break
    else:
        pytest.fail("no game exchanged")
    index = exchanges[0]
    nick, rest = lines[index].split(": ", 1)
    _rack, tiles, zero, total = rest.split()[:4]
    lines[index] = f"{nick}: -{len(tiles) - 1} {zero} {total}"
    record = import_gcg("\n".join(lines))
    (counted,) = [m for m in record.moves if m.kind == "exchange" and m.exchanged_count]
    assert counted.exchanged == ()
    assert counted.exchanged_count == len(tiles) - 1
    assert record.scores() == state.scores
    # Export writes the count back.
    assert f"{nick}: -{len(tiles) - 1} +0 {total}" in export_gcg(record).splitlines()


def test_an_exchange_of_more_tiles_than_a_rack_holds_is_refused() -> None:
    _state, text = exported()
    first_move = next(line for line in text.splitlines() if line.startswith(">"))
    nick = first_move.split(":")[0]
    with pytest.raises(ValueError, match="an exchange of 8 tiles"):
        import_gcg(text.replace(first_move, f"{nick}: -8 +0 0"))


def test_players_with_one_nickname_are_read_in_turn_through_challenges_and_the_end() -> None:
    state, text = exported(2, "five")
    same = text.replace("#player1 Ana_Lopez", "#player1 NoName").replace(
        "#player2 Ben_Okafor", "#player2 NoName"
    )
    same = same.replace(">Ana_Lopez:", ">NoName:").replace(">Ben_Okafor:", ">NoName:")
    # The time penalty after the end names no turn: leave it out.
    same = "\n".join(
        line for line in same.splitlines() if "(time)" not in line and "Wordgame-End" not in line
    )
    record = import_gcg(same)
    assert record.scores() == (state.scores[0] + 10, state.scores[1])


def test_the_stored_classic_game_reads_and_writes_back_to_the_same_text() -> None:
    """``gcg/classic_preset_double.gcg`` is this engine's export of ``classic_game(9)``
    under the double challenge (random plays, the words not real): three phonies taken
    back, three challenges lost (each a pass and Macondo's note), exchanges, the pass that
    accepted the last play, the doubled rack and a time penalty. A change of the
    written form shows here."""
    path = Path(__file__).resolve().parent / "gcg" / "classic_preset_double.gcg"
    text = path.read_text(encoding="utf-8")
    record = import_gcg(text)
    assert record.scores() == (264, 699)
    assert record.challenge == "double"
    assert [e.kind for e in record.events].count("withdrawn") == 3
    assert [m.kind for m in record.moves].count("challenge") == 3
    assert record.moves[-1].kind == "accept"
    assert export_gcg(record) == text
    state, records = classic_game(9, preset("classic", "en", challenge="double"))
    assert export_gcg(record_of(state, records)) == text
