"""Limits on the forms that send mail to an address the visitor types: sign-up, password reset.

Without them one address could sign up 40 times in a row, mailing any address and holding a
username each time. Each form counts per client address (through the trusted proxies,
decklab/client_address.py) and per target e-mail address, in windows set by
``ACCOUNT_MAIL_RATE_PER_ADDRESS`` and ``ACCOUNT_MAIL_RATE_PER_EMAIL``.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import ngettext

from decklab.client_address import client_address
from decklab.rate_limit import rate_limit_hit, rate_parse


def mail_form_wait(*, request: HttpRequest, form: str, email: str) -> float | None:
    """Count one submission of ``form`` ("signup", "password-reset") that would mail ``email``:
    None when it may go ahead, else the seconds until it may."""
    by_address = rate_limit_hit(
        scope=f"{form}:address",
        key=client_address(request),
        rate=rate_parse(settings.ACCOUNT_MAIL_RATE_PER_ADDRESS),
    )
    if by_address is not None:
        return by_address
    return rate_limit_hit(
        scope=f"{form}:email",
        key=email.strip().lower(),
        rate=rate_parse(settings.ACCOUNT_MAIL_RATE_PER_EMAIL),
    )


def mail_form_wait_message(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many requests from this address or for this e-mail address. "
        "Try again in %(minutes)d minute.",
        "Too many requests from this address or for this e-mail address. "
        "Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}
