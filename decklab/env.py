"""Reading configuration from the environment, with safe defaults.

Kept apart from settings so the parsing rules are small, typed and testable.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off", ""})


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean word (1/0, true/false), not {raw!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_str(name: str, default: str) -> str:
    return os.environ.get(name) or default


def email_settings(url: str) -> dict[str, object]:
    """Django's mail settings from one URL: ``smtp://user:password@host:587`` (STARTTLS),
    ``smtps://…:465`` (TLS), ``console://`` or ``locmem://``. User and password are
    percent-decoded, so a password may hold any character."""
    from urllib.parse import unquote, urlsplit

    parts = urlsplit(url)
    backends = {
        "console": "django.core.mail.backends.console.EmailBackend",
        "locmem": "django.core.mail.backends.locmem.EmailBackend",
        "smtp": "django.core.mail.backends.smtp.EmailBackend",
        "smtps": "django.core.mail.backends.smtp.EmailBackend",
    }
    if parts.scheme not in backends:
        raise ImproperlyConfigured(
            f"EMAIL_URL must start with one of {', '.join(sorted(backends))}://, not {url!r}"
        )
    found: dict[str, object] = {"EMAIL_BACKEND": backends[parts.scheme]}
    if parts.scheme in ("smtp", "smtps"):
        found.update(
            EMAIL_HOST=parts.hostname or "localhost",
            EMAIL_PORT=parts.port or (465 if parts.scheme == "smtps" else 587),
            EMAIL_HOST_USER=unquote(parts.username or ""),
            EMAIL_HOST_PASSWORD=unquote(parts.password or ""),
            EMAIL_USE_SSL=parts.scheme == "smtps",
            EMAIL_USE_TLS=parts.scheme == "smtp",
        )
    return found
