"""The server CPU (not wall time) of a move: its POST and its pushes to the three kinds of
viewer, per move, in process.

It runs the ``bench/move_cost.py`` of the checkout it is started from (the current
directory), wrapping the test client's POST and the push function it calls with
``time.thread_time()`` (``--clock process``: ``time.process_time()``, every thread); so
the same script measures an older checkout (an A/B in one run on one machine) and, on a
shared machine, other processes' load barely moves it (unlike ``move_cost.py``'s wall
times). A push made inside the POST (the answer of an
older checkout) counts for the POST only.

Run, in each checkout (a database of its own each)::

    cd <checkout> && DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> \\
        <this checkout>/.venv/bin/python <this checkout>/bench/move_cpu.py --games 3
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import statistics
import sys
import tempfile
import time
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument(
        "--clock",
        choices=["thread", "process"],
        default="thread",
        help="thread: CPU of the thread making the POST or the push (default); process: of every "
        "thread of the process (also the event loop's sends, and any background thread)",
    )
    args = parser.parse_args()
    clock = time.thread_time if args.clock == "thread" else time.process_time
    sys.path.insert(0, os.getcwd())
    sys.path.insert(0, os.path.join(os.getcwd(), "bench"))
    import move_cost  # the checkout's own

    with tempfile.TemporaryDirectory() as var_dir:
        move_cost.setup_django(var_dir)
        for name in ("wordgame.access", "accounts.logins"):
            logging.getLogger(name).disabled = True
        from django.test import Client

        try:
            from games import live as pushes_module
        except ImportError:  # before the live path had its own module
            from games import rendering as pushes_module  # type: ignore[no-redef]

        posts: list[float] = []
        pushes: list[float] = []
        inside = [False]
        post = Client.post
        push = pushes_module.shared_push

        def timed_post(self: Client, *a: Any, **k: Any) -> Any:
            inside[0] = True
            pushes.append(0.0)
            started = clock()
            try:
                return post(self, *a, **k)
            finally:
                posts.append((clock() - started) * 1000)
                inside[0] = False

        # Keeps the signature: an older move_cost.py inspects it (the version announced).
        @functools.wraps(push)
        def timed_push(*a: Any, **k: Any) -> Any:
            if inside[0] or not pushes:
                return push(*a, **k)
            started = clock()
            try:
                return push(*a, **k)
            finally:
                pushes[-1] += (clock() - started) * 1000

        Client.post = timed_post  # type: ignore[method-assign]
        pushes_module.shared_push = timed_push
        move_cost.play_games(args.games)

    def summary(values: list[float]) -> str:
        return f"median {statistics.median(values):.1f}, mean {statistics.mean(values):.1f}, worst {max(values):.1f}"

    together = [p + q for p, q in zip(posts, pushes, strict=True)]
    print(f"moves: {len(posts)} in {args.games} games; CPU of the {args.clock}")
    print(f"CPU ms, move POST: {summary(posts)}")
    print(f"CPU ms, pushes for 3 kinds of viewer: {summary(pushes)}")
    print(f"CPU ms, POST and pushes: {summary(together)}")


if __name__ == "__main__":
    main()
