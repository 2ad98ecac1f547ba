"""SIGTERM and SIGHUP on a real ``spit play`` in a pseudo-terminal: saved, and the terminal sane.

The app runs as a child process on a pty of 80x24 (as in a terminal window);
the test presses keys, sends the signal, and reads everything the app wrote.
Every wait is bounded.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from spit.engine import Action, call
from spit.store.resume import list_saved_games

SRC = Path(__file__).resolve().parents[2] / "src"
LEAVE_ALT_SCREEN = b"\x1b[?1049l"
SHOW_CURSOR = b"\x1b[?25h"
MOUSE_OFF = b"\x1b[?1000l"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")


def read_until(fd: int, wanted: bytes, seen: bytearray, timeout: float) -> bool:
    """Read from ``fd`` into ``seen`` until ``wanted`` is in it (True) or time is up."""
    end = time.monotonic() + timeout
    while wanted not in seen:
        left = end - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            return wanted in seen
        if not chunk:
            return wanted in seen
        seen += chunk
    return True


def drain(fd: int, seen: bytearray, proc: subprocess.Popen[bytes], timeout: float) -> None:
    """Read what is left until the child has exited and the pty is empty."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if chunk:
                seen += chunk
                continue
        if proc.poll() is not None:
            return


def first_play_of_seed(seed: int) -> tuple[Action, str]:
    """The first card play after the opening of ``spit play --seed SEED``, and its key."""
    from spit.engine import Kind, SpitConfig, SpitGame
    from spit.play.keys import KeyMap, Row

    game = SpitGame(SpitConfig(), seed=seed)
    game.apply(call(0))
    game.apply(call(1))
    action = next(a for a in game.legal_actions(0) + game.legal_actions(1) if a.kind is Kind.PLAY)
    row = Row.LEFT if action.target == 0 else Row.RIGHT
    return action, KeyMap.default().key(action.player, row, action.source)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_saves_the_game_and_restores_the_terminal(
    signum: int, isolated_dirs: Path
) -> None:
    first_play, first_card = first_play_of_seed(5)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, PYTHONPATH=str(SRC), TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spit", "play", "--seed", "5"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    seen = bytearray()
    try:
        assert read_until(master, b"call SPIT!", seen, 30), seen[-400:]
        os.write(master, b"1")
        assert read_until(master, b"called", seen, 10), "player 1's call never showed"
        os.write(master, b"0")
        assert read_until(master, b"New cards", seen, 10), "the opening spit never showed"
        os.write(master, first_card.encode())  # a game with a card played is kept
        assert read_until(master, b" played ", seen, 10), "the card never showed"
        mark = len(seen)
        os.kill(proc.pid, signum)
        drain(master, seen, proc, 15)
        assert proc.wait(timeout=5) == 128 + signum
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    after = bytes(seen[mark:])
    # the terminal is handed back: main screen, cursor shown, mouse reporting off
    assert LEAVE_ALT_SCREEN in after and SHOW_CURSOR in after and MOUSE_OFF in after
    # ... and the save is there, resumable, holding player 1's call
    (saved,) = list_saved_games()
    assert saved.ok and saved.replay.final.seed == 5
    assert saved.replay.final.actions == [call(0), call(1), first_play]
    if signum != signal.SIGHUP:  # (after a hang-up nobody can read the terminal)
        assert b"saved" in after and b"spit resume" in after


def stopped(pid: int, timeout: float) -> bool:
    """Wait until process ``pid`` is stopped (a SIGCONT sent sooner would be lost)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:  # no /proc here: give the stop a moment
            time.sleep(0.5)
            return True
        if stat.rsplit(")", 1)[1].split()[0] == "T":
            return True
        time.sleep(0.01)
    return False


def test_a_suspended_game_comes_back_paused(isolated_dirs: Path) -> None:
    """SIGTSTP (a shell's ctrl+z, ``kill -TSTP``): the game clock must not run while
    the process is stopped (timers fired and the computer played the moment it went
    on), so the game is paused first and comes back on the pause box."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(os.environ, PYTHONPATH=str(SRC), TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("NO_COLOR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "spit", "play", "--seed", "5"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    seen = bytearray()
    try:
        assert read_until(master, b"call SPIT!", seen, 30), seen[-400:]
        os.write(master, b"10")
        assert read_until(master, b"Play!", seen, 10), "the opening spit never showed"
        mark = len(seen)
        os.kill(proc.pid, signal.SIGTSTP)
        assert read_until(master, LEAVE_ALT_SCREEN, seen, 10), "the terminal was not handed back"
        assert stopped(proc.pid, 10), "the process never stopped"
        os.kill(proc.pid, signal.SIGCONT)
        assert read_until(master, b"play on", seen, 10), bytes(seen[mark:])[-600:]
        os.write(master, b"\x11")  # ctrl+q
        drain(master, seen, proc, 15)
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
