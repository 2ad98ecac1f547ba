"""The dependency rule of docs/architecture.md, read from the source's imports.

Layers, lowest first: engine <- realtime <- (bots, play) <- store <- net <- (tui, server) <- cli.
A module may import its own layer and the layers below it, never above; bots
and play are siblings that do not import each other. Nothing below ``tui``
imports textual or rich, so the rules, the real-time layer, the bots, the play
controller and the files on disk run without a terminal library.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "spit"

#: Each layer's rank; a module may import a layer of lower or equal rank.
RANK = {
    "engine": 0,
    "realtime": 1,
    "bots": 2,
    "play": 2,
    "store": 3,
    "net": 4,
    "tui": 5,
    "server": 5,
    "cli": 6,
}
#: Layers of equal rank that must stay apart.
SIBLINGS = {("bots", "play"), ("play", "bots"), ("server", "tui"), ("tui", "server")}
UI_LIBRARIES = {"textual", "rich"}


def _layer(module: str) -> str:
    """The layer a dotted module name under ``spit`` belongs to."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] in {"__main__", "__init__"}:
        return "cli"  # the package root and ``python -m spit`` start the command line
    return parts[1]


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every absolute module a file imports (relative imports resolved), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _module_name(path) if path.is_relative_to(SRC) else ""
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            if name == "spit":  # ``from spit import cli`` names a layer
                found.extend((node.lineno, f"spit.{alias.name}") for alias in node.names)
    return found


SOURCES = sorted(SRC.rglob("*.py"))


def test_every_top_level_package_is_a_known_layer() -> None:
    layers = {_layer(_module_name(p)) for p in SOURCES}
    assert layers <= set(RANK), f"modules outside the layers: {layers - set(RANK)}"


def _problems(own: str, imports: list[tuple[int, str]]) -> list[str]:
    """What breaks the rule among ``imports`` of a module in layer ``own``."""
    problems = []
    for line, name in imports:
        top = name.split(".")[0]
        if top in UI_LIBRARIES and RANK[own] < RANK["tui"]:
            problems.append(f"line {line}: {own} imports {name} (no terminal library below tui)")
        if top != "spit" or name == "spit":
            continue
        other = _layer(name)
        if other not in RANK:
            continue
        if RANK[other] > RANK[own] or (own, other) in SIBLINGS:
            problems.append(f"line {line}: {own} imports {name} ({other} is not below {own})")
    return problems


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(SRC)))
def test_imports_follow_the_dependency_rule(path: Path) -> None:
    problems = _problems(_layer(_module_name(path)), _imports(path))
    assert not problems, "\n".join(problems)


def test_the_rule_reports_upward_sibling_and_ui_imports(tmp_path: Path) -> None:
    """The checker itself, on a module written to break each part of the rule."""
    fake = tmp_path / "bad.py"
    fake.write_text(
        "import textual\nfrom spit.tui.app import SpitApp\nfrom spit.bots import make_bot\n"
        "from spit.engine import Game\n",
        encoding="utf-8",
    )
    found = [name for _, name in _imports(fake)]
    assert found == ["textual", "spit.tui.app", "spit.bots", "spit.engine"]
    problems = _problems("play", _imports(fake))
    assert [p.split(":")[0] for p in problems] == ["line 1", "line 2", "line 3"]
    assert _problems("cli", _imports(fake)) == []
