"""Real Celery processes for the tests that kill, restart or watch them.

``celery -A decklab …`` runs in a session of its own, so one ``killpg`` ends the main process
and its pool's children together, as a machine losing a worker would. Each process writes its
output to a log file that the ``celery_logs`` fixture checks when the test ends
(tests/celery_logs.py). The ``celery_processes`` fixture (tests/conftest.py) starts them and
kills whatever is left at teardown.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
CELERY = Path(sys.executable).parent / "celery"


def test_database_url() -> str:
    """DATABASE_URL pointing at the database pytest-django created for this session."""
    parts = urlsplit(os.environ.get("DATABASE_URL", ""))
    name = settings.DATABASES["default"]["NAME"]
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


# not a test, whatever its name says
test_database_url.__test__ = False  # type: ignore[attr-defined]


def worker_arguments(name: str, *, beat_schedule: Path | None = None) -> list[str]:
    """One prefork child named ``name``, quiet about its peers; with beat in the same process
    when a schedule file is given."""
    arguments = ["worker", "-c", "1", "--pool", "prefork", "-n", f"{name}@%h", "-l", "info"]
    arguments += ["--without-gossip", "--without-mingle"]
    if beat_schedule is not None:
        arguments += ["-B", "-s", str(beat_schedule)]
    return arguments


_kernels_on_disk: list[bool] = []


def kernels_on_disk() -> None:
    """The engines' kernels compiled in this process, once a session, before a worker starts:
    a worker warms them as it starts (simulator/warmup.py) and then loads them from numba's
    disk cache instead of compiling, which after a kernel changed can take minutes on a loaded
    machine, longer than a test waits for its worker."""
    if not _kernels_on_disk:
        from simulator.warmup import engines_warm

        engines_warm()
        _kernels_on_disk.append(True)


class CeleryProcess:
    """``celery -A decklab <arguments>`` in its own process group, its output in ``log``."""

    def __init__(self, arguments: list[str], log: Path, env: dict[str, str]) -> None:
        if "worker" in arguments:
            kernels_on_disk()
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.settings",
            "DATABASE_URL": test_database_url(),
            "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
            "PYTHONPATH": str(ROOT),
            **env,
        }
        self.log = log
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            [str(CELERY), "-A", "decklab", *arguments],
            cwd=ROOT,
            env=environment,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
        self._log_file.close()


#: ``start(name, *arguments, env=…)``, as the ``celery_processes`` fixture gives it
StartCelery = Callable[..., CeleryProcess]


def wait_for(what: str, check: Callable[[], Any], timeout: float, logs: list[Path]) -> Any:
    """``check()``'s first true answer, polled every 20 ms; the test fails with the logs' tails
    when ``timeout`` seconds pass first."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    tails = "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for log in logs)
    pytest.fail(f"gave up waiting {timeout} s for {what}\n{tails}")
