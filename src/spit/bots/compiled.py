"""Which bot modules run compiled, and never stale compiled code.

The build (``hatch_build.py``) compiles ``COMPILED`` with mypyc and writes a
manifest, ``spit/bots/_compiled.json``: the compiled modules and the sha256 of
every source file the compiled code was built from (all of ``SOURCES``: mypyc
may bake in ``Final`` constants of the modules it imports). Python prefers an
extension module to the ``.py`` beside it, so after an edit the old build
would silently win; ``Guard``, put on ``sys.meta_path`` by ``spit.bots``,
lets the compiled modules load only when the manifest matches the sources as
they are now and the built files as the build wrote them, and otherwise
loads the ``.py`` files. ``SPIT_PURE_PYTHON=1``
forces the ``.py`` files. Nothing is hashed until a compiled module is first
imported, so start-up pays nothing.

Standard library only: the build hook loads this file by its path.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

#: the modules the build compiles (all or none of them run compiled)
COMPILED = ("spit.bots.spit_strategy",)
#: the source files the compiled code depends on, relative to the ``src`` directory
SOURCES = ("spit/engine/*.py", "spit/realtime/*.py", "spit/bots/*.py")
#: the manifest, relative to the ``src`` directory
MANIFEST = "spit/bots/_compiled.json"
#: set to 1 (at build time or at run time) for the pure-Python modules
PURE_ENV = "SPIT_PURE_PYTHON"

#: why the ``.py`` files run: not asked for, or not built, or a build older than the sources
FORCED, NOT_BUILT, STALE, COMPILED_OK = "forced", "not built", "stale", "compiled"


def source_hashes(root: Path, patterns: Sequence[str] = SOURCES) -> dict[str, str]:
    """The sha256 of each file matching ``patterns`` under ``root``, by its posix path."""
    import hashlib

    hashes: dict[str, str] = {}
    for pattern in patterns:
        for path in sorted(root.glob(pattern)):
            name = path.relative_to(root).as_posix()
            hashes[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return hashes


def _built_hashes_match(root: Path, built: object) -> bool:
    """Whether every built file the manifest names is there, as the build wrote it."""
    import hashlib

    if not isinstance(built, dict) or not built:
        return False
    for name, digest in built.items():
        try:
            data = (root / str(name)).read_bytes()
        except OSError:
            return False
        if hashlib.sha256(data).hexdigest() != digest:
            return False
    return True


def manifest_text(
    root: Path,
    modules: Sequence[str] = COMPILED,
    patterns: Sequence[str] = SOURCES,
    built: Sequence[str] = (),
) -> str:
    """The manifest of a build of ``modules`` from the sources under ``root`` now;
    ``built``: the files the build made (paths under ``root``), hashed too, so
    that a damaged or replaced extension module is never loaded."""
    import hashlib
    import json

    data = {
        "modules": list(modules),
        "sources": source_hashes(root, patterns),
        "built": {name: hashlib.sha256((root / name).read_bytes()).hexdigest() for name in built},
    }
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def pure_forced() -> bool:
    """Whether ``SPIT_PURE_PYTHON`` asks for the pure-Python modules."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


@dataclass
class Guard:
    """A meta-path finder: the ``.py`` file of each of ``modules`` unless the build is current.

    ``root`` is the directory that holds the top package (``src``); the
    verdict is taken once, when the first of ``modules`` is imported.
    """

    root: Path
    modules: tuple[str, ...] = COMPILED
    patterns: tuple[str, ...] = SOURCES
    manifest: str = MANIFEST
    _verdict: str | None = field(default=None, init=False)

    def verdict(self) -> str:
        """``COMPILED_OK``, or why the pure modules run: ``FORCED``, ``NOT_BUILT``, ``STALE``."""
        if self._verdict is None:
            self._verdict = self._judge()
        return self._verdict

    def _judge(self) -> str:
        if pure_forced():
            return FORCED
        import json

        try:
            data = json.loads((self.root / self.manifest).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return NOT_BUILT
        if not isinstance(data, dict) or data.get("modules") != list(self.modules):
            return STALE
        if data.get("sources") != source_hashes(self.root, self.patterns):
            return STALE
        if not _built_hashes_match(self.root, data.get("built")):
            return STALE  # an extension module missing, damaged or not this build's
        return COMPILED_OK

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
        /,
    ) -> ModuleSpec | None:
        """The ``.py`` file's spec for a guarded module that must run pure, else ``None``."""
        if fullname not in self.modules or self.verdict() == COMPILED_OK:
            return None  # the ordinary finders: an extension module wins there
        import importlib.util

        source = self.root.joinpath(*fullname.split(".")).with_suffix(".py")
        return importlib.util.spec_from_file_location(fullname, source)


def install(root: Path | None = None) -> Guard:
    """Put the guard of ``COMPILED`` first on ``sys.meta_path`` (once) and return it."""
    for finder in sys.meta_path:
        if isinstance(finder, Guard) and finder.modules == COMPILED:
            return finder
    guard = Guard(root if root is not None else Path(__file__).resolve().parents[2])
    sys.meta_path.insert(0, guard)
    return guard


def state() -> str:
    """The guard's verdict: ``"compiled"``, ``"forced"``, ``"not built"`` or ``"stale"``."""
    return install().verdict()


def running_compiled() -> bool:
    """Whether the modules of ``COMPILED`` (imported here if need be) are extension modules."""
    import importlib
    from importlib.machinery import EXTENSION_SUFFIXES

    suffixes = tuple(EXTENSION_SUFFIXES)
    return all(str(importlib.import_module(name).__file__).endswith(suffixes) for name in COMPILED)


def stale_warning(guard: Guard | None = None) -> str | None:
    """One line for a command's stderr when a compiled build exists but is out of date."""
    if (guard or install()).verdict() != STALE:
        return None
    return (
        "spit: the compiled simulator is older than its sources, so the pure-Python "
        "one runs (slower) until `pip install -e .` is run again"
    )
