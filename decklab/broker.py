"""The embedded broker (``filesystem://``): kombu's filesystem transport, made safe for several
processes writing and reading the same folder.

kombu's own transport creates a message's file under its final name, then writes it. A worker
listing the queue in between claims an empty file and stops on it (``Unrecoverable error:
JSONDecodeError``), which under ``scripts/run`` used to take the web server down with it. Here:

- a message is written in a staging folder beside the queue folder (the same filesystem) and
  renamed into the queue in one step, so every file a consumer sees is complete;
- a consumer claims a file by renaming it out of the queue (one rename wins: each message is
  delivered once), then reads it; a file that is not a message is put back while it may still
  be written (by an older process using kombu's transport) and set aside with a warning after
  that (a crash mid-write), rather than stopping the worker;
- the exchange tables (which queues a fanout reaches, rewritten as workers start) are replaced
  the same way, under a lock, so a reader never sees half a table.

``decklab/celery.py`` registers this transport for ``filesystem://``.
"""

from __future__ import annotations

import fcntl
import logging
import os
import time
import uuid
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from queue import Empty
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

logger = logging.getLogger(__name__)

#: a queue file that is not a message yet but younger than this may be written still, by kombu's
#: own transport in an older DeckLab process: it is put back rather than set aside
UNFINISHED_FILE_GRACE_SECONDS = 5.0
#: "no message from this file" (a payload may be any JSON value, None included)
_NOTHING = object()


def _sibling(folder: str, suffix: str) -> str:
    """A folder beside ``folder`` (so on the same filesystem, where a rename is atomic)."""
    return os.path.abspath(folder).rstrip(os.sep) + suffix


class Channel(filesystem.Channel):
    @cached_property
    def staging_folder(self) -> str:
        folder = self.transport_options.get("staging_folder") or _sibling(
            self.data_folder_out, ".staging"
        )
        os.makedirs(folder, exist_ok=True)
        return str(folder)

    @cached_property
    def claim_folder(self) -> str:
        """Where a consumer moves a message it takes: the processed folder when messages are
        kept, else the staging folder (outside every consumer's listing, same filesystem)."""
        if self.store_processed:
            os.makedirs(self.processed_folder, exist_ok=True)
            return str(self.processed_folder)
        folder = self.transport_options.get("claim_folder") or _sibling(
            self.data_folder_in, ".staging"
        )
        os.makedirs(folder, exist_ok=True)
        return str(folder)

    @cached_property
    def rejected_folder(self) -> str:
        return str(
            self.transport_options.get("rejected_folder")
            or _sibling(self.data_folder_in, ".rejected")
        )

    # --- messages ------------------------------------------------------------------------
    # the stubs of kombu's two base classes name the argument differently (message, payload)
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        staged = os.path.join(self.staging_folder, name)
        try:
            with open(staged, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(staged, os.path.join(self.data_folder_out, name))
        except OSError as exc:
            with suppress(OSError):
                os.unlink(staged)
            raise ChannelError(f"Cannot add {name!r} to the queue folder") from exc

    def _get(self, queue: str, timeout: float | None = None) -> Any:
        # The folder is listed once and served in order until that backlog is used up: listing
        # and sorting it for every message costs O(backlog) each, which a backlog of thousands
        # of messages turned into seconds. Names another consumer took meanwhile fail to rename.
        for _ in range(2):
            backlog = self._backlogs.get(queue)
            fresh = not backlog
            if fresh:
                backlog = self._backlogs[queue] = deque(self._listing(queue))
            while backlog:
                payload = self._claim(backlog.popleft())
                if payload is not _NOTHING:
                    return payload
            if fresh:
                break
        raise Empty()

    @cached_property
    def _backlogs(self) -> dict[str, deque[str]]:
        return {}

    def _listing(self, queue: str) -> list[str]:
        wanted = f".{queue}.msg"
        try:
            names = os.listdir(self.data_folder_in)
        except OSError as exc:
            raise ChannelError(f"Cannot list {self.data_folder_in!r}") from exc
        return sorted(n for n in names if n.endswith(wanted) and n.partition(".")[2] == wanted[1:])

    def _claim(self, name: str) -> Any:
        """The message in the queue file ``name``, or _NOTHING when another consumer took it or
        it does not hold a message yet."""
        queued = os.path.join(self.data_folder_in, name)
        claimed = os.path.join(self.claim_folder, name)
        try:
            os.rename(queued, claimed)
        except OSError:
            return _NOTHING  # another consumer took it first
        try:
            with open(claimed, "rb") as file:
                raw = file.read()
        except OSError as exc:
            raise ChannelError(f"Cannot read {claimed!r}") from exc
        try:
            payload = loads(bytes_to_str(raw))
        except ValueError:
            self._not_a_message(claimed, queued, name)
            return _NOTHING
        if not self.store_processed:
            with suppress(OSError):
                os.remove(claimed)
        return payload

    def _not_a_message(self, claimed: str, queued: str, name: str) -> None:
        """A file just created by kombu's own transport (an older process still running) is
        written after it appears: put back under its name, it is read once complete. Anything
        older is no message and is set aside."""
        try:
            age = time.time() - os.stat(claimed).st_mtime
        except OSError:
            return
        if age < UNFINISHED_FILE_GRACE_SECONDS:
            with suppress(OSError):
                os.rename(claimed, queued)
            return
        os.makedirs(self.rejected_folder, exist_ok=True)
        target = os.path.join(self.rejected_folder, name)
        with suppress(OSError):
            os.replace(claimed, target)
        logger.warning("Set aside a queue file that is not a message: %s", target)

    # --- exchange tables -------------------------------------------------------------------
    def _exchange_path(self, exchange: str) -> Path:
        # kombu's own check of the name: no path separators, no "..", no device names
        path: Path = self._exchange_file(exchange)  # type: ignore[attr-defined]
        return path

    @contextmanager
    def _table_locked(self, exchange: str) -> Iterator[Path]:
        table = self._exchange_path(exchange)
        self.control_folder.mkdir(parents=True, exist_ok=True)
        with open(f"{table}.lock", "a") as lock:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            try:
                yield table
            finally:
                fcntl.flock(lock.fileno(), fcntl.LOCK_UN)

    def _read_table(self, table: Path) -> list[Any]:
        try:
            raw = table.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise ChannelError(f"Cannot open {table}") from exc
        try:
            return [filesystem.exchange_queue_t(*row) for row in loads(bytes_to_str(raw))]
        except ValueError:
            logger.warning("Ignored an exchange table that is not one: %s", table)
            return []

    def _write_table(self, table: Path, rows: list[Any]) -> None:
        staged = table.with_name(f".{table.name}.{uuid.uuid4().hex}.tmp")
        try:
            staged.write_bytes(str_to_bytes(dumps(rows)))
            os.replace(staged, table)
        except OSError as exc:
            with suppress(OSError):
                staged.unlink()
            raise ChannelError(f"Cannot write {table}") from exc

    def get_table(self, exchange: str) -> list[Any]:
        # written whole by a rename: no lock needed to read a complete table
        return self._read_table(self._exchange_path(exchange))

    def _queue_bind(
        self, exchange: str, routing_key: str | None, pattern: str | None, queue: str | None
    ) -> None:
        row = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_locked(exchange) as table:
            rows = self._read_table(table)
            if row not in rows:
                self._write_table(table, [row, *rows])

    def _delete(
        self, queue: str, exchange: str, routing_key: str, pattern: str, *args: Any, **kwargs: Any
    ) -> None:
        self._purge(queue)
        row = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        with self._table_locked(exchange) as table:
            rows = self._read_table(table)
            if row in rows:
                self._write_table(table, [r for r in rows if r != row])


class Transport(filesystem.Transport):
    Channel = Channel
