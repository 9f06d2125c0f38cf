"""How long ``scripts/run`` takes on a fresh clone: from the command to the first page served
(``GET /`` answering 200), on the first start (the virtualenv created and installed, the
database migrated, the catalogs loaded...) and on a second start with nothing changed.

    .venv/bin/python bench/fresh_clone_start.py [--dest /tmp/fresh-clone] [--overlay PATH ...]

The clone is of the repository's committed HEAD; ``--overlay`` copies files of the working tree
over it (to measure uncommitted changes). pip's cache and local wheel folders are used as pip
finds them, as on a developer's machine that installed Python packages before. The embedded
setup is measured (SQLite and the filesystem broker): DATABASE_URL, CELERY_BROKER_URL and
REDIS_URL are removed from the environment.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DROPPED = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "REDIS_URL",
    "DJANGO_SETTINGS_MODULE",
    "VIRTUAL_ENV",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def first_page(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            return int(response.status) == 200
    except OSError:
        return False


def phases(log: Path, began: float, seen: dict[str, float]) -> None:
    """When each of scripts/run's steps ("==> ..." lines) first showed in its output."""
    text = log.read_text(errors="replace") if log.exists() else ""
    for line in text.splitlines():
        if "==> " in line:
            step = line.split("==> ", 1)[1].replace("\x1b[0m", "").strip()
            seen.setdefault(step, time.perf_counter() - began)


def start(clone: Path, port: int, log: Path, timeout: float) -> float:
    """Seconds from ``scripts/run`` to the first page; the servers are stopped afterwards.
    Prints when each step began."""
    seen: dict[str, float] = {}
    env = {k: v for k, v in os.environ.items() if k not in DROPPED}
    env.update(PORT=str(port), PATH=os.defpath + ":" + env.get("PATH", ""))
    began = time.perf_counter()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(clone / "scripts" / "run")],
            cwd=clone,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            while not first_page(port):
                if process.poll() is not None:
                    raise SystemExit(f"scripts/run exited with {process.returncode}: see {log}")
                if time.perf_counter() - began > timeout:
                    raise SystemExit(f"no page within {timeout:g} s: see {log}")
                phases(log, began, seen)
                time.sleep(0.1)
            elapsed = time.perf_counter() - began
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGINT)
                try:
                    process.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()
    for step, at in seen.items():
        print(f"    {at:6.1f} s  {step[:70]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dest", type=Path, default=Path("/tmp/fresh-clone"))
    parser.add_argument("--overlay", nargs="*", default=[], help="working-tree files to copy")
    parser.add_argument("--seconds", type=int, default=2, help="second starts to time")
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()

    shutil.rmtree(args.dest, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(args.dest)], check=True)
    for name in args.overlay:
        target = args.dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    port = free_port()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    first = start(args.dest, port, args.dest / "first-start.log", args.timeout)
    print(f"first start (fresh clone) to the first page: {first:.1f} s")
    for n in range(args.seconds):
        second = start(args.dest, port, args.dest / f"second-start-{n}.log", args.timeout)
        print(f"second start to the first page: {second:.1f} s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"logs in {args.dest}/*.log (each step's time: 'done in' lines)")


if __name__ == "__main__":
    main()
