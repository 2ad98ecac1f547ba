"""Outside the engine no code compares a mode's name: it asks the registry (issue 22)."""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "spit"
#: the comparison issue 22 names: ``mode == "speed"``, ``self.mode != 'spit'``
COMPARISON = re.compile(r"mode ?(==|!=) ?['\"]")


def test_no_layer_above_the_engine_compares_mode_names() -> None:
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).parts[0] != "engine"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if COMPARISON.search(line)
    ]
    assert not found, "ask the mode registry instead: " + "; ".join(found)
