"""With DEBUG off, weak settings stop the server at start with a message saying what to fix."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from decklab.env import production_problems, secret_key_problem
from tests.test_production_settings import PRODUCTION, ROOT

GOOD_KEY = PRODUCTION["SECRET_KEY"]


def _check(**changes: str | None) -> subprocess.CompletedProcess[str]:
    """``manage.py check`` in the production profile with ``changes`` (None: unset)."""
    dropped = {"EMAIL_ALLOW_CONSOLE", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "ALLOWED_HOSTS"}
    env = {k: v for k, v in os.environ.items() if k not in dropped} | PRODUCTION
    for name, value in changes.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"SECRET_KEY": "changeme"}, "SECRET_KEY is too weak (it is a well-known placeholder)"),
        ({"SECRET_KEY": "ab" * 30}, "SECRET_KEY is too weak (it uses only 2 different"),
        ({"ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS=* is refused when DEBUG is off"),
        ({"ALLOWED_HOSTS": None}, "ALLOWED_HOSTS is required when DEBUG is off"),
    ],
)
def test_a_server_with_debug_off_refuses_to_start_with_weak_settings(
    changes: dict[str, str | None], message: str
) -> None:
    done = _check(**changes)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert message in done.stderr


def test_the_same_settings_with_debug_on_start_for_development() -> None:
    done = _check(SECRET_KEY="changeme", ALLOWED_HOSTS=None, DEBUG="1")
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("changeme", "it is a well-known placeholder"),
        ("CHANGEME", "it is a well-known placeholder"),
        ("django-insecure-" + "k3y" * 20, "it is a well-known placeholder"),
        ("short-but-random-9f8a", "it has 21 characters, fewer than 32"),
        ("x" * 64, "it uses only 1 different characters"),
        (GOOD_KEY, None),
        ("q2V0m9_Zk4Jx8rT1yWc3LbN6uPa5sDe7", None),
    ],
)
def test_a_secret_key_is_judged_by_length_variety_and_fame(key: str, problem: str | None) -> None:
    assert secret_key_problem(key) == problem


def test_every_problem_is_named_at_once() -> None:
    problems = production_problems(secret_key="secret", allowed_hosts=["*"])
    assert [p.split(" ", 1)[0] for p in problems] == ["SECRET_KEY", "ALLOWED_HOSTS=*"]
    assert production_problems(secret_key=GOOD_KEY, allowed_hosts=[]) != []
    assert production_problems(secret_key=GOOD_KEY, allowed_hosts=["decklab.example.org"]) == []
