"""A session is built from its parts, and screens change it only through its methods."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support import FakeClock

from spit.bots.sim import new_game
from spit.net.view import HostLink, RemoteSession, ShadowGame
from spit.play.session import Session
from spit.realtime.arbiter import Arbiter

SRC = Path(__file__).resolve().parents[2] / "src" / "spit"
#: the names a screen holds a session by
SESSION_NAMES = {"session", "remote"}


def _written_object(target: ast.expr) -> list[str]:
    """The names along the object an attribute assignment writes into (``a.b.c = …``: a, b)."""
    names: list[str] = []
    node = target.value if isinstance(target, ast.Attribute) else None
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    return names


def test_no_screen_writes_a_field_of_a_session() -> None:
    found = []
    for path in sorted((SRC / "tui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and SESSION_NAMES & set(
                    _written_object(target)
                ):
                    found.append(f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(target)}")
    assert not found, "screens write a session's fields: " + ", ".join(found)


def test_every_session_subclass_calls_the_session_constructor() -> None:
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            if not any(isinstance(b, ast.Name) and b.id.endswith("Session") for b in node.bases):
                continue
            for init in node.body:
                if not isinstance(init, ast.FunctionDef) or init.name != "__init__":
                    continue
                calls = [ast.unparse(n.func) for n in ast.walk(init) if isinstance(n, ast.Call)]
                assert "super().__init__" in calls, f"{node.name} skips Session.__init__"


def test_a_local_session_and_a_guest_are_one_session_built_from_different_parts() -> None:
    clock = FakeClock()
    game = new_game("speed", (), 3)
    local = Session.local(game, clock=clock)
    assert local.game is game and isinstance(local.arbiter, Arbiter)
    guest = RemoteSession(None, clock=clock)
    assert isinstance(guest.game, ShadowGame) and isinstance(guest.arbiter, HostLink)
    assert type(guest).__mro__[1] is Session
