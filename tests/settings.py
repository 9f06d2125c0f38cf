"""Settings for the test suite: the project's settings with test-only speed-ups.

The database and broker still come from DATABASE_URL / CELERY_BROKER_URL (scripts/test points
them at the local PostgreSQL and Redis when they answer).
"""

from __future__ import annotations

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")
# the test runner swaps in its own mail outbox: the console default is never used
os.environ.setdefault("EMAIL_ALLOW_CONSOLE", "1")
# DEBUG is off here as in production, which requires the hosts to be named (decklab/env.py)
os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

from decklab.settings import *  # noqa: F403

# Fast hashing: tests create many users; nothing here protects a real password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = []  # noqa: F405
# the test client speaks plain HTTP: the production redirect to HTTPS would answer every request
SECURE_SSL_REDIRECT = False

# Each test session its own cache key space (worker subprocesses inherit it through the
# environment): cached catalog fragments and throttle counts of an earlier run, left in the
# long-running Redis, never reach this one.
os.environ.setdefault("DECKLAB_TEST_CACHE_PREFIX", f"test-{os.getpid()}-{os.urandom(4).hex()}")
CACHES["default"]["KEY_PREFIX"] = os.environ["DECKLAB_TEST_CACHE_PREFIX"]  # noqa: F405
# Sign-ups and reset mails are limited per address and per e-mail (accounts/mail_limits.py):
# the suite signs up far more often than a person from 127.0.0.1, so the limits here are wide
# and the tests of the limits set their own.
ACCOUNT_MAIL_RATE_PER_ADDRESS = "100000/hour"
ACCOUNT_MAIL_RATE_PER_EMAIL = "100000/hour"
