"""PostgreSQL for tests, from Python: a throwaway cluster and fresh databases on it.

    with pg_server(tmp_path / "pg") as server:    # tests/pg_cluster.sh start ... stop
        url = await fresh_database(server)        # an empty database of its own
        ...                                       # Store.open(url), in any process
        await drop_database(server, url)

``server_url()`` is ``$TEST_DATABASE_URL`` when set (``.ci/run`` starts one cluster for
the whole run), else None; ``pg_server`` starts a cluster of its own (installing
PostgreSQL from Debian's packages if none is found: root and apt needed).
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncpg

SCRIPT = Path(__file__).resolve().parents[1] / "pg_cluster.sh"


def server_url() -> str | None:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or None


@contextmanager
def pg_server(directory: Path) -> Iterator[str]:
    """A cluster in ``directory`` (created; deleted afterwards); yields its URL."""
    out = subprocess.run(
        [str(SCRIPT), "start", str(directory)], check=True, capture_output=True, text=True
    )
    try:
        yield out.stdout.strip().splitlines()[-1]
    finally:
        subprocess.run([str(SCRIPT), "stop", str(directory)], check=False, capture_output=True)


def with_database(url: str, name: str) -> str:
    """``url`` with its database name replaced by ``name``."""
    base, _, query = url.partition("?")
    scheme, _, rest = base.partition("://")
    host = rest.split("/", 1)[0]
    return f"{scheme}://{host}/{name}" + (f"?{query}" if query else "")


async def fresh_database(server: str) -> str:
    """Create an empty database on the server; its URL."""
    name = f"batak_test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return with_database(server, name)


async def drop_database(server: str, url: str) -> None:
    """Drop the database of ``url`` (made by ``fresh_database``), connections and all."""
    name = url.partition("?")[0].rsplit("/", 1)[1]
    admin = await asyncpg.connect(server)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
