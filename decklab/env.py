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


#: keys seen in tutorials and sample configurations: public, so no secret at all
COMMON_SECRET_KEYS = frozenset(
    {"changeme", "change-me", "change_me", "secret", "secretkey", "secret-key", "password"}
)
#: shorter or plainer than this and a key can be guessed or was typed by hand
MIN_SECRET_KEY_LENGTH = 32
MIN_SECRET_KEY_DISTINCT = 8


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` is unfit for a production SECRET_KEY, or None."""
    plain = key.strip().lower()
    if plain in COMMON_SECRET_KEYS or plain.startswith(("django-insecure", "insecure")):
        return "it is a well-known placeholder"
    if len(key) < MIN_SECRET_KEY_LENGTH:
        return f"it has {len(key)} characters, fewer than {MIN_SECRET_KEY_LENGTH}"
    if len(set(key)) < MIN_SECRET_KEY_DISTINCT:
        return f"it uses only {len(set(key))} different characters"
    return None


def production_problems(*, secret_key: str, allowed_hosts: list[str] | None) -> list[str]:
    """What keeps these settings from serving with DEBUG off (``allowed_hosts`` None: unset)."""
    problems = []
    weakness = secret_key_problem(secret_key)
    if weakness is not None:
        problems.append(
            f"SECRET_KEY is too weak ({weakness}): set a long random one, e.g. the output of "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
        )
    if allowed_hosts is None or not allowed_hosts:
        problems.append(
            "ALLOWED_HOSTS is required when DEBUG is off: the comma-separated host names the "
            "site answers to (decklab.example.org); without them every request is refused."
        )
    elif "*" in allowed_hosts:
        problems.append(
            "ALLOWED_HOSTS=* is refused when DEBUG is off: name the hosts the site answers to, "
            "so forged Host headers (password-reset links to another site) are refused."
        )
    return problems
