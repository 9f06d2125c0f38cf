"""How long scripts/run's preparation takes on a second start with nothing changed: the five
commands it ran before (each paying Django's start-up) against one ``manage.py prepare_run``,
measured side by side on a throw-away SQLite database and broker directory.

    .venv/bin/python bench/run_start.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
PASSWORD = "bench-demo-password"

BEFORE = [
    ["migrate", "--noinput"],
    ["compilemessages", "--ignore=.venv", "--ignore=var", "--ignore=staticfiles", "-v", "0"],
    ["collectstatic", "--noinput", "-v", "0"],
    ["load_catalogs"],
    ["create_demo_account", "--username", "demo", "--password", PASSWORD],
]
AFTER = [["prepare_run", "--demo-username", "demo", "--demo-password", PASSWORD]]


def run(commands: list[list[str]], env: dict[str, str]) -> float:
    start = time.perf_counter()
    for command in commands:
        subprocess.run(
            [PY, str(ROOT / "manage.py"), *command],
            cwd=ROOT,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory(prefix="decklab-run-bench-") as var:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL")
        }
        env.update(
            DJANGO_SETTINGS_MODULE="decklab.settings",
            DECKLAB_VAR_DIR=var,
            DEBUG="1",
            SECURE_COOKIES="false",
        )
        first = run(AFTER, env)  # the first start: everything is done once
        print(f"first start (prepare_run, empty database): {first:.1f} s")
        before, after = [], []
        for _ in range(rounds):  # alternated, so both see the same machine load
            before.append(run(BEFORE, env))
            after.append(run(AFTER, env))
        b, a = statistics.median(before), statistics.median(after)
        print(f"second start, five commands (before): median {b:.1f} s  {before}")
        print(f"second start, prepare_run (after):    median {a:.1f} s  {after}")
        print(f"ratio before/after: {b / a:.1f}x")


if __name__ == "__main__":
    main()
