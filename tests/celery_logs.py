"""Every test that runs a Celery worker or beat fails when their log shows a problem.

A sweep that beat could never send (``Couldn't apply scheduled task``) or a worker stopped by
a broken message went unnoticed for a long time because the tests only looked at the
database. The ``celery_logs`` fixture (tests/conftest.py) collects the log of every worker and
beat a test starts (``watch`` a subprocess's log file, ``capture`` for a worker in the test's
own process) and fails the test at teardown on any ERROR or CRITICAL line, traceback or refused
scheduled task, except the lines the test ``allow``s because it breaks things on purpose.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

#: what a clean worker or beat never writes
PROBLEM = re.compile(
    r"\b(ERROR|CRITICAL)\b|Traceback \(most recent call last\)"
    r"|Couldn't apply scheduled task|Unrecoverable error"
)
#: lines shown after a problem line (a traceback's frames)
CONTEXT_LINES = 8


#: how a log record's first line starts (``[2026-11-27 11:25:12,717: LEVEL/Process] …``); the
#: lines up to the next one are that record's traceback, chained exceptions included
RECORD_START = re.compile(r"^\[\d{4}-\d\d-\d\d ")


def log_problems(text: str, allowed: list[re.Pattern[str]]) -> list[str]:
    """The problem lines of ``text`` not matched by an ``allowed`` pattern, with the lines
    that follow each (a traceback's frames). A traceback belongs to the record logged before
    it and is allowed with that record (every traceback of a chain of exceptions)."""
    lines = text.splitlines()

    def is_allowed(number: int) -> bool:
        return any(pattern.search(lines[number]) for pattern in allowed)

    found: list[str] = []
    record_allowed = False
    for number, line in enumerate(lines):
        if RECORD_START.match(line):
            record_allowed = is_allowed(number)
        if not PROBLEM.search(line) or is_allowed(number):
            continue
        if line.startswith("Traceback") and (
            record_allowed or (number > 0 and is_allowed(number - 1))
        ):
            continue
        found.append("\n".join(lines[number : number + CONTEXT_LINES]))
    return found


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(levelname)s/%(name)s] %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


class CeleryLogs:
    """The logs of the workers and beats of one test."""

    def __init__(self) -> None:
        self.files: list[Path] = []
        self.allowed: list[re.Pattern[str]] = []
        self._records: list[_Records] = []

    def watch(self, log: Path) -> Path:
        """Check this log file (a worker's or beat's output) when the test ends."""
        self.files.append(log)
        return log

    def allow(self, *patterns: str) -> None:
        """Problem lines this test expects (regular expressions), e.g. a worker that cannot
        reach the broker the test has just stopped."""
        self.allowed += [re.compile(pattern) for pattern in patterns]

    @contextmanager
    def capture(self) -> Iterator[None]:
        """Records of ERROR or above logged in this process meanwhile (an in-process worker)."""
        handler = _Records()
        self._records.append(handler)
        root = logging.getLogger()
        root.addHandler(handler)
        try:
            yield
        finally:
            root.removeHandler(handler)

    def problems(self) -> list[str]:
        found: list[str] = []
        for log in self.files:
            text = log.read_text(errors="replace") if log.exists() else ""
            found += [f"{log.name}: {problem}" for problem in log_problems(text, self.allowed)]
        for handler in self._records:
            text = "\n".join(handler.lines)
            found += [f"in-process: {problem}" for problem in log_problems(text, self.allowed)]
        return found

    def check(self) -> None:
        found = self.problems()
        if found:
            pytest.fail(
                "a worker or beat logged a problem:\n" + "\n---\n".join(found), pytrace=False
            )
