"""Starting the app in a test: the one place a test starts one (Textual's Pilot).

``async with running(app) as pilot:`` runs ``app`` headless at 80x24 (the
smallest board; ``size=`` for another) and gives the Pilot that drives it;
``until`` lets it run until something holds; the ``launched`` fixture (in
tests/tui/conftest.py and tests/cli/conftest.py) records the apps the
command line would run instead of running them.
``tests/architecture/test_plumbing.py`` fails on a ``run_test`` elsewhere.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot

from spit.tui.app import SpitApp

#: the terminal the app tests run in: the smallest board
SIZE = (80, 24)


def running(app: App[Any], size: tuple[int, int] = SIZE) -> AbstractAsyncContextManager[Pilot[Any]]:
    """``app`` run headless in a ``size`` terminal; entering gives its Pilot."""
    return app.run_test(size=size)


async def until(pilot: Pilot[Any], test: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the app run until ``test()`` holds (fails after ``timeout`` seconds)."""

    async def wait() -> None:
        while not test():
            await pilot.pause(0.02)

    await asyncio.wait_for(wait(), timeout)


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[SpitApp]:
    """The apps the command line would run: recorded instead of run."""
    apps: list[SpitApp] = []
    monkeypatch.setattr(SpitApp, "run", lambda self, **kw: apps.append(self))
    return apps
