"""The issue's key test: a moderator approves a proposed word, and a separate server
process (sharing only the database) finds it valid and playable within 5 seconds,
without a restart."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from dictionaries.services import propose_change

ROOT = Path(settings.BASE_DIR)

# The other process: a stand-in for a second server worker. It loads the live English
# lexicon, reports that the word is absent, then polls for_language() the way every
# request does until the word is there and a first move playing it evaluates.
WORKER = """
import sys, time
import django
from django.conf import settings
settings.DATABASES["default"]["NAME"] = sys.argv[1]
django.setup()
from dictionaries.lexicons import for_language
from engine import Placement, evaluate, layout, tileset
word = sys.argv[2]
first = for_language("en")
print("absent" if word not in first else "present", first.version, flush=True)
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    lexicon = for_language("en")
    if word in lexicon:
        geometry = layout("wwf")
        tiles = [Placement(7, 7 + i, letter) for i, letter in enumerate(word)]
        move = evaluate(geometry.empty_board(), tiles, tileset=tileset("en"), layout=geometry, lexicon=lexicon)
        print("playable", move.score, lexicon.version, flush=True)
        break
    time.sleep(0.02)
else:
    print("timeout", flush=True)
"""


def start_worker(script: str, lexicon_dir: Path, *args: str) -> subprocess.Popen[str]:
    """Another process on the same test database (its name is passed: the file of this
    run on SQLite, ``test_<name>`` on PostgreSQL) and the same lexicons."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "wordgame.settings", "LEXICON_DIR": str(lexicon_dir)}
    return subprocess.Popen(
        [sys.executable, "-c", script, str(connection.settings_dict["NAME"]), *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.django_db(transaction=True)
def test_approved_word_is_playable_in_another_process_within_5_seconds(
    lexicon_dir: Path, ana: Any, mia: Any
) -> None:
    from dictionaries.services import ensure_dictionaries

    ensure_dictionaries()
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana, reason="test")
    worker = start_worker(WORKER, lexicon_dir, "BLORP")
    try:
        assert worker.stdout is not None
        first = worker.stdout.readline().split()
        assert first == ["absent", "0"], worker.stderr.read() if worker.stderr else first
        approved_at = time.monotonic()
        change.approve(by=mia)
        seen = worker.stdout.readline().split()
        elapsed = time.monotonic() - approved_at
        assert seen[0] == "playable", seen
        assert int(seen[1]) > 0
        assert int(seen[2]) == 1  # the worker reports the version the approval produced
        assert elapsed < 5.0
    finally:
        worker.kill()
        worker.communicate(timeout=10)


# The other process as a game server: it tries to play the word in a running game
# the way the play view does (Game.play, which locks the row and checks the live
# lexicon), and asks the move generator for the same rack, until both know the word.
GAME_WORKER = """
import sys, time
import django
from django.conf import settings
settings.DATABASES["default"]["NAME"] = sys.argv[1]
django.setup()
from django.contrib.auth import get_user_model
from engine import IllegalMove, Placement, layout, movegen
from games.models import Game
game_id, word = int(sys.argv[2]), sys.argv[3]
ana = get_user_model().objects.get(username="ana")
tiles = [Placement(7, 7 + i, letter) for i, letter in enumerate(word)]
refused = None
deadline = time.monotonic() + 20
while time.monotonic() < deadline:
    game = Game.objects.get(pk=game_id)
    try:
        move = game.play(ana, tiles, version=game.version)
    except IllegalMove as exc:
        if refused is None:
            refused = exc.code
            print("refused", exc.code, flush=True)
        time.sleep(0.02)
        continue
    print("played", move.score, move.dictionary_version, flush=True)
    break
else:
    print("timeout", flush=True)
    sys.exit(1)
# Move generation sees the moderated word too (a fresh position: the same rack, empty board).
game = Game.objects.get(pk=game_id)
found = movegen.generate(layout("wwf").empty_board(), word + "E", tileset=game.state_obj().tileset,
                         layout=layout("wwf"), lexicon=game.lexicon())
print("generated", any(w.word == word for m in found for w in m.words), flush=True)
"""


@pytest.mark.django_db(transaction=True)
def test_approved_word_is_played_in_a_running_game_in_another_process(
    lexicon_dir: Path, ana: Any, ben: Any, mia: Any
) -> None:
    from dictionaries.services import ensure_dictionaries
    from games.models import Move
    from tests.games.helpers import make_game

    ensure_dictionaries()
    game = make_game(ana, ben, racks=("BLORPAE", "CATSEOD"))
    change = propose_change(language="en", word="blorp", action="add", proposed_by=ana, reason="test")
    worker = start_worker(GAME_WORKER, lexicon_dir, str(game.pk), "BLORP")
    try:
        assert worker.stdout is not None
        first = worker.stdout.readline().split()
        assert first == ["refused", "word_not_in_lexicon"], worker.stderr.read() if worker.stderr else first
        approved_at = time.monotonic()
        change.approve(by=mia)
        played = worker.stdout.readline().split()
        elapsed = time.monotonic() - approved_at
        assert played[0] == "played", (played, worker.stderr.read() if worker.stderr else "")
        assert elapsed < 5.0
        assert worker.stdout.readline().split() == ["generated", "True"]
    finally:
        worker.kill()
        worker.communicate(timeout=10)
    move = Move.objects.get(game=game)
    assert move.words_text.split() == ["BLORP"]
    assert move.dictionary_version == 1  # the version the approval produced
