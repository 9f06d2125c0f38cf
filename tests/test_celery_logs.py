"""The log check every worker and beat test uses (tests/celery_logs.py) finds what it must."""

from __future__ import annotations

import re

from tests.celery_logs import log_problems

CLEAN = """\
[2026-11-27 09:38:02,803: INFO/Beat] Scheduler: Sending due task simulation-supervise
[2026-11-27 09:38:02,991: INFO/ForkPoolWorker-2] Task simulator.runs_supervise[9f5] succeeded
[2026-11-27 09:40:14,126: WARNING/MainProcess] consumer: Connection to broker lost.
"""
REFUSED = (
    "[2026-11-27 09:13:26,064: ERROR/MainProcess] Message Error: Couldn't apply scheduled task "
    "simulation-supervise: soft_time_limit must be less than or equal to time_limit"
)
UNRECOVERABLE = """\
[09:13:26: CRITICAL/MainProcess] Unrecoverable error: JSONDecodeError('Expecting value')
Traceback (most recent call last):
  File "kombu/transport/filesystem.py", line 300, in _get
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
"""


def test_a_clean_log_has_no_problem() -> None:
    assert log_problems(CLEAN, []) == []


def test_an_error_a_refused_schedule_and_a_traceback_are_problems() -> None:
    assert len(log_problems(CLEAN + REFUSED, [])) == 1
    found = log_problems(UNRECOVERABLE, [])
    assert len(found) == 2  # the critical line and its traceback
    assert "JSONDecodeError: Expecting value" in found[1]
    assert log_problems("Couldn't apply scheduled task x: y", []) != []


def test_an_allowed_line_and_the_traceback_right_after_it_are_not() -> None:
    allowed = [re.compile(r"Unrecoverable error: JSONDecodeError")]
    assert log_problems(UNRECOVERABLE, allowed) == []
    # a traceback elsewhere is still one
    assert len(log_problems(CLEAN + UNRECOVERABLE.split("\n", 1)[1], allowed)) == 1


CHAINED = """\
[2026-11-27 11:25:12,719: CRITICAL/MainProcess] Unrecoverable error: AttributeError('hostname')
Traceback (most recent call last):
  File "redis/connection.py", line 1055, in connect_check_health
redis.exceptions.ConnectionError: Connection closed by server.

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "kombu/asynchronous/hub.py", line 355, in _close
AttributeError: 'NoneType' object has no attribute 'hostname'
"""


def test_every_traceback_of_an_allowed_records_chain_is_allowed_and_no_other() -> None:
    allowed = [re.compile(r"Unrecoverable error: AttributeError")]
    assert log_problems(CHAINED, allowed) == []
    # the next record's traceback is its own
    later = "[2026-11-27 11:25:13,001: ERROR/MainProcess] Other\nTraceback (most recent call last):"
    assert len(log_problems(CHAINED + later, allowed)) == 2
    assert len(log_problems(CHAINED, [])) == 3
