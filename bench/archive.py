"""The archive with 10,000 finished games for one player (issue 30: every filter
combination under 100 ms at the median, with a constant number of queries).

What: ``games.archive.page`` (the page and the API read it) for ana, who has played
10,000 finished games (against 40 people and the computer, in three languages, ten
moves each, words drawn from the English word list), among 10,000 more finished games
between other players. Every combination of the filters (opponent, language, result,
mode, rated, tournament, dates, end reason, word: 2^9 = 512), each for the first page
and for a deep page (the cursor of the 5,000th game of the unfiltered set), each run
``--repeat`` times and the median kept; the queries of every run are counted (2: the
games and their seats; 1 when the page is empty). Also the head-to-head summary against
one opponent under each combination (4 queries). Printed per kind: the median over the
combinations, the 90th percentile, the worst combination and how many exceed 100 ms.

The database is the one ``DATABASE_URL`` names (migrated here, and filled once: the
rows are kept for later runs). Point it at a database of its own, never one in use:

    createdb wordgame_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/wordgame_bench .venv/bin/python bench/archive.py

Without ``DATABASE_URL``, a SQLite file in the system's temporary directory.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wordgame.settings")
if not os.environ.get("DATABASE_URL"):
    os.environ["DATABASE_URL"] = f"sqlite:///{Path(tempfile.gettempdir()) / 'wordgame-archive-bench.sqlite3'}"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games import archive  # noqa: E402
from games.archive import Filters  # noqa: E402
from games.models import Game, Move, Seat  # noqa: E402

GAMES = 10_000
MOVES = 10
OPPONENTS = 40
LANGUAGES = ("en", "de", "fr")
#: One value per filter: the combinations switch each on or off.
CHOICES: dict[str, Any] = {
    "opponent": "opp7",
    "language": "en",
    "result": "win",
    "mode": Game.Mode.FRIEND,
    "rated": True,
    "tournament": False,
    "dates": None,  # since/until, set from the data
    "end_reason": Game.EndReason.OUT,
    "word": "quixotic",
}


def words() -> list[str]:
    with gzip.open(ROOT / "fixtures" / "lexicons" / "en.txt.gz", "rt", encoding="utf-8") as lines:
        found = [w.strip().upper() for w in lines if 4 <= len(w.strip()) <= 9]
    return random.Random(1).sample(found, 3000)


def fill(rng: random.Random) -> User:
    """ana's 10,000 games and 10,000 others, once (the rows stay for later runs)."""
    ana = User.objects.filter(username="ana").first()
    if ana is not None and Seat.objects.filter(user=ana).count() >= GAMES:
        return ana
    people = [
        User.objects.create_user(username=name, password="bench-password")
        for name in ["ana", *(f"opp{i}" for i in range(OPPONENTS))]
    ]
    ana, opponents = people[0], people[1:]
    vocabulary = words()
    now = timezone.now()
    for owner_games in (True, False):
        for start in range(0, GAMES, 1000):
            batch = []
            pairs = []
            for i in range(start, start + 1000):
                first = ana if owner_games else rng.choice(opponents)
                second = rng.choice([*opponents, None]) if owner_games else rng.choice(opponents)
                if second is first:
                    second = None
                computer = second is None
                batch.append(
                    Game(
                        language=rng.choice(LANGUAGES),
                        mode=Game.Mode.COMPUTER
                        if computer
                        else rng.choice([Game.Mode.FRIEND, Game.Mode.RANDOM]),
                        status=Game.Status.FINISHED,
                        created_by=first,
                        seed=i,
                        inactivity_days=11,
                        version=MOVES + 1,
                        end_reason=rng.choice(list(Game.EndReason.values)),
                        winner_seat=rng.choice([0, 1, 1, 0, None]),
                        final_scores=[rng.randint(150, 500), rng.randint(150, 500)],
                        is_public=rng.random() < 0.8,
                        rated=not computer and rng.random() < 0.5,
                        finished_at=now - timedelta(minutes=GAMES * 2 - i - (0 if owner_games else GAMES)),
                    )
                )
                pairs.append((first, second))
            Game.objects.bulk_create(batch)
            seats, moves = [], []
            for game, (first, second) in zip(batch, pairs, strict=True):
                scores = game.final_scores or [0, 0]
                seats.append(Seat(game=game, index=0, user=first, score=scores[0]))
                seats.append(
                    Seat(
                        game=game,
                        index=1,
                        user=second,
                        computer_level="" if second else "easy",
                        score=scores[1],
                    )
                )
                for number in range(1, MOVES + 1):
                    word = rng.choice(vocabulary)
                    moves.append(
                        Move(
                            game=game,
                            number=number,
                            seat=(number - 1) % 2,
                            user=(first, second)[(number - 1) % 2],
                            kind=Move.Kind.PLAY,
                            words=[{"word": word, "score": 20, "start": [7, 7], "direction": "across"}],
                            words_text=f" {word} ",
                            score=20,
                            engine_record={},
                        )
                    )
            Seat.objects.bulk_create(seats)
            Move.objects.bulk_create(moves, batch_size=2000)
    # One rare word, in one of ana's games only.
    rare = (
        Move.objects.filter(game__seats__user=ana, number=3)
        .order_by("game_id")
        .values_list("pk", flat=True)[0]
    )
    quixotic = [{"word": "QUIXOTIC", "score": 90, "start": [7, 7], "direction": "across"}]
    Move.objects.filter(pk=rare).update(words_text=" QUIXOTIC ", words=quixotic)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return ana


def timed(run: Any, repeat: int) -> tuple[float, int]:
    """The median time of ``run`` in ms over ``repeat`` runs, and its queries (the same
    every run, or this fails)."""
    times, counts = [], set()
    for _ in range(repeat):
        connection.queries_log.clear()  # the log keeps 9,000 queries: counts past that are wrong
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            run()
            times.append((time.perf_counter() - started) * 1000)
        counts.add(len(queries))
    assert len(counts) == 1, counts
    return statistics.median(times), counts.pop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    ana = fill(random.Random(30))
    opponent = User.objects.get(username=CHOICES["opponent"])
    ordered = archive.games_of(ana, ana, Filters()).order_by("-finished_at", "-pk")
    deep = ordered[GAMES // 2 - 1 : GAMES // 2][0]
    middle = deep.finished_at
    assert middle is not None
    cursor = archive.encode_cursor(deep)
    names = list(CHOICES)
    results: list[tuple[str, str, float, int]] = []
    for size in range(len(names) + 1):
        for chosen in itertools.combinations(names, size):
            values = {name: CHOICES[name] for name in chosen if name != "dates"}
            if "dates" in chosen:
                values["since"] = (middle - timedelta(days=3)).date()
                values["until"] = middle.date()
            filters = Filters(**values)
            label = "+".join(chosen) or "none"
            for where, at in (("first", ""), ("deep", cursor)):
                ms, queries = timed(lambda f=filters, c=at: archive.page(ana, ana, f, cursor=c), args.repeat)
                results.append((label, where, ms, queries))
            ms, queries = timed(lambda f=filters: archive.head_to_head(ana, ana, opponent, f), args.repeat)
            results.append((label, "head-to-head", ms, queries))
    print(f"database: {connection.vendor}; games of ana: {GAMES}; combinations: {2 ** len(names)}")
    for where in ("first", "deep", "head-to-head"):
        rows = [r for r in results if r[1] == where]
        times = sorted(r[2] for r in rows)
        worst = max(rows, key=lambda r: r[2])
        print(
            f"{where:>12}: median {statistics.median(times):6.1f} ms, p90 {times[int(len(times) * 0.9)]:6.1f} ms, "
            f"worst {worst[2]:6.1f} ms ({worst[0]}), over 100 ms: {sum(t > 100 for t in times)}, "
            f"queries {sorted({r[3] for r in rows})}"
        )


if __name__ == "__main__":
    main()
