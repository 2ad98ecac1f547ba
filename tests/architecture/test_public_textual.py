"""The TUI uses Textual's public API only (issue 23).

Nothing in ``src/spit/tui`` imports a private Textual module or touches a
private Textual name: no override, call or read of an underscored name that
Textual itself uses (``_set_dirty``, ``_styles_cache``, ``_render_content`` …).
An own private name that Textual also uses counts too: in a subclass of a
Textual class it would shadow Textual's.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import textual

TUI = Path(__file__).resolve().parents[2] / "src" / "spit" / "tui"
TEXTUAL = Path(textual.__file__).resolve().parent


def textual_private_names() -> set[str]:
    """Every underscored (not dunder) name Textual's own source defines or reads."""
    names: set[str] = set()
    pattern = re.compile(r"(?:\.|def |class |\b)(_[A-Za-z]\w*)")
    for path in TEXTUAL.rglob("*.py"):
        for name in pattern.findall(path.read_text(encoding="utf-8")):
            if not name.startswith("__"):
                names.add(name)
    return names


def used_names(path: Path) -> list[tuple[int, str]]:
    """The underscored attribute and method names a module reads, writes or defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            out.append((node.lineno, node.attr))
        elif isinstance(node, ast.ClassDef):  # methods (a module's own functions shadow nothing)
            for item in node.body:
                method = isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                if method and item.name.startswith("_"):
                    out.append((item.lineno, item.name))
    return sorted((line, name) for line, name in out if not name.startswith("__"))


def private_imports(path: Path) -> list[tuple[int, str]]:
    """Imports of Textual's private modules (``textual._…``, ``textual.x._y``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        for module in modules:
            parts = module.split(".")
            if parts[0] == "textual" and any(part.startswith("_") for part in parts[1:]):
                out.append((node.lineno, module))
    return out


def test_no_private_textual_name_in_the_tui() -> None:
    private = textual_private_names()
    assert "_set_dirty" in private and "_styles_cache" in private  # the scan sees Textual's
    found = [
        f"{path.relative_to(TUI)}:{line}: {name}"
        for path in sorted(TUI.rglob("*.py"))
        for line, name in used_names(path)
        if name in private
    ]
    found += [
        f"{path.relative_to(TUI)}:{line}: import {module}"
        for path in sorted(TUI.rglob("*.py"))
        for line, module in private_imports(path)
    ]
    assert found == []


def test_the_scan_finds_a_private_name(tmp_path: Path) -> None:
    """The check itself: an override of ``_set_dirty`` and a read of the cache are found."""
    module = tmp_path / "bad.py"
    module.write_text(
        "from textual._compositor import Compositor\n"
        "class B:\n"
        "    def _set_dirty(self):\n"
        "        return self._styles_cache\n"
    )
    private = textual_private_names()
    assert [name for _, name in used_names(module) if name in private] == [
        "_set_dirty",
        "_styles_cache",
    ]
    assert private_imports(module) == [(1, "textual._compositor")]
