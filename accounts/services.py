"""Writes on accounts: API tokens for scripts (sign-up itself is the form's ``save``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
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
