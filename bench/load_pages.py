"""Load test: a catalog set page and a deck page under gunicorn, at concurrency 8 and 32.

Loopback only and bounded: it creates a throwaway PostgreSQL database, loads the catalogs,
makes one public deck from a prebuilt product, starts gunicorn with the repository's
gunicorn.conf.py on a free port, hits each page for --seconds at each concurrency, prints
throughput, p50/p95/p99 and errors, then stops gunicorn and drops the database.

    .venv/bin/python bench/load_pages.py [--seconds 60] [--concurrency 8 32] [--before TREE]

With --before, a second gunicorn serves another checkout on the same database, and the two take
turns on each measurement (same machine load, side by side).
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from _bench import django_on, machine, throwaway_database

# _bench closes Django's connections at the end; this process opens none, but settings must load
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decklab.settings")
os.environ.setdefault("EMAIL_ALLOW_CONSOLE", "1")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ.setdefault("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

SETUP = """
from catalog.models import CardSet, Product
from django.contrib.auth import get_user_model
from decks.services import deck_from_product
from django.db.models import Count
product = Product.objects.filter(items__isnull=False).order_by("pk").first()
user = get_user_model().objects.create_user("bench", "bench@example.test", "bench-password-1")
deck = deck_from_product(product=product, user=user)
deck.visibility = "public"
deck.save(update_fields=["visibility"])
# the largest set: the heaviest set page
card_set = CardSet.objects.annotate(n=Count("printings")).order_by("-n", "pk").first()
print(card_set.get_absolute_url())
print(deck.get_absolute_url())
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_up(port: int, deadline: float, log: Any) -> None:
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    log.seek(0)
    raise SystemExit("gunicorn did not start:\n" + log.read().decode(errors="replace")[-2000:])


def hammer(port: int, path: str, concurrency: int, seconds: float) -> dict[str, float]:
    stop = time.monotonic() + seconds
    times: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        failed = 0
        while time.monotonic() < stop:
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers={"Host": "localhost"})
                response = conn.getresponse()
                response.read()
                if response.status != 200:
                    failed += 1
            except (OSError, http.client.HTTPException):
                failed += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - started)
        conn.close()
        with lock:
            times.extend(mine)
            errors[0] += failed

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    times.sort()

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(p * len(times)))] * 1000 if times else float("nan")

    return {
        "requests": len(times),
        "rps": len(times) / seconds,
        "p50": pct(0.50),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "errors": errors[0],
    }


def start_gunicorn(tree: Path, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn with the repository's config, serving the code in ``tree``, on a free port."""
    port = free_port()
    log = tempfile.TemporaryFile()  # noqa: SIM115  (shown if gunicorn does not start)
    server = subprocess.Popen(
        [
            str(Path(PY).parent / "gunicorn"),
            "-c",
            str(ROOT / "gunicorn.conf.py"),
            "decklab.wsgi:application",
        ],
        env={**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "PYTHONPATH": f"{tree}:{ROOT}"},
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
    wait_up(port, time.monotonic() + 60, log)
    return server, port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 32])
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout (e.g. `git worktree add /tmp/before HEAD`) measured in turns",
    )
    args = parser.parse_args()
    with throwaway_database("load") as url:
        django_on(url)  # migrates it
        print(machine())
        static_root = tempfile.mkdtemp(prefix="decklab-load-static-")
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DEBUG": "0",
            "SECURE_COOKIES": "0",
            "EMAIL_ALLOW_CONSOLE": "1",
            "SECRET_KEY": "bench-only-" + "x" * 50,
            "GUNICORN_ACCESS_LOG": os.devnull,  # one line per request would cost the figures
            "DJANGO_SETTINGS_MODULE": "bench._load_settings",
            "BENCH_STATIC_ROOT": static_root,
            "PYTHONPATH": str(ROOT),
        }
        manage = [PY, str(ROOT / "manage.py")]
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT
        )
        subprocess.run([*manage, "load_catalogs", "-v0"], env=env, check=True, cwd=ROOT)
        out = subprocess.run(
            [*manage, "shell", "-c", SETUP],
            env=env,
            check=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout.split()
        pages = {"set page": out[-2], "deck page": out[-1]}
        trees = {"now": ROOT}
        if args.before:
            trees = {"before": args.before.resolve(), "now": ROOT}
        servers: dict[str, tuple[subprocess.Popen[bytes], int]] = {}
        try:
            for name, tree in trees.items():
                servers[name] = start_gunicorn(tree, env)
            print(
                f"gunicorn.conf.py: workers={os.environ.get('GUNICORN_WORKERS', os.cpu_count())}"
                f" threads={os.environ.get('GUNICORN_THREADS', '4')}"
            )
            for label, path in pages.items():
                for _server, port in servers.values():
                    hammer(port, path, 2, 3)  # warm the workers
                for concurrency in args.concurrency:
                    # the trees take turns, so both see the same machine load
                    for name, (_server, port) in servers.items():
                        r = hammer(port, path, concurrency, args.seconds)
                        print(
                            f"{name:6} {label:9} c={concurrency:<3} {r['requests']:6.0f} req "
                            f"{r['rps']:6.1f} req/s  p50 {r['p50']:6.1f} ms  "
                            f"p95 {r['p95']:6.1f} ms  p99 {r['p99']:6.1f} ms  "
                            f"errors {r['errors']:.0f}",
                            flush=True,
                        )
        finally:
            for server, _port in servers.values():
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=60)
            shutil.rmtree(static_root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
