"""Build hook: on request, compile the simulator's hot modules with mypyc.

Opt-in, as Black does it: ``SPIT_MYPYC=1 pip install .`` (or ``pip wheel .``)
builds a platform wheel with the modules named by
``spit.bots.compiled.COMPILED`` compiled to C extension modules. Without
``SPIT_MYPYC=1`` this hook does nothing and asks for nothing: the build needs
hatchling alone, no C compiler, and makes a pure-Python ``py3-none-any`` wheel.

hatchling runs ``MypycHook`` for the wheel target
(``[tool.hatch.build.targets.wheel.hooks.custom]``); ``dependencies`` adds
mypy (which brings mypyc) and setuptools (with which mypyc builds its C) to
the build's requirements only when compiling was asked for. The modules are
compiled in a temporary directory from a copy of ``src/spit``, never in the
source tree, and go into the wheel beside their ``.py`` files. An editable
install is never compiled (it runs the sources as they are edited, so a build
could only go stale): asked for one, the build stops and says so. So does a
build whose compiling fails: it was asked for, so a pure wheel would be a
silent surprise.
"""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tempfile
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the module that names what is compiled and the variable that asks for it
LIST = "src/spit/bots/compiled.py"
#: what compiling needs (mypy's major as in the test extra)
REQUIRES = ["mypy>=1.11,<2", "setuptools>=61"]
#: how long compiling may take before it counts as failed (seconds)
TIMEOUT = 900


class CompileError(Exception):
    """mypyc could not build the extension modules."""


def _load_list(root: Path) -> ModuleType:
    """``spit.bots.compiled``, loaded by its path (the package is not importable here)."""
    spec = importlib.util.spec_from_file_location("_spit_build_list", root / LIST)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {LIST}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _is_extension(path: Path) -> bool:
    return path.name.endswith(tuple(EXTENSION_SUFFIXES))


def _compile(src: Path, work: Path, modules: list[str]) -> list[str]:
    """Compile ``modules`` from a copy of ``src/spit`` in ``work``; the built files' paths."""
    skip = ("__pycache__", *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES))
    shutil.copytree(src / "spit", work / "spit", ignore=shutil.ignore_patterns(*skip))
    files = [name.replace(".", "/") + ".py" for name in modules]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", *files],
            cwd=work,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise CompileError(str(error)) from error
    if done.returncode != 0:
        lines = (done.stdout + done.stderr).strip().splitlines()
        raise CompileError("mypyc failed:\n" + "\n".join(lines[-20:]))
    built = [
        path.relative_to(work).as_posix()
        for path in sorted(work.rglob("*"))
        if _is_extension(path) and path.relative_to(work).parts[0] != "build"
    ]
    expected = {name.rsplit(".", 1)[-1] for name in modules}
    found = {Path(name).name.split(".", 1)[0] for name in built}
    if not expected <= found:
        raise CompileError(f"mypyc built {built}, not every one of {modules}")
    return built


class MypycHook(BuildHookInterface[Any]):
    """Compile ``spit.bots.compiled.COMPILED`` into the wheel when ``SPIT_MYPYC=1`` asks."""

    PLUGIN_NAME = "custom"

    def _asked(self) -> ModuleType | None:
        """The list module when compiling was asked for, else None."""
        listing = _load_list(Path(self.root))
        return listing if listing.opted_in() else None

    def dependencies(self) -> list[str]:
        """What the build needs besides hatchling: mypy and setuptools, only when asked."""
        return list(REQUIRES) if self._asked() is not None else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile into the wheel if asked (and stop on an editable build or a failure)."""
        listing = self._asked()
        if self.target_name != "wheel" or listing is None:
            return
        if version == "editable":
            raise CompileError(
                f"{listing.OPT_IN_ENV}=1 compiles a standard wheel (`pip install .`); an "
                "editable install runs the sources as they are edited: unset it for `pip "
                "install -e .`"
            )
        self._work = Path(tempfile.mkdtemp(prefix="spit-mypyc-"))
        started = time.monotonic()
        built = _compile(Path(self.root) / "src", self._work, list(listing.COMPILED))
        for name in built:
            build_data["force_include"][str(self._work / name)] = name
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        seconds = time.monotonic() - started
        print(f"spit build: compiled {', '.join(built)} in {seconds:.0f} s", file=sys.stderr)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the temporary directory of the compiled modules."""
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
