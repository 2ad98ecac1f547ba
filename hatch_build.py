"""Build hook: compile the simulator's hot modules with mypyc.

docs/bots.md, "Speed of the simulator", says why. hatchling runs ``MypycHook``
for the wheel target (``[tool.hatch.build.targets.wheel.hooks.custom]``).
The modules named by ``spit.bots.compiled.COMPILED`` are compiled in a temporary
directory from a copy of ``src/spit``, never in the source tree:

- a standard wheel (``pip install .``) gets the extension modules and the
  manifest (``spit/bots/_compiled.json``) through ``force_include``;
- an editable install (``pip install -e .``) gets them copied next to the
  sources in ``src/`` (the directory its ``.pth`` puts on ``sys.path``), the
  manifest last.

The manifest holds the sha256 of every source the compiled code was built
from, so ``spit.bots.compiled.Guard`` can refuse a build older than the
sources. If compiling fails (no C compiler, a mypyc error) or
``SPIT_PURE_PYTHON=1`` is set, one warning is printed and the package is
built pure Python: an install never fails because of this.
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

#: the guard module: its list of compiled modules, sources and manifest name are the build's
GUARD = "src/spit/bots/compiled.py"
#: how long compiling may take before it counts as failed (seconds)
TIMEOUT = 900


class CompileError(Exception):
    """mypyc could not build the extension modules."""


def _warn(message: str) -> None:
    print(f"spit build: WARNING: {message}; building the pure-Python package", file=sys.stderr)


def _load_guard(root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_spit_build_guard", root / GUARD)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {GUARD}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks its module up
    spec.loader.exec_module(module)
    return module


def _is_extension(path: Path) -> bool:
    return path.name.endswith(tuple(EXTENSION_SUFFIXES))


def _compile(src: Path, work: Path, modules: list[str]) -> list[str]:
    """Compile ``modules`` from a copy of ``src/spit`` in ``work``; the built files' paths."""
    skip = ("__pycache__", "_compiled.json", *(f"*{suffix}" for suffix in EXTENSION_SUFFIXES))
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


def _remove_old_build(src: Path, guard: ModuleType) -> None:
    """Take an earlier editable build out of ``src``, the manifest first.

    Builds for every interpreter go (``*.so`` and ``*.pyd`` of the compiled
    modules, whatever their tag): the new manifest must not vouch for an
    older build that another Python version would load.
    """
    (src / guard.MANIFEST).unlink(missing_ok=True)
    built = [src.glob("*__mypyc.*")]
    built += [src.glob(name.replace(".", "/") + ".*") for name in guard.COMPILED]
    for paths in built:
        for path in paths:
            if path.suffix in (".so", ".pyd"):
                path.unlink()


class MypycHook(BuildHookInterface[Any]):
    """Compile ``spit.bots.compiled.COMPILED`` with mypyc into the wheel or next to the sources."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        src = Path(self.root) / "src"
        guard = _load_guard(Path(self.root))
        editable = version == "editable"
        if editable:
            _remove_old_build(src, guard)
        if guard.pure_forced():
            _warn(f"{guard.PURE_ENV} is set, nothing compiled")
            return
        self._work = Path(tempfile.mkdtemp(prefix="spit-mypyc-"))
        started = time.monotonic()
        try:
            built = _compile(src, self._work, list(guard.COMPILED))
        except CompileError as error:
            _warn(f"compiling {', '.join(guard.COMPILED)} with mypyc failed ({error})")
            return
        manifest = self._work / guard.MANIFEST
        # the hashes of the copy that was compiled, not of the tree (which may move on)
        text = guard.manifest_text(self._work, built=built)
        manifest.write_text(text, encoding="utf-8")
        if editable:
            for name in built:
                shutil.copy2(self._work / name, src / name)
            shutil.copy2(manifest, src / guard.MANIFEST)
        else:
            for name in [*built, guard.MANIFEST]:
                build_data["force_include"][str(self._work / name)] = name
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        seconds = time.monotonic() - started
        print(f"spit build: compiled {', '.join(built)} in {seconds:.0f} s", file=sys.stderr)

    def clean(self, versions: list[str]) -> None:
        """``hatch clean``: take an editable build out of ``src``."""
        _remove_old_build(Path(self.root) / "src", _load_guard(Path(self.root)))

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        work = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
