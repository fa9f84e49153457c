"""A checker for TSH's files, written from TSH's manual (configuration:
https://www.poslarchive.com/tsh/doc/config.html; the ``.t`` data file as the manual and
TSH's own files write it), so a test can say "TSH would read this" without TSH.

``config.tsh``: a sequence of lines whose first word gives their kind (``#`` starts a
comment); at least one ``division <name> <file>`` line; division names are
case-insensitive and each division has its own name and its own file; a line about a
division (``classes``, ``autopair``, ``prize``) comes after its declaration; options
are ``config <name> = <value>``.

A ``.t`` file: one line per player, the line number being the player's number: the
name, the rating, the opponent in each round (0: nobody), then after a semicolon the
score of each round with a result (no more scores than rounds), then optional
``;``-separated extra fields such as ``p12`` with one value (0 to 3) per round.
Pairings must agree: if player A's opponent in a round is B, B's is A.
"""

from __future__ import annotations

import re

KINDS = {"division", "classes", "config", "autopair", "prize", "perl", "begin", "#"}
ABOUT_A_DIVISION = {"classes", "autopair"}
CONFIG = re.compile(r"^config\s+[A-Za-z_][A-Za-z0-9_]*\s*=\s*\S.*$")
DIVISION_NAME = re.compile(r"^[A-Za-z0-9_]+$")
PLAYER = re.compile(r"^(?P<name>.*?\S)\s+(?P<rating>\d+)(?P<opponents>(\s+\d+)*)\s*$")


def config_problems(text: str, files: dict[str, str]) -> list[str]:
    """What in ``text`` (a ``config.tsh``) TSH would not read, with ``files`` the other
    files of the folder by name."""
    problems: list[str] = []
    names: set[str] = set()
    paths: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        words = line.split()
        kind = words[0].lower()
        if kind not in KINDS:
            problems.append(f"line {number}: unknown kind {words[0]!r}")
        elif kind == "division":
            if len(words) != 3 or not DIVISION_NAME.match(words[1]):
                problems.append(f"line {number}: a division line is 'division <name> <file>'")
                continue
            name, path = words[1].lower(), words[2]
            if name in names:
                problems.append(f"line {number}: division {name} declared twice")
            if path in paths:
                problems.append(f"line {number}: file {path} used by two divisions")
            names.add(name)
            paths.add(path)
            if path not in files:
                problems.append(f"line {number}: no file {path}")
            else:
                problems += [f"{path}: {p}" for p in t_file_problems(files[path])]
        elif kind == "config":
            if not CONFIG.match(line):
                problems.append(f"line {number}: a config line is 'config <name> = <value>'")
        elif kind in ABOUT_A_DIVISION and (len(words) < 2 or words[1].lower() not in names):
            problems.append(f"line {number}: {kind} names a division not declared before it")
    if not names:
        problems.append("no division is declared")
    return problems


def t_file_problems(text: str) -> list[str]:
    """What in ``text`` (a ``.t`` file) TSH would not read."""
    problems: list[str] = []
    opponents: dict[int, list[int]] = {}
    lines = [line for line in text.splitlines() if line.strip()]
    for number, line in enumerate(lines, start=1):
        fields = line.split(";")
        match = PLAYER.match(fields[0])
        if match is None:
            problems.append(f"player {number}: no name and rating")
            continue
        rounds = [int(o) for o in match["opponents"].split()]
        opponents[number] = rounds
        scores = fields[1].split() if len(fields) > 1 else []
        if not all(re.fullmatch(r"-?\d+", s) for s in scores):
            problems.append(f"player {number}: a score is not a whole number")
        if len(scores) > len(rounds):
            problems.append(f"player {number}: more scores than rounds")
        for extra in fields[2:]:
            words = extra.split()
            if words and words[0] == "p12":
                values = words[1:]
                if len(values) != len(rounds) or any(v not in {"0", "1", "2", "3"} for v in values):
                    problems.append(f"player {number}: p12 needs one value of 0 to 3 per round")
    for player, rounds in opponents.items():
        for index, opponent in enumerate(rounds):
            if opponent == 0:
                continue
            theirs = opponents.get(opponent)
            if theirs is None:
                problems.append(f"player {player}: round {index + 1} opponent {opponent} does not exist")
            elif len(theirs) <= index or theirs[index] != player:
                problems.append(f"player {player}: round {index + 1} pairing is not reciprocal")
    return problems
