"""spit server and spit online as commands: start, --status, --json, --replays, SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

LIMIT = 30.0
SRC = Path(__file__).resolve().parents[2] / "src"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["SPIT_DATA_DIR"] = str(home / "data")
    env["SPIT_CONFIG"] = str(home / "config.toml")
    env["HOME"] = str(home)  # no ~/.ssh keys of the machine's user
    env["PYTHONPATH"] = str(SRC)  # the spit of this tree, whatever is installed
    return env


def _spit(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "spit", *args],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env=_env(home),
        stdin=subprocess.DEVNULL,
    )


Server = tuple[int, Path, "subprocess.Popen[str]"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    port = _free_port()
    data = tmp_path / "server"
    process = subprocess.Popen(
        [sys.executable, "-m", "spit", "server", "--port", str(port), "--data-dir", str(data)],
        stderr=subprocess.PIPE,
        text=True,
        env=_env(tmp_path / "operator"),
    )
    deadline = time.monotonic() + LIMIT
    while not (data / "status.json").exists():
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline
        time.sleep(0.1)
    yield port, data, process
    if process.poll() is None:
        process.kill()
        process.wait(LIMIT)


def test_a_player_signs_up_and_reads_their_account_as_json(server: Server, tmp_path: Path) -> None:
    port, _data, _process = server
    home = tmp_path / "ann"
    done = _spit("online", f"127.0.0.1:{port}", "--name", "Ann", "--json", home=home)
    assert done.returncode == 0, done.stderr
    account = json.loads(done.stdout)
    assert account["name"] == "Ann" and account["guest"] is False
    assert account["ratings"] == {"spit": "1500?", "speed": "1500?"}
    assert account["games"] == []
    key = home / "data" / "online_key"
    assert key.stat().st_mode & 0o777 == 0o600  # spit made the player a key, private
    known = json.loads((home / "data" / "known_servers.json").read_text())
    assert f"127.0.0.1:{port}" in known
    listed = _spit("online", f"127.0.0.1:{port}", "--replays", home=home)
    assert listed.returncode == 0 and "No games kept" in listed.stdout
    missing = _spit("online", f"127.0.0.1:{port}", "--replays", "--fetch", "7", home=home)
    assert missing.returncode == 2 and "no game of yours" in missing.stderr
    key.write_text("not a key\n")  # corrupt: said, with what to do, and nothing made anew
    broken = _spit("online", f"127.0.0.1:{port}", "--json", home=home)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert "cannot read the key" in broken.stderr and "your account" in broken.stderr
    assert key.read_text() == "not a key\n"


def test_a_damaged_file_of_known_server_keys_is_said_and_not_trusted_over(
    server: Server, tmp_path: Path
) -> None:
    """Its keys are unknown then: accepting whatever key the server shows (and writing
    over the file) would defeat every pin in it."""
    port, _data, _process = server
    home = tmp_path / "ann"
    first = _spit("online", f"127.0.0.1:{port}", "--name", "Ann", "--json", home=home)
    assert first.returncode == 0, first.stderr
    known = home / "data" / "known_servers.json"
    known.write_text('{"127.0.0.1:1": "SHA256:kept", ')  # cut short
    damaged = known.read_text()
    done = _spit("online", f"127.0.0.1:{port}", "--json", home=home)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "known server keys" in done.stderr and "is damaged" in done.stderr, done.stderr
    forget = _spit("online", f"127.0.0.1:{port}", "--forget-key", home=home)
    assert forget.returncode == 2 and "is damaged" in forget.stderr
    assert known.read_text() == damaged
    known.unlink()  # as the message says: trusted again on first use
    again = _spit("online", f"127.0.0.1:{port}", "--json", home=home)
    assert again.returncode == 0, again.stderr


def test_status_then_sigterm_stops_cleanly(server: Server, tmp_path: Path) -> None:
    port, data, process = server
    status = _spit("server", "--status", "--data-dir", str(data), home=tmp_path / "op")
    assert status.returncode == 0
    assert f"127.0.0.1:{port}" in status.stdout and "running" in status.stdout
    process.send_signal(signal.SIGTERM)
    assert process.wait(LIMIT) == 0
    err = process.stderr.read() if process.stderr else ""
    assert "stopped; 0 running match(es) saved" in err
    assert "Traceback" not in err
    after = _spit("server", "--status", "--data-dir", str(data), home=tmp_path / "op")
    assert "stopped" in after.stdout


def test_status_without_a_server_says_so(tmp_path: Path) -> None:
    done = _spit("server", "--status", "--data-dir", str(tmp_path / "none"), home=tmp_path)
    assert done.returncode == 2 and "no server status" in done.stderr


def test_online_with_nobody_listening_says_so(tmp_path: Path) -> None:
    done = _spit("online", f"127.0.0.1:{_free_port()}", "--json", home=tmp_path)
    assert done.returncode == 2 and "cannot connect" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_server_variant_is_checked_by_its_mode(tmp_path: Path) -> None:
    done = _spit("server", "--variant", "spit:V9", "--data-dir", str(tmp_path), home=tmp_path)
    assert done.returncode == 2 and "unknown variant 'V9'; Spit takes four-stocks" in done.stderr
    done = _spit("server", "--variant", "V3", "--data-dir", str(tmp_path), home=tmp_path)
    assert done.returncode == 2 and "MODE:VARIANT" in done.stderr


def test_drain_and_undrain_reach_the_running_server(server: Server, tmp_path: Path) -> None:
    _port, data, _process = server
    done = _spit("server", "--drain", "--data-dir", str(data), home=tmp_path / "op")
    assert done.returncode == 0 and "no new matches" in done.stdout
    deadline = time.monotonic() + LIMIT
    while True:
        status = _spit("server", "--status", "--data-dir", str(data), home=tmp_path / "op")
        if "draining" in status.stdout:
            break
        assert time.monotonic() < deadline, status.stdout
        time.sleep(0.5)
    done = _spit("server", "--undrain", "--data-dir", str(data), home=tmp_path / "op")
    assert done.returncode == 0 and not (data / "drain").exists()


def test_ping_every_is_checked(tmp_path: Path) -> None:
    done = _spit("server", "--ping-every", "0.01", "--data-dir", str(tmp_path), home=tmp_path)
    assert done.returncode == 2 and "--ping-every takes 0.1 to 5 seconds" in done.stderr
    assert not (tmp_path / "status.json").exists()  # refused before starting


@pytest.mark.parametrize("kind", ["garbage", "another program's"])
def test_a_damaged_or_foreign_database_is_refused_in_words_and_kept(
    tmp_path: Path, kind: str
) -> None:
    import sqlite3

    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    db = data / "server.db"
    if kind == "garbage":
        db.write_bytes(b"not a database at all" * 200)
    else:
        with sqlite3.connect(db) as other:
            other.execute("CREATE TABLE accounts (something TEXT)")
    before = db.read_bytes()
    done = _spit(
        "server",
        "--bind",
        "127.0.0.1",
        "--port",
        str(_free_port()),
        "--data-dir",
        str(data),
        home=tmp_path,
    )
    assert done.returncode == 2, done.stderr
    assert "cannot be used" in done.stderr and "move it away" in done.stderr
    assert "Traceback" not in done.stderr
    assert db.read_bytes() == before  # nothing written over it


@pytest.mark.parametrize("text", ["{{{", "[1]", '{"updated": "x"}', '{"nodes": 5}'])
def test_a_damaged_status_file_is_named_not_taken_for_a_missing_one(
    tmp_path: Path, text: str
) -> None:
    (tmp_path / "status.json").write_text(text)
    done = _spit("server", "--status", "--data-dir", str(tmp_path), home=tmp_path)
    assert done.returncode == 2 and "not a server status file" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
