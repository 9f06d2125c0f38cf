"""Settings for the test suite: the project's settings with test-only speed-ups.

The database and broker still come from DATABASE_URL / CELERY_BROKER_URL (scripts/test points
them at the local PostgreSQL and Redis when they answer).
"""

from __future__ import annotations

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production")

from decklab.settings import *  # noqa: F403

# Fast hashing: tests create many users; nothing here protects a real password.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"] = {  # noqa: F405
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = []  # noqa: F405
