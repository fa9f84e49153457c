from __future__ import annotations

import pytest

from games.gameview import initials


@pytest.mark.parametrize(
    ("name", "expected"),
    [("ana", "A"), ("Computer (Easy)", "CE"), ("Ñandú Pérez", "ÑP"), ("mary-jane watson", "MJ")],
)
def test_initials_take_first_letters_of_words_not_punctuation(name: str, expected: str) -> None:
    assert initials(name) == expected
