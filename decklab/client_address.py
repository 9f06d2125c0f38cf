"""The client's address, read through the trusted proxies (``PROXY_COUNT``) and nothing else.

Each proxy appends the address it received the request from to ``X-Forwarded-For`` and the
last one is ``REMOTE_ADDR``. Counting ``PROXY_COUNT`` hops from the right therefore lands on the
address the outermost trusted proxy saw; anything further left was written by the client and is
ignored, so a forged header can neither dodge nor cause a lockout. With ``PROXY_COUNT=0`` the
header is not read at all.

django-ipware was considered: its ``proxy_count`` counts proxies *listed in* the header, so
with one proxy in front it returns no address for an honest request (or the forged left-most
entry, depending on the other options), which is the bug this module exists to avoid.

Used by django-axes (``AXES_CLIENT_IP_CALLABLE``), the API's anonymous throttle and the
sign-up and password-reset throttles, so all of them count the same address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _is_address(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def client_address(request: HttpRequest) -> str:
    """The address of whoever sent ``request`` to the outermost trusted proxy."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    hops = int(getattr(settings, "PROXY_COUNT", 0))
    if hops <= 0:
        return remote
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    chain = [part.strip() for part in forwarded.split(",") if part.strip()] + [remote]
    # fewer entries than proxies: the request skipped a proxy; the left-most is the best we know
    candidate = chain[max(0, len(chain) - 1 - hops)]
    return candidate if _is_address(candidate) else remote
