"""Writes on accounts: sign-up by confirmation mail, and API tokens for scripts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def token_regenerate(*, user: User) -> Token:
    """A fresh key for the user; the old one, if any, stops working at once."""
    # Lock the player's row so two clicks at once cannot both create a token (one per user).
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def token_revoke(*, user: User) -> bool:
    """Remove the user's key; True when there was one."""
    deleted, _by_model = Token.objects.filter(user=user).delete()
    return deleted > 0


class SignupTokenGenerator(PasswordResetTokenGenerator):
    """Confirmation links: the password-reset scheme with its own salt.

    The token hashes the password and ``last_login``, so logging in after confirming spends it,
    and a password-reset link can never confirm an account (nor the reverse).
    """

    key_salt = "accounts.services.SignupTokenGenerator"


signup_tokens = SignupTokenGenerator()


class UsernameTaken(Exception):
    """Another sign-up took the name between the form's check and the insert."""


def signup_request(*, candidate: User, base_url: str) -> None:
    """Mail the owner of ``candidate.email``; never tell the caller which mail went out.

    ``candidate`` is an unsaved player whose password is already hashed. A new address gets an
    inactive account and a confirmation link; an address that already belongs to an account gets
    a note saying so (with links to log in and reset the password) and nothing is created. The
    answer to the visitor is the same either way, so sign-up does not disclose who is registered.
    """
    model = get_user_model()
    with transaction.atomic():
        same_address = model.objects.select_for_update().filter(email__iexact=candidate.email)
        owner = next((u for u in same_address if _is_confirmed(u)), None)
        if owner is None:
            # Unconfirmed accounts on this address: the newest sign-up from the mailbox wins, so
            # a stranger who typed someone's address cannot keep its owner from signing up.
            same_address.delete()
            candidate.is_active = False
            try:
                with transaction.atomic():
                    candidate.save()
            except IntegrityError as error:
                raise UsernameTaken from error
    if owner is None:
        _mail(
            candidate,
            "accounts/signup_confirm_email.txt",
            _("Confirm your DeckLab account"),
            base_url=base_url,
            link=_confirm_path(candidate),
        )
    else:
        _mail(
            owner,
            "accounts/signup_exists_email.txt",
            _("Your DeckLab account"),
            base_url=base_url,
            link="",
        )


def signup_confirmable(*, uidb64: str, token: str) -> User | None:
    """The unconfirmed player a confirmation link names, when the link is still good."""
    try:
        pk = int(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError, OverflowError):
        return None
    user = get_user_model().objects.filter(pk=pk).first()
    if user is None or _is_confirmed(user) or not signup_tokens.check_token(user, token):
        return None
    return user


@transaction.atomic
def signup_confirm(*, user: User) -> bool:
    """Activate the account; False when another account confirmed the same address first."""
    model = get_user_model()
    taken = (
        model.objects.select_for_update()
        .filter(email__iexact=user.email)
        .exclude(pk=user.pk)
        .filter(is_active=True)
        .exists()
    )
    if taken:
        return False
    user.is_active = True
    user.save(update_fields=["is_active"])
    return True


def _is_confirmed(user: User) -> bool:
    # An account never logged in and inactive is a sign-up waiting for its link; one deactivated
    # later (it has logged in) still owns its address.
    return user.is_active or user.last_login is not None


def _confirm_path(user: User) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse(
        "accounts:signup-confirm", kwargs={"uidb64": uid, "token": signup_tokens.make_token(user)}
    )


def _mail(user: User, template: str, subject: str, *, base_url: str, link: str) -> None:
    context = {
        "name": user.get_username(),
        "base_url": base_url,
        "link": link,
        "login": reverse("accounts:login"),
        "reset": reverse("accounts:password-reset"),
    }
    send_mail(subject, render_to_string(template, context), None, [user.email])
