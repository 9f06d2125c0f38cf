"""Reads on accounts: players by name and their API token."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def player_get(*, username: str) -> User | None:
    """An active player by exact username; deactivated players have no public page."""
    return get_user_model().objects.filter(username=username, is_active=True).first()


def token_for_user(*, user: User) -> Token | None:
    return Token.objects.filter(user=user).first()
