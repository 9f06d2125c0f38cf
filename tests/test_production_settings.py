"""The production profile: mail from the environment, HTTPS settings, `check --deploy` clean,
health endpoints, and the gunicorn config loads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from decklab.env import email_settings

ROOT = Path(__file__).resolve().parent.parent

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "decklab.settings",
    "DEBUG": "0",
    "SECRET_KEY": "a-production-like-secret-key-" + "x" * 40,
    "ALLOWED_HOSTS": "decklab.example.org",
    "SECURE_COOKIES": "1",
    "BEHIND_HTTPS_PROXY": "1",
    "EMAIL_URL": "smtp://mailer:p%40ss@smtp.example.org:587",
}


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # the browser tests set DJANGO_ALLOW_ASYNC_UNSAFE in this process: a deployment never does
    dropped = ("EMAIL_ALLOW_CONSOLE", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_in_the_production_profile() -> None:
    done = _manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_a_server_with_debug_off_refuses_to_start_with_mail_going_to_the_console() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "EMAIL_URL"}
    done = _manage("check", **env)
    assert done.returncode != 0
    assert "EMAIL_URL is required when DEBUG is off" in done.stderr


def test_the_console_mail_is_accepted_when_asked_for_explicitly() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "EMAIL_URL"}
    done = _manage("check", **env, EMAIL_ALLOW_CONSOLE="1")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp://mailer:p%40ss@smtp.example.org:587",
            ("smtp.EmailBackend", "smtp.example.org", 587, "mailer", "p@ss", True, False),
        ),
        (
            "smtps://u:pw@mail.example.org",
            ("smtp.EmailBackend", "mail.example.org", 465, "u", "pw", False, True),
        ),
    ],
)
def test_mail_settings_come_from_one_url(url: str, expected: tuple[Any, ...]) -> None:
    found = email_settings(url)
    assert (
        str(found["EMAIL_BACKEND"]).rsplit(".", 2)[-2] + "." + "EmailBackend",
        found["EMAIL_HOST"],
        found["EMAIL_PORT"],
        found["EMAIL_HOST_USER"],
        found["EMAIL_HOST_PASSWORD"],
        found["EMAIL_USE_TLS"],
        found["EMAIL_USE_SSL"],
    ) == expected


@pytest.mark.django_db
def test_liveness_answers_without_checking_anything() -> None:
    response = Client().get("/health/live")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


@pytest.mark.django_db
def test_readiness_checks_the_database_and_the_broker() -> None:
    response = Client().get("/health/ready")
    assert response.status_code == 200, response.json()
    assert response.json() == {"status": "ok", "database": "ok", "broker": "ok", "cache": "ok"}


@pytest.mark.django_db
def test_readiness_is_503_with_retry_after_when_the_broker_is_down(settings: Any) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:9/0"  # nothing listens there
    response = Client().get("/health/ready")
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "database": "ok",
        "broker": "down",
        "cache": "ok",
    }
    assert response["Retry-After"] == "10"


def test_the_gunicorn_config_loads() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "gunicorn.conf.py",
            "--check-config",
            "decklab.wsgi",
        ],
        cwd=ROOT,
        env={**os.environ, **PRODUCTION},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
