"""A real PostgreSQL and a real Redis for the tests that need one (never a skip).

``SPIT_TEST_POSTGRES`` / ``SPIT_TEST_REDIS`` name running servers (``.ci/run``
sets them to the project machines' own: PostgreSQL on 127.0.0.1:5432, Redis on
127.0.0.1:6379). Without them, the first test that asks starts its own from
the server programs on this machine, in a private directory on a free port,
stopped and removed when the tests end. With neither, the test fails and says
what to install.

Each test gets a schema (PostgreSQL) or a key prefix (Redis) of its own, so
runs and tests never see each other's data.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

POSTGRES_ENV = "SPIT_TEST_POSTGRES"
REDIS_ENV = "SPIT_TEST_REDIS"

_started: dict[str, str] = {}


class ServiceMissing(AssertionError):
    """No server to test against: the message says what to install or set."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise ServiceMissing(f"a server started for the tests did not open port {port}")


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def _start_postgres() -> str:
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if initdb is None or pg_ctl is None:
        raise ServiceMissing(
            f"these tests need PostgreSQL: set {POSTGRES_ENV}=postgresql://USER@HOST:PORT/DB, "
            "or install the server (Debian: apt-get install postgresql)"
        )
    home = Path(tempfile.mkdtemp(prefix="spit-test-pg-"))
    data = home / "data"
    port = _free_port()
    run_as: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root: use its own user
        run_as = ["runuser", "-u", "postgres", "--"]
        shutil.chown(home, "postgres")
    subprocess.run(
        [*run_as, initdb, "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    subprocess.run(
        [
            *run_as,
            pg_ctl,
            "-D",
            str(data),
            "-w",
            "-l",
            str(home / "log"),
            "-o",
            f"-p {port} -k {home} -c listen_addresses=127.0.0.1",
            "start",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )

    def stop() -> None:
        subprocess.run(
            [*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "stop"],
            capture_output=True,
            timeout=60,
            check=False,
        )
        shutil.rmtree(home, ignore_errors=True)

    atexit.register(stop)
    _wait_port(port)
    return f"postgresql://postgres@127.0.0.1:{port}/postgres"


def _start_redis() -> str:
    server = shutil.which("redis-server") or shutil.which("valkey-server")
    if server is None:
        raise ServiceMissing(
            f"these tests need Redis or Valkey: set {REDIS_ENV}=redis://HOST:PORT/0, or "
            "install the server (Debian: apt-get install redis-server)"
        )
    home = Path(tempfile.mkdtemp(prefix="spit-test-redis-"))
    port = _free_port()
    process = subprocess.Popen(
        [
            server,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(home),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def stop() -> None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(10)
        shutil.rmtree(home, ignore_errors=True)

    atexit.register(stop)
    _wait_port(port)
    return f"redis://127.0.0.1:{port}/0"


def postgres_url() -> str:
    """A PostgreSQL server to test against (started once if none is named)."""
    url = os.environ.get(POSTGRES_ENV)
    if url:
        return url
    if "postgres" not in _started:
        _started["postgres"] = _start_postgres()
    return _started["postgres"]


def redis_url() -> str:
    """A Redis (or Valkey) server to test against (started once if none is named)."""
    url = os.environ.get(REDIS_ENV)
    if url:
        return url
    if "redis" not in _started:
        _started["redis"] = _start_redis()
    return _started["redis"]


def fresh_schema() -> str:
    """A schema name no other test or run uses."""
    return f"spit_test_{os.getpid()}_{uuid.uuid4().hex[:10]}"


def fresh_prefix() -> str:
    """A Redis key prefix no other test or run uses."""
    return f"spit-test:{os.getpid()}:{uuid.uuid4().hex[:10]}:"


async def drop_schema(store: Any) -> None:
    """Remove a test's schema and everything in it."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(store.url, autocommit=True) as conn:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{store.schema}" CASCADE')
