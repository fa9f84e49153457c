"""Players suggest words; the moderators' queue counts them; every suggester is told."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notice
from accounts.notices import open_notices
from dictionaries.frequency import zipf
from dictionaries.models import WordChange, WordSuggestion
from dictionaries.services import suggest_word
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_three_suggesters_make_one_change_with_count_three_and_all_hear_of_the_approval(
    dictionaries: None, moderator: Any, ana: Any, ben: Any, cleo: Any
) -> None:
    suggest_word(user=ana, language="en", word="Yeet", game_id=7, source_url="https://example.org/yeet")
    suggest_word(user=ben, language="en", word="yeet")
    suggest_word(user=cleo, language="en", word="YEET")
    change = WordChange.objects.get()
    assert (change.normalized, change.action, change.status) == ("YEET", "add", "proposed")
    assert change.suggestions.count() == 3
    first = change.suggestions.get(user=ana)
    assert (first.game_id, first.source_url) == (7, "https://example.org/yeet")
    change.approve(by=moderator)
    for player in (ana, ben, cleo):
        (notice,) = open_notices(player)
        assert notice.kind == Notice.Kind.WORD_APPROVED
        assert notice.params["version"] == change.version == 1
        assert "“YEET”" in notice.text
        assert "dictionary version 1" in notice.text


def test_a_rejection_tells_every_suggester_its_reason(
    dictionaries: None, moderator: Any, ana: Any, ben: Any
) -> None:
    suggest_word(user=ana, language="fr", word="chatz")
    suggest_word(user=ben, language="fr", word="chatz")
    WordChange.objects.get().reject(by=moderator, reason="Not in any French dictionary")
    for player in (ana, ben):
        (notice,) = open_notices(player)
        assert notice.kind == Notice.Kind.WORD_REJECTED
        assert "rejected" in notice.text
        assert "Not in any French dictionary" in notice.text
        assert "(French)" in notice.text


def test_suggesting_twice_a_valid_word_or_past_the_daily_limit_is_refused(
    dictionaries: None, settings: Any, ana: Any, ben: Any
) -> None:
    settings.WORD_SUGGESTIONS_PER_DAY = 2
    suggest_word(user=ana, language="en", word="yeet")
    with pytest.raises(ValidationError, match="already suggested"):
        suggest_word(user=ana, language="en", word="yeet")
    with pytest.raises(ValidationError, match="already valid"):
        suggest_word(user=ana, language="en", word="cat")
    with pytest.raises(ValidationError, match="not a letter"):
        suggest_word(user=ana, language="en", word="c4t")
    suggest_word(user=ana, language="en", word="zzyzx")
    with pytest.raises(ValidationError, match="at most 2 words a day"):
        suggest_word(user=ana, language="en", word="blorp")
    assert WordSuggestion.objects.filter(user=ana).count() == 2
    # A day later the limit starts again.
    WordSuggestion.objects.filter(user=ana).update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    suggest_word(user=ana, language="en", word="blorp")
    # Another player is not held back by ana's suggestions.
    suggest_word(user=ben, language="en", word="blorp")
    assert WordChange.objects.get(normalized="BLORP").suggestions.count() == 2


def test_the_lookup_page_offers_a_suggestion_that_lands_in_the_queue(
    client: Client, dictionaries: None, ana: Any
) -> None:
    client.force_login(ana)
    page = client.get(reverse("dictionaries:lookup"), {"word": "yeet", "language": "en"})
    link = f"{reverse('dictionaries:suggest')}?word=yeet&amp;language=en"
    assert link in page.text
    form = client.get(reverse("dictionaries:suggest"), {"word": "yeet", "language": "en", "game": "3"})
    assert 'value="yeet"' in form.text
    assert 'name="game" value="3"' in form.text
    answer = client.post(
        reverse("dictionaries:suggest"),
        {"word": "yeet", "language": "en", "game": "3", "source_url": "https://example.org/y"},
        follow=True,
    )
    assert "the moderators will decide on “yeet”" in answer.text
    suggestion = WordSuggestion.objects.get()
    assert (suggestion.user, suggestion.game_id, suggestion.change.normalized) == (ana, 3, "YEET")
    # A valid word is not offered, and a refusal says why on the form.
    assert (
        reverse("dictionaries:suggest")
        not in client.get(reverse("dictionaries:lookup"), {"word": "cat"}).text
    )
    refused = client.post(reverse("dictionaries:suggest"), {"word": "cat", "language": "en"})
    assert refused.status_code == 400
    assert "already valid" in refused.text


def test_the_queue_lists_the_most_suggested_first_with_the_frequency(
    client: Client, dictionaries: None, moderator: Any, ana: Any, ben: Any, cleo: Any
) -> None:
    suggest_word(user=ana, language="en", word="zzyzx")
    for player in (ana, ben, cleo):
        suggest_word(user=player, language="en", word="house")  # common: wordfreq knows it
    other = make_user("dora")
    suggest_word(user=other, language="en", word="gooses")
    suggest_word(user=ben, language="en", word="gooses")
    client.force_login(moderator)
    page = client.get(reverse("admin:dictionaries_wordchange_changelist")).text
    assert page.index("HOUSE") < page.index("GOOSES") < page.index("ZZYZX")
    known = zipf("en", "house")
    assert known is not None
    assert known > 4
    assert f'<td class="field-word_frequency">{known:.1f}</td>' in page
    assert '<td class="field-suggestion_count">3</td>' in page
    assert zipf("en", "qzqzvx") is None  # unknown to wordfreq: shown as a dash
    house = WordChange.objects.get(normalized="HOUSE")
    detail = client.get(reverse("admin:dictionaries_wordchange_change", args=[house.pk])).text
    assert "frequency (zipf)" in detail.lower()
    assert "cleo" in detail  # the suggesters are listed


def test_a_refused_play_offers_to_suggest_the_unknown_word(client: Client, ana: Any, ben: Any) -> None:
    from tests.games.helpers import make_game, tiles

    game = make_game(ana, ben, racks=("CATSEOD", "JQXZKVW"))
    client.force_login(ana)
    response = client.post(
        reverse("games:play", args=[game.pk]),
        {"tiles": tiles((7, 7, "D"), (7, 8, "C")), "version": game.version, "action_id": "x1"},
        headers={"HX-Request": "true"},
    )
    assert "Not in the dictionary: DC." in response.text
    assert f"{reverse('dictionaries:suggest')}?word=DC&amp;language=en&amp;game={game.pk}" in response.text
