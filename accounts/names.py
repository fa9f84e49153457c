"""Names people choose: the key that makes usernames unique regardless of case in every
alphabet, and the characters no name or chat line may hold.

Pure (stdlib and Django's ``ValidationError`` only), so forms, models and migrations share it.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

#: Characters that change the direction of the text around them (U+202E turns "gpj.exe" into
#: what looks like "exe.jpg"): embeddings, overrides, isolates and the direction marks.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Characters that show as nothing (or as a blank) although they are letters or marks to
#: Unicode, so that "ana" and "ana\u200b" look the same: zero-width space, word joiner,
#: invisible operators, byte-order mark, soft hyphen, the Hangul and Braille blanks.
INVISIBLE = frozenset(
    "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b\u2060\u2061\u2062\u2063\u2064\u2800\u3164\ufeff\uffa0"
)

#: Also invisible, but needed in running text: the zero-width joiners of emoji sequences and
#: Persian, variation selectors (text or emoji style) and the tags of flag emoji. Names refuse
#: them, chat lines keep them.
JOINERS_AND_SELECTORS = frozenset("\u200c\u200d")


def _selector_or_tag(ch: str) -> bool:
    point = ord(ch)
    return 0x180B <= point <= 0x180F or 0xFE00 <= point <= 0xFE0F or 0xE0000 <= point <= 0xE0FFF


def username_key(name: str) -> str:
    """The form two usernames share when they are "the same name": NFKC, then case folding,
    then NFKC again (Unicode's NFKC_Casefold, without dropping default-ignorables, which
    ``validate_name`` refuses). ``Ωmega_Ünïcødé_名前`` and ``ΩMEGA_ÜNÏCØDÉ_名前`` share one;
    so do ``Straße`` and ``STRASSE``, and a full-width ``ａｎａ`` and ``ana``."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def hidden_in_name(ch: str) -> bool:
    """True for a character a name may not hold: controls, format characters (bidi and
    zero-width ones among them), private-use and unassigned code points, line and paragraph
    separators, and the invisible letters and selectors above."""
    return (
        unicodedata.category(ch) in {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
        or ch in INVISIBLE
        or ch in JOINERS_AND_SELECTORS
        or _selector_or_tag(ch)
    )


def hidden_in_text(ch: str) -> bool:
    """True for a character a chat line may not hold: direction controls and invisible
    characters; emoji joiners, variation selectors and flag tags stay."""
    return ch in BIDI_CONTROLS or ch in INVISIBLE


def validate_name(value: str) -> None:
    """Refuse a username or display name with an invisible or direction-changing character."""
    if any(hidden_in_name(ch) for ch in value):
        raise ValidationError(
            _("A name cannot contain invisible or text-direction characters."), code="hidden_character"
        )


def validate_text(value: str) -> None:
    """Refuse a chat line with an invisible or direction-changing character."""
    if any(hidden_in_text(ch) for ch in value):
        raise ValidationError(
            _("A message cannot contain invisible or text-direction characters."), code="hidden_character"
        )
