"""The embedded broker (``filesystem://``, decklab/broker.py) never hands out half a message:
several producer processes publish tens of thousands of messages while several consumer
processes take them; every message arrives exactly once and no process fails.

kombu's own transport let a consumer claim a file its producer had created but not yet written
(``JSONDecodeError``, which stopped the worker under scripts/run)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import kombu
import pytest
from django.conf import settings

from decklab import broker
from tests import broker_agent

ROOT = Path(settings.BASE_DIR)
PRODUCERS = 4
THREADS = 2
PER_THREAD = 2_500  # 4 x 2 x 2,500 = 20,000 messages
CONSUMERS = 3


def _agent(*arguments: str, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.broker_agent", *arguments],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


Agents = list[tuple[subprocess.Popen[bytes], Path]]


def _wait_all(processes: Agents, timeout: float, *, watching: Agents) -> None:
    """Every one of ``processes`` ends with status 0; any of ``watching`` failing, or the
    timeout, fails the test at once."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for process, log in watching:
            if process.poll() not in (None, 0):
                pytest.fail(f"{log.name}:\n{log.read_text(errors='replace')[-3000:]}")
        if all(process.poll() == 0 for process, _ in processes):
            return
        time.sleep(0.1)
    pytest.fail(f"not finished within {timeout:g} s: {[log.name for _, log in processes]}")


@pytest.fixture
def agents() -> Iterator[Agents]:
    started: Agents = []
    yield started
    for process, _ in started:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_filesystem_urls_use_the_atomic_transport() -> None:
    assert isinstance(kombu.Connection("filesystem://").transport, broker.Transport)


def test_every_message_of_many_producers_reaches_exactly_one_consumer_whole(
    tmp_path: Path, agents: Agents
) -> None:
    folder = tmp_path / "broker"
    stop = tmp_path / "stop"
    outs = [tmp_path / f"consumer-{n}.ids" for n in range(CONSUMERS)]
    for n, out in enumerate(outs):
        log = tmp_path / f"consumer-{n}.log"
        agents.append((_agent("consume", str(folder), str(out), str(stop), log=log), log))
    started = time.monotonic()
    for n in range(PRODUCERS):
        log = tmp_path / f"producer-{n}.log"
        arguments = ("produce", str(folder), f"p{n}", str(PER_THREAD), str(THREADS))
        agents.append((_agent(*arguments, log=log), log))
    consumers, producers = agents[:CONSUMERS], agents[CONSUMERS:]
    # a consumer that stops on a broken message fails the test at once
    _wait_all(producers, 300, watching=agents)
    stop.touch()
    _wait_all(consumers, 300, watching=agents)
    elapsed = time.monotonic() - started

    received = [line for out in outs for line in out.read_text().splitlines()]
    expected = {
        f"p{p}-{t}-{n}" for p in range(PRODUCERS) for t in range(THREADS) for n in range(PER_THREAD)
    }
    assert len(received) == len(expected) == PRODUCERS * THREADS * PER_THREAD
    assert set(received) == expected  # with the count: each exactly once
    taken = [len(out.read_text().splitlines()) for out in outs]
    assert all(taken), f"a consumer took nothing: {taken}"
    assert not list((folder / "queue").iterdir())
    assert not list((folder / "staging").iterdir())
    assert not (folder / "rejected").exists()
    print(f"\n{len(received)} messages in {elapsed:.1f} s, taken per consumer {taken}")


def test_a_file_that_is_not_a_message_is_set_aside_and_the_next_one_delivered(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "broker"
    with broker_agent.connection(folder) as conn:
        queue = conn.SimpleQueue(broker_agent.QUEUE)
        # left by crashes mid-write, old enough not to be a writer still at work
        empty = folder / "queue" / f"0_a.{broker_agent.QUEUE}.msg"
        empty.touch()
        half = folder / "queue" / f"0_b.{broker_agent.QUEUE}.msg"
        half.write_text('{"half": ')
        old = time.time() - broker.UNFINISHED_FILE_GRACE_SECONDS - 1
        for path in (empty, half):
            os.utime(path, (old, old))
        queue.put({"id": "whole"})
        message = queue.get(timeout=5)
        assert message.payload == {"id": "whole"}
        message.ack()
        queue.close()
    assert sorted(p.name for p in (folder / "rejected").iterdir()) == [
        f"0_a.{broker_agent.QUEUE}.msg",
        f"0_b.{broker_agent.QUEUE}.msg",
    ]


def test_a_file_just_created_is_left_for_its_writer(tmp_path: Path) -> None:
    """kombu's own transport (an older process) creates the file, then writes it."""
    folder = tmp_path / "broker"
    with broker_agent.connection(folder) as conn:
        queue = conn.SimpleQueue(broker_agent.QUEUE)
        young = folder / "queue" / f"0_a.{broker_agent.QUEUE}.msg"
        young.touch()
        half = folder / "queue" / f"0_b.{broker_agent.QUEUE}.msg"
        half.write_text('{"half": ')
        with pytest.raises(queue.Empty):
            queue.get(timeout=0.3)
        assert young.exists() and half.exists()
        assert not (folder / "rejected").exists()
        queue.close()
