"""What the benchmark scripts share: a throwaway PostgreSQL database and Django set up on it.

Each benchmark creates its own database (``decklab_bench_<name>_<pid>``) on the server named by
BENCH_ADMIN_URL (default: the local PostgreSQL as user postgres), runs the migrations, and drops
the database when it ends, even after an error. Nothing else on the server is touched.
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
SHARED_UNMATCHED = ROOT.parent / "shared" / "data" / "unmatched"
ADMIN_URL = os.environ.get("BENCH_ADMIN_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _admin_connection() -> object:
    import psycopg

    return psycopg.connect(ADMIN_URL.replace("postgres://", "postgresql://", 1), autocommit=True)


@contextmanager
def throwaway_database(label: str) -> Iterator[str]:
    """Create an empty database, yield its URL, and drop it afterwards."""
    from psycopg import sql

    name = f"decklab_bench_{label}_{os.getpid()}"
    with _admin_connection() as conn:  # type: ignore[attr-defined]
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield _with_database(ADMIN_URL, name)
    finally:
        _close_django_connections()
        with _admin_connection() as conn:  # type: ignore[attr-defined]
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def _close_django_connections() -> None:
    if "django" not in sys.modules:
        return
    from django.db import connections

    for conn in connections.all(initialized_only=True):
        conn.close()
        if hasattr(conn, "close_pool"):  # psycopg's pool keeps connections open otherwise
            conn.close_pool()


def django_on(database_url: str) -> None:
    """Set Django up on the given database, with DEBUG off, and migrate it."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = database_url
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    # whitenoise notes that collectstatic has not run; the pages' HTML is what is measured.
    warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def machine() -> str:
    """One line naming the machine, Python and PostgreSQL the figures were taken on."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg_version = cursor.fetchone()[0]
    mem_gib = 0.0
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_gib = int(line.split()[1]) / 1024 / 1024
    return (
        f"{os.cpu_count()} cores, {mem_gib:.0f} GiB, Python {platform.python_version()}, "
        f"PostgreSQL {pg_version.split()[0]}"
    )


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def verdict(ok: bool) -> str:
    return "ok" if ok else "OVER TARGET"
