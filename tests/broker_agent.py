"""Producers and consumers of the embedded broker for tests/test_embedded_broker.py, each run as
its own process (``python -m tests.broker_agent ...``) as the web and worker processes are.

    produce FOLDER NAME COUNT THREADS   publish COUNT messages from each of THREADS threads
    consume FOLDER OUT STOP             take messages, one id a line in OUT, until STOP exists
                                        and the queue stays empty

Any exception ends the process with a traceback and a non-zero status.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from queue import Empty

import kombu

import decklab.celery  # noqa: F401  (registers the embedded transport for filesystem://)

QUEUE = "stress"
#: a payload the size of a Celery task message, so a write is not a single tiny block
PADDING = "x" * 1500


def connection(folder: Path) -> kombu.Connection:
    queue = folder / "queue"
    queue.mkdir(parents=True, exist_ok=True)  # as settings.py makes them for the real one
    return kombu.Connection(
        "filesystem://",
        transport_options={
            "data_folder_in": str(queue),
            "data_folder_out": str(queue),
            "control_folder": str(folder / "control"),
            "staging_folder": str(folder / "staging"),
            "claim_folder": str(folder / "staging"),
            "rejected_folder": str(folder / "rejected"),
            "polling_interval": 0.001,
        },
    )


def produce(folder: Path, name: str, count: int, threads: int) -> None:
    failures: list[BaseException] = []

    def publish(thread: int) -> None:
        try:
            with connection(folder) as conn:
                queue = conn.SimpleQueue(QUEUE)
                for n in range(count):
                    queue.put({"id": f"{name}-{thread}-{n}", "pad": PADDING})
                queue.close()
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    workers = [threading.Thread(target=publish, args=(t,)) for t in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise failures[0]


def consume(folder: Path, out: Path, stop: Path) -> None:
    with connection(folder) as conn, out.open("w") as ids:
        queue = conn.SimpleQueue(QUEUE)
        quiet_since: float | None = None
        while True:
            try:
                message = queue.get(timeout=0.2)
            except Empty:
                if stop.exists():
                    quiet_since = quiet_since or time.monotonic()
                    if time.monotonic() - quiet_since > 1.0:
                        break
                continue
            quiet_since = None
            ids.write(message.payload["id"] + "\n")
            message.ack()
        queue.close()


def main(argv: list[str]) -> None:
    command, folder = argv[0], Path(argv[1])
    if command == "produce":
        produce(folder, argv[2], int(argv[3]), int(argv[4]))
    elif command == "consume":
        consume(folder, Path(argv[2]), Path(argv[3]))
    else:
        raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
