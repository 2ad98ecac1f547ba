"""Which bot modules an opt-in compiled build compiles, and whether they run compiled.

The install is pure Python. ``SPIT_MYPYC=1 pip install .`` builds a wheel with
``COMPILED`` compiled by mypyc (``hatch_build.py``; docs/bots.md, "Speed of
the simulator"): a snapshot of the sources, which an edit to the source tree
never makes stale. An editable install is never compiled.

Standard library only: the build hook loads this file by its path.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: the modules a compiled build compiles (all or none of them run compiled)
COMPILED = ("spit.bots.spit_strategy",)
#: set to 1 at build time to compile ``COMPILED`` (and when testing, to check that build)
OPT_IN_ENV = "SPIT_MYPYC"


def opted_in(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether ``SPIT_MYPYC`` asks for the compiled build."""
    return environ.get(OPT_IN_ENV, "") not in ("", "0")


def running_compiled() -> bool:
    """Whether the modules of ``COMPILED`` (imported here if need be) are extension modules."""
    import importlib
    from importlib.machinery import EXTENSION_SUFFIXES

    suffixes = tuple(EXTENSION_SUFFIXES)
    return all(str(importlib.import_module(name).__file__).endswith(suffixes) for name in COMPILED)


def describe() -> str:
    """``"compiled"`` or ``"pure Python"``: which modules run (for benchmarks and --verbose)."""
    return "compiled" if running_compiled() else "pure Python"
