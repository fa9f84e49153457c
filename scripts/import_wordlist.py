#!/usr/bin/env python3
"""Build a language's lexicon from a raw list, outside Django (maintainer command).

    python scripts/import_wordlist.py LANG SOURCE [--out fixtures/lexicons]

The rules and the policy live in the dictionaries app (``dictionaries/wordlists.py``,
docs/lexicons.md); this is only its command line. ``manage.py import_wordlist`` runs the
same build and also records the new word count on the language's ``Dictionary``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dictionaries.wordlists import FIXTURES, LANGUAGES, import_wordlist  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build a language's lexicon from a raw list.")
    parser.add_argument("language", choices=LANGUAGES)
    parser.add_argument("source", type=Path)
    parser.add_argument("--out", type=Path, default=FIXTURES)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    result = import_wordlist(args.language, args.source, args.out)
    print(result.summary())
    print(f"  ({time.perf_counter() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
