"""Sign-up never tells a visitor whether an e-mail address is registered: the mail does."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = reverse("accounts:signup")
CONFIRM_LINK = re.compile(r"http://testserver(/accounts/signup/confirm/\S+/)")


def _sign_up(client: Client, username: str, email: str) -> Any:
    return client.post(
        SIGNUP,
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def _link(body: object) -> str:
    found = CONFIRM_LINK.search(str(body))
    assert found is not None, body
    return found.group(1)


def _visible(response: Any) -> tuple[int, str, str]:
    """What a visitor sees of a sign-up: status, where it sends them, and that page's text."""
    page = Client().get(response.url).content.decode()
    # the CSRF tokens in the page are random on every page
    return response.status_code, response.url, re.sub(r"[A-Za-z0-9]{64}", "", page)


@pytest.mark.parametrize("email", ["owner@example.test", "OWNER@Example.test"])
def test_a_registered_address_gets_the_same_answer_as_a_new_one(owner: Any, email: str) -> None:
    fresh = _visible(_sign_up(Client(), "someone", "fresh@example.test"))
    taken = _visible(_sign_up(Client(), "someone2", email))
    assert taken == fresh
    assert fresh[:2] == (302, reverse("accounts:signup-sent"))


def test_a_registered_address_gets_a_note_and_no_new_account(owner: Any) -> None:
    _sign_up(Client(), "intruder", "OWNER@example.test")
    (message,) = mail.outbox
    assert message.to == ["owner@example.test"]
    assert "already" in message.body
    assert "owner" in message.body
    assert "http://testserver/accounts/password/reset/" in message.body
    assert CONFIRM_LINK.search(str(message.body)) is None
    assert not get_user_model().objects.filter(username="intruder").exists()


def test_a_new_address_gets_a_link_and_the_account_waits_for_it() -> None:
    _sign_up(Client(), "newplayer", "new@example.test")
    (message,) = mail.outbox
    assert message.to == ["new@example.test"]
    user = get_user_model().objects.get(username="newplayer")
    assert user.is_active is False
    visitor = Client()
    assert visitor.post(reverse("accounts:login"), {"username": "newplayer", "password": PASSWORD})
    assert "_auth_user_id" not in visitor.session


def test_opening_the_link_asks_before_confirming_so_mail_scanners_confirm_nothing() -> None:
    _sign_up(Client(), "newplayer", "new@example.test")
    response = Client().get(_link(mail.outbox[0].body))
    assert response.status_code == 200
    assert "Confirm my account" in response.content.decode()
    assert get_user_model().objects.get(username="newplayer").is_active is False


def test_the_link_works_once() -> None:
    _sign_up(Client(), "newplayer", "new@example.test")
    link = _link(mail.outbox[0].body)
    assert Client().post(link).status_code == 302
    assert Client().post(link).status_code == 400
    assert Client().get(link).status_code == 400


@pytest.mark.parametrize(
    "link",
    [
        "/accounts/signup/confirm/MQ/nonsense-token/",
        "/accounts/signup/confirm/%00%00/abc-def/",
        "/accounts/signup/confirm/OTk5OTk5OTk5OTk5OTk5OTk5OTk5/abc-def/",
    ],
)
def test_a_forged_link_is_refused_without_an_error(link: str) -> None:
    _sign_up(Client(), "newplayer", "new@example.test")
    assert Client().post(link).status_code == 400
    assert get_user_model().objects.get(username="newplayer").is_active is False


def test_a_password_reset_token_does_not_confirm_an_account() -> None:
    from django.contrib.auth.tokens import default_token_generator

    _sign_up(Client(), "newplayer", "new@example.test")
    user = get_user_model().objects.get(username="newplayer")
    uid = _link(mail.outbox[0].body).split("/")[4]
    reset_token = default_token_generator.make_token(user)
    assert Client().post(f"/accounts/signup/confirm/{uid}/{reset_token}/").status_code == 400


def test_a_later_sign_up_from_the_same_mailbox_replaces_an_unconfirmed_one() -> None:
    _sign_up(Client(), "squatter", "victim@example.test")
    _sign_up(Client(), "victim", "victim@example.test")
    names = set(
        get_user_model()
        .objects.filter(email="victim@example.test")
        .values_list("username", flat=True)
    )
    assert names == {"victim"}
    assert Client().post(_link(mail.outbox[1].body)).status_code == 302


def test_two_pending_sign_ups_of_one_address_confirm_only_one_account() -> None:
    _sign_up(Client(), "first", "both@example.test")
    first_link = _link(mail.outbox[0].body)
    # a pending account the replacement could not see (two sign-ups at once)
    get_user_model().objects.create_user(
        username="second", email="both@example.test", password=PASSWORD, is_active=False
    )
    second = get_user_model().objects.get(username="second")
    from accounts.services import _confirm_path

    assert Client().post(first_link).status_code == 302
    assert Client().post(_confirm_path(second)).status_code == 400
    assert get_user_model().objects.filter(email="both@example.test", is_active=True).count() == 1
