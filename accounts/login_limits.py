"""django-axes, with a successful login clearing only the failures against that account.

Axes' own reset on success deletes every failure matching any lockout parameter, the
address's included: an attacker with one account of their own could try four passwords on
each of many usernames, log in to their own account, and start again with a clean address.
Here the address keeps counting the failures it made against other accounts until the
cool-off ends; the player who logged in starts afresh (their own typos from this or any
address are forgiven, since they proved they know the password).
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.http import HttpRequest


class AccountResetHandler(AxesDatabaseHandler):
    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, object] | None = None
    ) -> int:
        username = get_client_username(request, credentials)
        if not username:
            return 0
        deleted, _by_model = AccessAttempt.objects.filter(username=username).delete()
        return deleted
