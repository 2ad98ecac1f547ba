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
