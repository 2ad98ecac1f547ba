"""No ``type: ignore`` in src: mypy (strict) checks every line.

Duck-typed values get a ``typing.Protocol`` (``spit.play.views``); a library
without type hints is named once in pyproject.toml's mypy overrides.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

#: the most silenced lines src may have (was 6: five in spit/net, one in tui/charts.py)
MAX_IGNORES = 0

_SILENCER = re.compile(r"\b(type|mypy|pyright)\s*:\s*ignore", re.IGNORECASE)


def silenced_lines(source: str) -> list[int]:
    """Line numbers of comments that silence the type checker (not strings that mention it)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return [t.start[0] for t in tokens if t.type == tokenize.COMMENT and _SILENCER.search(t.string)]


def test_the_counter_sees_comments_and_not_strings() -> None:
    source = 'x = 1  # type: ignore[assignment]\ny = "# type: ignore"\nz = 2  # mypy: ignore\n'
    assert silenced_lines(source) == [1, 3]


def test_src_silences_the_type_checker_nowhere() -> None:
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        for line in silenced_lines(path.read_text(encoding="utf-8"))
    ]
    assert len(found) <= MAX_IGNORES, found
