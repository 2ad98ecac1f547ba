"""No import circles in ``src/spit``, not even through a function-local import.

A circle (``a`` imports ``b`` and ``b`` imports ``a``, however deep inside a
function) means neither module can be read, tested or loaded without the
other. Every ``import`` statement counts, at the top or inside a function;
only imports under ``if TYPE_CHECKING:`` (never run) are left out. A package
that imports its submodules (``spit.cli`` → ``spit.cli.net``) makes a circle
with any of them that imports the package back.
"""

from __future__ import annotations

import ast
from pathlib import Path

from test_layers import SOURCES, SRC, _module_name

MODULES = {_module_name(path): path for path in SOURCES}


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                lines.update(range(inner.lineno, (inner.end_lineno or inner.lineno) + 1))
    return lines


def _resolve(name: str) -> str | None:
    """The module of ours a dotted import name means (a name inside a module: that module)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(path: Path) -> set[str]:
    """The modules of ours ``path`` imports anywhere but under TYPE_CHECKING."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_lines(tree)
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            names = [f"{module}.{alias.name}" for alias in node.names] or [module]
        for name in names:
            target = _resolve(name)
            if target is not None and target != me:
                out.add(target)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    graph = {name: imports_of(path) for name, path in MODULES.items()}
    assert cycles(graph) == []


def test_the_check_finds_a_circle_through_a_function_local_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert SRC.name == "spit"
