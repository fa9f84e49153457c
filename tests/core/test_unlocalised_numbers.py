"""Numbers written for machines are never localised (issue 26): in every interface language,
SVG geometry, data attributes and inline JSON keep a decimal point and no grouping. A French,
Swedish or German page once drew the rating chart with ``y1="10,0"``."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.services import apply_rated_result
from tests.games.helpers import CAT_AT_CENTRE, make_game

pytestmark = pytest.mark.django_db

#: Attributes a program reads: SVG geometry and every data-* attribute.
MACHINE_ATTRIBUTES = re.compile(
    r'\s((?:data-[\w-]+)|x|y|x1|x2|y1|y2|cx|cy|r|dy|width|height|viewBox)="([^"]*)"'
)
DECIMAL_COMMA = re.compile(r"\d,\d")
POINTS = re.compile(r'\spoints="([^"]*)"')


def machine_numbers_localised(html: str) -> list[str]:
    wrong = [
        f"{name}={value}" for name, value in MACHINE_ATTRIBUTES.findall(html) if DECIMAL_COMMA.search(value)
    ]
    for value in POINTS.findall(html):
        # "x,y x,y": exactly one comma in each pair, and numbers with a point.
        if not all(re.fullmatch(r"-?\d+(\.\d+)?,-?\d+(\.\d+)?", pair) for pair in value.split()):
            wrong.append(f"points={value}")
    for script in re.findall(r'<script[^>]*type="application/json"[^>]*>(.*?)</script>', html, re.S):
        json.loads(script)
    return wrong


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_pages_write_machine_numbers_the_same_in_every_language(
    client: Client, ana: Any, ben: Any, language: str
) -> None:
    for n, score in enumerate([1, 0, 1]):
        apply_rated_result(language="en", player=ana, opponent=ben, score=score, reference=f"game:{n}")
    game = make_game(ana, ben, racks=("CATSEOD", "AEIOULN"))
    game.play(ana, CAT_AT_CENTRE, version=game.version)
    client.force_login(ana)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    for url in (
        reverse("players:profile", args=["ana"]),
        reverse("games:detail", args=[game.pk]),
        reverse("games:lobby"),
        reverse("games:replay", args=[game.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert machine_numbers_localised(response.text) == [], (language, url)
