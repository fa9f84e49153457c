"""How common a word is in a language, for the moderators' queue of suggested words.

From the ``wordfreq`` package (pinned in ``requirements.txt``; its word lists ship in
the wheel): the Zipf frequency, the base-10 logarithm of a word's occurrences per
billion words (7 for the commonest words, about 3 for a word seen once per million;
below 1 wordfreq does not know the word). Its English and Portuguese lists serve both
English dictionaries and Brazilian Portuguese.
"""

from __future__ import annotations

#: wordfreq's code for each game language (as in scripts/common_words.py).
WORDFREQ_CODES = {"en": "en", "en-GB": "en", "es": "es", "it": "it", "pt-BR": "pt", "de": "de", "fr": "fr"}


def zipf(language: str, word: str) -> float | None:
    """The Zipf frequency of ``word`` (as typed) in ``language``, or None when the word
    is unknown to wordfreq."""
    from wordfreq import zipf_frequency  # loaded on first use: the lists take a moment

    code = WORDFREQ_CODES.get(language)
    if code is None or not word.strip():
        return None
    value = zipf_frequency(word.strip().lower(), code)
    return value if value > 0 else None
