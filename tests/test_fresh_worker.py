"""A freshly started gunicorn answers a burst of first API requests without a 500.

The API reads which query parameters each endpoint documents from the OpenAPI schema; built
lazily by the first requests of a new worker, several threads built it at once and some of them
crashed (3-8 of 16). The schema is now built before the worker serves. This starts the real
thing: gunicorn with ``gunicorn.conf.py``, one worker with 16 threads, on a free port.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

from games import registry
from tests.celery_process import test_database_url

ROOT = Path(settings.BASE_DIR)
GUNICORN = Path(sys.executable).parent / "gunicorn"
BURST = 16
#: each reads the schema (a query parameter to check) and answers what it should, not a 500
PATHS = [
    ("/api/v1/games/?format=json", 200),
    ("/api/v1/games/?bogus=1", 400),  # a parameter the schema does not document
    ("/api/v1/engines/?format=json", 200),
    ("/api/v1/decks/?page=1", 401),  # anonymous
]

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL (DATABASE_URL): gunicorn shares the test database",
    ),
]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
        return int(answer.status)
    finally:
        conn.close()


def _start_gunicorn(port: int, log: Path, preload: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": test_database_url(),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": "1",
        "GUNICORN_THREADS": str(BURST),
        "GUNICORN_PRELOAD": preload,
        "GUNICORN_ACCESS_LOG": str(log),
        "PYTHONPATH": str(ROOT),
    }
    return subprocess.Popen(
        [str(GUNICORN), "-c", "gunicorn.conf.py", "decklab.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.with_suffix(".err").open("wb"),
        start_new_session=True,
    )


def _wait_until_listening(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "gunicorn exited"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("gunicorn did not start listening")


@pytest.mark.parametrize("preload", ["1", "0"])
def test_sixteen_simultaneous_first_api_requests_to_a_fresh_worker_are_all_answered(
    tmp_path: Path, preload: str
) -> None:
    port = _free_port()
    log = tmp_path / "access.log"
    process = _start_gunicorn(port, log, preload)
    try:
        _wait_until_listening(port, process)
        barrier = threading.Barrier(BURST)
        statuses: list[tuple[str, int]] = []

        def first_request(n: int) -> None:
            path, _expected = PATHS[n % len(PATHS)]
            barrier.wait()
            statuses.append((path, _get(port, path)))

        threads = [threading.Thread(target=first_request, args=(n,)) for n in range(BURST)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        errors = log.with_suffix(".err").read_text(errors="replace")[-3000:]
        expected = sorted(PATHS[n % len(PATHS)] for n in range(BURST))
        assert sorted(statuses) == expected, errors
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_threads_asking_for_the_documented_parameters_at_once_all_get_them() -> None:
    from decklab.api import middleware

    middleware._built.clear()
    barrier = threading.Barrier(BURST)
    results: list[object] = []
    failures: list[BaseException] = []

    def ask() -> None:
        barrier.wait()
        try:
            results.append((tuple(registry.slugs()), middleware.documented_query_parameters()))
        except BaseException as error:  # collected: the assertion below names it
            failures.append(error)

    threads = [threading.Thread(target=ask) for _ in range(BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == []
    assert len(results) == BURST
    assert {games for games, _ in results} == {tuple(registry.slugs())}, results
    assert all(found is results[0][1] for _, found in results)
    assert ("/api/v1/decks/", "GET") in results[0][1]
