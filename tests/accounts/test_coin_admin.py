"""Staff grant and take coins with a reason in the admin; the ledger there is read-only."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts import reasons
from accounts.models import CoinEntry, User
from accounts.services import grant_coins
from tests.factories import make_user

CHANGELIST = "admin:accounts_user_changelist"


@pytest.fixture(autouse=True)
def _no_daily_bonus(settings: Any) -> None:
    settings.COINS_DAILY_BONUS = 0  # the admin pages would grant it to the staff member


@pytest.fixture
def boss(db: None) -> Any:
    return make_user("boss", is_staff=True, is_superuser=True)


def adjust(client: Client, users: list[Any], amount: Any, note: str) -> Any:
    data = {
        "action": "adjust_coins_action",
        "_selected_action": [u.pk for u in users],
        "apply": "1",
        "amount": amount,
        "note": note,
    }
    return client.post(reverse(CHANGELIST), data, follow=True)


def coins(user: Any) -> int:
    return User.objects.get(pk=user.pk).coins


@pytest.mark.django_db
def test_the_action_first_asks_how_many_and_why(client: Client, boss: Any, ana: Any) -> None:
    client.force_login(boss)
    data = {"action": "adjust_coins_action", "_selected_action": [ana.pk]}
    response = client.post(reverse(CHANGELIST), data)
    assert response.status_code == 200
    assert 'name="amount"' in response.text
    assert 'name="note"' in response.text
    assert "ana" in response.text
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_staff_grant_creates_a_ledger_entry_with_the_reason(
    client: Client, boss: Any, ana: Any, ben: Any
) -> None:
    client.force_login(boss)
    response = adjust(client, [ana, ben], 15, "Tournament prize")
    assert "Ana: +15 coins, balance now 15." in response.text
    for player in (ana, ben):
        entry = CoinEntry.objects.get(user=player)
        assert (entry.amount, entry.kind, entry.reason, entry.note, entry.created_by) == (
            15,
            CoinEntry.Kind.ADJUSTED,
            reasons.STAFF,
            "Tournament prize",
            boss,
        )
        assert coins(player) == 15


@pytest.mark.django_db
def test_a_take_that_would_go_negative_is_refused_with_a_message(
    client: Client, boss: Any, ana: Any, ben: Any
) -> None:
    grant_coins(user=ana, amount=20, reason="test")
    grant_coins(user=ben, amount=3, reason="test")
    client.force_login(boss)
    response = adjust(client, [ana, ben], -10, "Cheating")
    assert "Ana: -10 coins, balance now 10." in response.text
    assert "Ben keeps 3 coins: taking 10 would leave fewer than none." in response.text
    assert (coins(ana), coins(ben)) == (10, 3)
    assert CoinEntry.objects.filter(user=ben).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("amount", "note"), [(0, "nothing"), ("ten", "x"), (5, ""), (10_000_001, "x")])
def test_bad_adjustments_show_the_form_again_and_change_nothing(
    client: Client, boss: Any, ana: Any, amount: Any, note: str
) -> None:
    client.force_login(boss)
    response = adjust(client, [ana], amount, note)
    assert response.status_code == 200
    assert 'class="errorlist' in response.text
    assert not CoinEntry.objects.exists()


@pytest.mark.django_db
def test_staff_without_the_permission_cannot_adjust(client: Client, ana: Any) -> None:
    clerk = make_user("clerk", is_staff=True)
    clerk.user_permissions.add(Permission.objects.get(codename="view_user"))
    client.force_login(clerk)
    response = client.get(reverse(CHANGELIST))
    assert response.status_code == 200
    assert "adjust_coins_action" not in response.text
    adjust(client, [ana], 50, "for me")
    assert not CoinEntry.objects.exists()
    clerk.user_permissions.add(Permission.objects.get(codename="adjust_coins"))
    client.force_login(User.objects.get(pk=clerk.pk))
    adjust(client, [ana], 50, "allowed now")
    assert coins(ana) == 50


@pytest.mark.django_db
def test_ledger_entries_are_read_only_in_the_admin(client: Client, boss: Any, ana: Any) -> None:
    entry = grant_coins(user=ana, amount=5, reason="test")
    client.force_login(boss)
    listing = client.get(reverse("admin:accounts_coinentry_changelist"))
    assert listing.status_code == 200
    assert "ana" in listing.text
    assert client.get(reverse("admin:accounts_coinentry_add")).status_code == 403
    page = client.get(reverse("admin:accounts_coinentry_change", args=[entry.pk]))
    assert page.status_code == 200
    assert 'name="amount"' not in page.text  # shown, not editable
    client.post(reverse("admin:accounts_coinentry_change", args=[entry.pk]), {"amount": 500})
    assert client.post(reverse("admin:accounts_coinentry_delete", args=[entry.pk])).status_code == 403
    assert CoinEntry.objects.get(pk=entry.pk).amount == 5
    user_page = client.get(reverse("admin:accounts_user_change", args=[ana.pk]))
    assert 'name="coins"' not in user_page.text  # the balance is not a form field either
