"""The example in the engine's docstring runs and shows what it says."""

from __future__ import annotations

import doctest

import spit.engine


def test_the_engine_docstring_example_runs() -> None:
    result = doctest.testmod(spit.engine, verbose=False, report=False)
    assert result.attempted >= 4
    assert result.failed == 0
