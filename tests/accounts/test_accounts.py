"""Accounts: sign-up, log-in/out, password change and reset, profiles, API tokens, navigation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.forms import USERNAME_RESERVED
from catalog.importers.write import game_sync
from catalog.models import Game
from decks.models import Deck
from decks.services import deck_create
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another-long-and-unusual-passphrase"
SIGNUP = reverse("accounts:signup")
LOGIN = reverse("accounts:login")
LOGOUT = reverse("accounts:logout")
TOKEN = reverse("accounts:token")
TOKEN_CREATE = reverse("accounts:token-create")
TOKEN_REVOKE = reverse("accounts:token-revoke")


def signup_data(**overrides: str) -> dict[str, str]:
    data = {
        "username": "newplayer",
        "email": "newplayer@example.test",
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    data.update(overrides)
    return data


def profile_url(user: Any) -> str:
    return reverse("accounts:profile", args=[user.get_username()])


def field_errors(response: Any, field: str) -> list[str]:
    return list(response.context["form"].errors.get(field, []))


@pytest.fixture
def game() -> Game:
    return game_sync("mattsan")


@pytest.fixture
def decks(owner: Any, game: Game) -> dict[str, Deck]:
    """One deck of each visibility, all the owner's."""
    return {
        visibility: deck_create(
            owner=owner, game=game, name=f"{visibility.title()} deck", visibility=visibility
        )
        for visibility in ("public", "unlisted", "private")
    }


# --- Sign-up ------------------------------------------------------------------------------------


def test_the_signup_page_shows_the_form(client: Client) -> None:
    response = client.get(SIGNUP)
    assert response.status_code == 200
    assert set(response.context["form"].fields) == {"username", "email", "password1", "password2"}
    assert 'name="email"' in response.content.decode()


def test_it_signs_up_through_the_mailed_link_and_shows_the_new_profile(client: Client) -> None:
    response = client.post(SIGNUP, signup_data())
    assert response.status_code == 302
    assert response.url == reverse("accounts:signup-sent")
    (message,) = mail.outbox
    assert message.to == ["newplayer@example.test"]
    link = re.search(r"http://testserver(/accounts/signup/confirm/\S+/)", message.body)
    assert link is not None
    response = client.post(link.group(1), follow=True)
    user = get_user_model().objects.get(username="newplayer")
    assert user.is_active
    assert user.check_password(PASSWORD)
    assert response.redirect_chain == [(profile_url(user), 302)]
    assert response.context["user"] == user
    assert response.context["is_self"] is True


def test_it_refuses_a_duplicate_username_in_any_case(client: Client, owner: Any) -> None:
    response = client.post(SIGNUP, signup_data(username="Owner"))
    assert response.status_code == 400
    assert field_errors(response, "username")


def test_it_refuses_mismatched_passwords(client: Client) -> None:
    response = client.post(SIGNUP, signup_data(password2=PASSWORD + "x"))
    assert response.status_code == 400
    assert field_errors(response, "password2")
    assert 'data-field="password2"' in response.content.decode()


def test_it_refuses_a_too_common_password(client: Client) -> None:
    response = client.post(SIGNUP, signup_data(password1="password", password2="password"))
    assert response.status_code == 400
    assert any("common" in error for error in field_errors(response, "password2"))


def test_it_refuses_a_username_that_would_hide_an_accounts_page(client: Client) -> None:
    response = client.post(SIGNUP, signup_data(username="Login"))
    assert response.status_code == 400
    assert field_errors(response, "username") == [str(USERNAME_RESERVED)]


def test_it_requires_an_email(client: Client) -> None:
    response = client.post(SIGNUP, signup_data(email=""))
    assert response.status_code == 400
    assert field_errors(response, "email")


def test_the_signup_page_sends_a_logged_in_player_to_their_profile(owner_client: Client) -> None:
    response = owner_client.get(SIGNUP)
    assert response.status_code == 302
    assert response.url == reverse("accounts:profile-self")


# --- Log in and out -----------------------------------------------------------------------------


def test_it_logs_in_and_lands_on_the_profile(client: Client, owner: Any) -> None:
    response = client.post(LOGIN, {"username": "owner", "password": PASSWORD}, follow=True)
    assert response.redirect_chain[-1] == (profile_url(owner), 302)
    assert response.context["user"] == owner


def test_it_logs_in_and_follows_a_safe_next(client: Client, owner: Any) -> None:
    response = client.post(LOGIN, {"username": "owner", "password": PASSWORD, "next": TOKEN})
    assert response.status_code == 302
    assert response.url == TOKEN


def test_a_wrong_password_answers_400_with_the_form(client: Client, owner: Any) -> None:
    response = client.post(LOGIN, {"username": "owner", "password": "nope"})
    assert response.status_code == 400
    assert response.context["form"].non_field_errors()
    assert "_auth_user_id" not in client.session


def test_logout_by_get_is_not_allowed(owner_client: Client) -> None:
    assert owner_client.get(LOGOUT).status_code == 405
    assert "_auth_user_id" in owner_client.session


def test_logout_by_post_logs_out_and_goes_home(owner_client: Client) -> None:
    response = owner_client.post(LOGOUT)
    assert response.status_code == 302
    assert response.url == reverse("catalog:home")
    assert "_auth_user_id" not in owner_client.session


def test_logout_without_a_csrf_token_is_refused(owner: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(LOGOUT).status_code == 403
    assert "_auth_user_id" in client.session


# --- Passwords ----------------------------------------------------------------------------------


def test_it_changes_the_password(owner_client: Client, owner: Any) -> None:
    url = reverse("accounts:password-change")
    response = owner_client.post(
        url,
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-change-done")
    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD)
    # Django keeps the session that changed the password.
    assert owner_client.get(TOKEN).status_code == 200


def test_a_wrong_old_password_answers_400(owner_client: Client, owner: Any) -> None:
    response = owner_client.post(
        reverse("accounts:password-change"),
        {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 400
    assert field_errors(response, "old_password")
    owner.refresh_from_db()
    assert owner.check_password(PASSWORD)


def test_password_change_needs_a_login(client: Client) -> None:
    response = client.get(reverse("accounts:password-change"))
    assert response.status_code == 302
    assert response.url.startswith(LOGIN)


def test_password_reset_works_end_to_end_from_the_email(client: Client, owner: Any) -> None:
    response = client.post(reverse("accounts:password-reset"), {"email": "owner@example.test"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-sent")
    assert client.get(response.url).status_code == 200

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["owner@example.test"]
    assert "DeckLab" in message.subject
    found = re.search(r"http://testserver(/accounts/password/reset/\S+/\S+/)", message.body)
    assert found, message.body
    link = found.group(1)

    # Django swaps the token for a session marker before showing the form.
    response = client.get(link)
    assert response.status_code == 302
    form_url = response.url
    response = client.get(form_url)
    assert response.status_code == 200
    assert response.context["validlink"] is True

    mismatched = client.post(
        form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD + "x"}
    )
    assert mismatched.status_code == 400
    assert field_errors(mismatched, "new_password2")

    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-complete")
    assert client.get(response.url).status_code == 200

    owner.refresh_from_db()
    assert owner.check_password(NEW_PASSWORD)
    # the login form, as a player would (the login throttle needs the request)
    login_form = {"username": "owner", "password": NEW_PASSWORD}
    assert Client().post(reverse("accounts:login"), login_form).status_code == 302
    # A used link no longer works.
    reused = Client().get(link, follow=True)
    assert reused.context["validlink"] is False


def test_password_reset_does_not_reveal_unknown_addresses(client: Client, owner: Any) -> None:
    response = client.post(reverse("accounts:password-reset"), {"email": "nobody@example.test"})
    assert response.status_code == 302
    assert response.url == reverse("accounts:password-reset-sent")
    assert mail.outbox == []


def test_password_reset_refuses_a_malformed_address_with_400(client: Client) -> None:
    response = client.post(reverse("accounts:password-reset"), {"email": "not-an-address"})
    assert response.status_code == 400
    assert field_errors(response, "email")


# --- Profiles -----------------------------------------------------------------------------------


def listed_names(response: Any) -> set[str]:
    return {row.deck.name for row in response.context["rows"]}


def test_me_redirects_to_my_profile(owner_client: Client, owner: Any) -> None:
    response = owner_client.get(reverse("accounts:profile-self"))
    assert response.status_code == 302
    assert response.url == profile_url(owner)


def test_me_needs_a_login(client: Client) -> None:
    response = client.get(reverse("accounts:profile-self"))
    assert response.status_code == 302
    assert response.url.startswith(LOGIN)


def test_the_owner_sees_all_their_decks_with_visibility_badges(
    owner_client: Client, owner: Any, decks: dict[str, Deck]
) -> None:
    response = owner_client.get(profile_url(owner))
    assert response.status_code == 200
    assert listed_names(response) == {"Public deck", "Unlisted deck", "Private deck"}
    body = response.content.decode()
    for visibility in ("public", "unlisted", "private"):
        assert f'data-visibility="{visibility}"' in body
    assert "Mattsan" in body or decks["public"].game.name in body


@pytest.mark.parametrize("viewer", ["friend_client", "stranger_client", "client"])
def test_others_see_only_public_decks(
    viewer: str, request: pytest.FixtureRequest, owner: Any, decks: dict[str, Deck]
) -> None:
    client: Client = request.getfixturevalue(viewer)
    response = client.get(profile_url(owner))
    assert response.status_code == 200
    assert listed_names(response) == {"Public deck"}
    body = response.content.decode()
    assert "Unlisted deck" not in body
    assert "Private deck" not in body
    assert decks["unlisted"].public_id not in body
    assert decks["private"].public_id not in body
    assert "data-visibility" not in body


def test_the_profile_shows_legality_card_count_and_update_time(
    owner_client: Client, owner: Any, decks: dict[str, Deck]
) -> None:
    Deck.objects.filter(pk=decks["public"].pk).update(is_legal=True, card_count=40)
    body = owner_client.get(profile_url(owner)).content.decode()
    assert body.count('data-legal="yes"') == 1
    assert body.count('data-legal="no"') == 2
    assert ">40<" in body
    assert "<time datetime=" in body


def test_the_profile_escapes_deck_names(stranger_client: Client, owner: Any, game: Game) -> None:
    deck_create(owner=owner, game=game, name="<script>alert(1)</script>", visibility="public")
    body = stranger_client.get(profile_url(owner)).content.decode()
    assert "<script>alert(1)</script>" not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body


def test_an_unknown_or_deactivated_player_is_404(client: Client, owner: Any) -> None:
    assert client.get(reverse("accounts:profile", args=["nobody"])).status_code == 404
    get_user_model().objects.filter(pk=owner.pk).update(is_active=False)
    assert client.get(profile_url(owner)).status_code == 404


def test_an_empty_profile_says_so(stranger_client: Client, owner: Any) -> None:
    response = stranger_client.get(profile_url(owner))
    assert response.status_code == 200
    assert response.context["rows"] == []


def queries_for(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


# Session + user, the player, the page's count, the page's decks (game and owner joined), and
# the trade list: its count for the owner, whether the collection is public for others.
OWNER_PROFILE_QUERIES = 6
ANONYMOUS_PROFILE_QUERIES = 4


def test_the_profile_costs_a_fixed_number_of_queries(
    owner_client: Client, client: Client, owner: Any, game: Game
) -> None:
    url = profile_url(owner)
    deck_create(owner=owner, game=game, name="first", visibility="public")
    few_owner, few_anonymous = queries_for(owner_client, url), queries_for(client, url)
    for number in range(12):
        deck_create(owner=owner, game=game, name=f"deck {number}", visibility="public")
    assert queries_for(owner_client, url) == few_owner == OWNER_PROFILE_QUERIES
    assert queries_for(client, url) == few_anonymous == ANONYMOUS_PROFILE_QUERIES


# --- API tokens ---------------------------------------------------------------------------------


def test_the_token_page_needs_a_login(client: Client) -> None:
    response = client.get(TOKEN)
    assert response.status_code == 302
    assert response.url.startswith(LOGIN)
    assert client.post(TOKEN_CREATE).status_code == 302
    assert not Token.objects.exists()


def test_the_token_page_says_when_there_is_no_token(owner_client: Client) -> None:
    response = owner_client.get(TOKEN)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-token="no"' in body
    assert "Authorization: Token &lt;key&gt;" in body


def test_creating_a_token_shows_the_key_once(owner_client: Client, owner: Any) -> None:
    response = owner_client.post(TOKEN_CREATE)
    assert response.status_code == 200
    token = Token.objects.get(user=owner)
    assert response.context["new_key"] == token.key
    assert token.key in response.content.decode()
    assert "no-store" in response["Cache-Control"]

    again = owner_client.get(TOKEN).content.decode()
    assert 'data-token="yes"' in again
    assert token.key not in again


def test_creating_a_token_needs_post(owner_client: Client) -> None:
    assert owner_client.get(TOKEN_CREATE).status_code == 405
    assert owner_client.get(TOKEN_REVOKE).status_code == 405


def test_regenerating_replaces_the_old_key(owner_client: Client, owner: Any) -> None:
    owner_client.post(TOKEN_CREATE)
    old = Token.objects.get(user=owner).key
    owner_client.post(TOKEN_CREATE)
    new = Token.objects.get(user=owner).key
    assert new != old
    assert Token.objects.filter(user=owner).count() == 1


def test_revoking_removes_the_token(owner_client: Client, owner: Any) -> None:
    owner_client.post(TOKEN_CREATE)
    response = owner_client.post(TOKEN_REVOKE, follow=True)
    assert response.redirect_chain == [(TOKEN, 302)]
    assert not Token.objects.filter(user=owner).exists()
    assert 'data-token="no"' in response.content.decode()


def test_revoking_only_touches_my_own_token(
    owner_client: Client, friend_client: Client, friend: Any
) -> None:
    friend_client.post(TOKEN_CREATE)
    owner_client.post(TOKEN_REVOKE)
    assert Token.objects.filter(user=friend).exists()


def test_the_token_authenticates_api_requests_until_revoked(
    owner_client: Client, owner: Any
) -> None:
    owner_client.post(TOKEN_CREATE)
    key = Token.objects.get(user=owner).key

    user, token = TokenAuthentication().authenticate_credentials(key)
    assert user == owner
    assert token.key == key

    api = APIClient()
    assert api.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {key}").status_code == 200

    owner_client.post(TOKEN_REVOKE)
    # A key that no longer exists is refused outright, not treated as anonymous. (DRF answers
    # 403 rather than 401 because session authentication, listed first, sends no challenge.)
    refused = api.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {key}")
    assert refused.status_code == 403
    assert refused.json() == {"detail": "Invalid token."}


# --- Navigation ---------------------------------------------------------------------------------


def test_the_navbar_offers_log_in_and_sign_up_when_logged_out(client: Client) -> None:
    body = client.get(reverse("catalog:home")).content.decode()
    assert f'href="{LOGIN}"' in body
    assert f'href="{SIGNUP}"' in body
    assert f'action="{LOGOUT}"' not in body


def test_the_navbar_offers_my_decks_token_new_deck_and_log_out_when_logged_in(
    owner_client: Client, owner: Any
) -> None:
    body = owner_client.get(reverse("catalog:home")).content.decode()
    assert f'href="{profile_url(owner)}"' in body
    assert f'href="{TOKEN}"' in body
    assert 'href="/decks/new/"' in body
    assert f'action="{LOGOUT}" method="post"' in body
    assert f'href="{SIGNUP}"' not in body


@pytest.mark.django_db
def test_logging_in_goes_back_to_the_page_that_asked(client: Client, owner: Any) -> None:
    form = client.get("/accounts/login/?next=/decks/new/").content.decode()
    assert 'name="next" value="/decks/new/"' in form
    response = client.post(
        "/accounts/login/",
        {"username": "owner", "password": PASSWORD, "next": "/decks/new/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/decks/new/"
