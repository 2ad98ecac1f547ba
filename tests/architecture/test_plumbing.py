"""The tests' shared helpers live once, in tests/support, and no test patches sys.path."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python_files() -> list[Path]:
    return [p for d in ("src", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py")]


def test_one_manual_clock_and_one_fake_clock() -> None:
    clocks = [
        p.relative_to(ROOT).as_posix()
        for p in _python_files()
        if re.search(r"^class (FakeClock|ManualClock)\b", p.read_text(), re.M)
    ]
    assert sorted(clocks) == ["src/spit/realtime/clock.py", "tests/support/clock.py"]


def _patches_sys_path(path: Path) -> bool:
    """True if the module itself calls sys.path.insert/append (not code in a string)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if (
                node.func.attr in ("insert", "append")
                and isinstance(target, ast.Attribute)
                and target.attr == "path"
                and isinstance(target.value, ast.Name)
                and target.value.id == "sys"
            ):
                return True
    return False


def test_no_test_module_or_conftest_patches_sys_path() -> None:
    patched = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").rglob("*.py")
        if _patches_sys_path(p)
    ]
    assert patched == []


def _records_apps(node: ast.Call) -> bool:
    """``setattr(SpitApp, "run", lambda self, **kw: apps.append(self))``: the apps a
    command would run, recorded (``launched``)."""
    if len(node.args) != 3 or not isinstance(node.args[2], ast.Lambda):
        return False
    owner, name, body = node.args[0], node.args[1], node.args[2].body
    return (
        isinstance(owner, ast.Name)
        and owner.id == "SpitApp"
        and isinstance(name, ast.Constant)
        and name.value == "run"
        and isinstance(body, ast.Call)
        and isinstance(body.func, ast.Attribute)
        and body.func.attr == "append"
        and [ast.dump(arg) for arg in body.args] == [ast.dump(ast.Name("self", ast.Load()))]
    )


def _starts_an_app(path: Path) -> bool:
    """True if the module calls ``run_test`` or records the apps a command would run
    (in code, not in a string: tests/architecture/test_lazy_imports.py's script runs
    in a process of its own, which must not load the tests' helpers)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "run_test":
                return True
            if node.func.attr == "setattr" and _records_apps(node):
                return True
    return False


def test_one_place_starts_an_app_for_the_tests() -> None:
    """Pilot's start-up (``running``, ``until`` a Pilot's app shows something, the
    ``launched`` fixture) is written once."""
    starters = sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("*.py") if _starts_an_app(p)
    )
    assert starters == ["tests/support/pilot.py"]
    waits = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "tests").rglob("*.py")
        if re.search(r"^async def until\(pilot\b", p.read_text(), re.M)
    )
    assert waits == ["tests/support/pilot.py"]
