"""The mypyc build (hatch_build.py) and its guard (spit.bots.compiled).

The guard is tested on a tiny package of its own: a package directory
``mod/`` beside ``mod.py`` stands for the extension module beside the ``.py``
(Python's finders prefer either to the ``.py``). The real build is checked
where it exists: the compiled modules must play the same games as the pure
ones, and they must be the ones the suite runs: the README's test command
installs (and so builds) before it runs pytest. Nothing here is skipped:
with ``SPIT_PURE_PYTHON=1`` set, the same tests check that the pure modules
run instead.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from spit.bots import compiled

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
MODULES = ("fakepkg.mod",)
PATTERNS = ("fakepkg/*.py",)
MANIFEST = "fakepkg/_compiled.json"


def _not_compiled(why: str) -> None:
    """Fail, saying why the compiled modules are not in use and what to do."""
    pytest.fail(
        f"the mypyc-compiled bot modules are not in use ({why}): `pip install -e .` builds them"
        f" (or set {compiled.PURE_ENV}=1 to run the suite on the pure-Python modules on purpose)"
    )


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package ``fakepkg`` whose ``mod`` exists pure (``mod.py``) and "built" (``mod/``)."""
    pkg = tmp_path / "fakepkg"
    (pkg / "mod").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "other.py").write_text("LIMIT = 3\n")
    (pkg / "mod.py").write_text("KIND = 'pure'\n")
    (pkg / "mod" / "__init__.py").write_text("KIND = 'compiled'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    yield tmp_path
    for name in ("fakepkg", "fakepkg.mod", "fakepkg.other"):
        sys.modules.pop(name, None)


def _kind(root: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """Import ``fakepkg.mod`` behind a fresh guard: which one loaded, and the verdict."""
    guard = compiled.Guard(root, MODULES, PATTERNS, MANIFEST)
    monkeypatch.setattr(sys, "meta_path", [guard, *sys.meta_path])
    importlib.invalidate_caches()
    module = importlib.import_module("fakepkg.mod")
    return module.KIND, guard.verdict()


#: what the fake build "made": the package that stands for the extension module
BUILT = ("fakepkg/mod/__init__.py",)


def _write_manifest(
    root: Path, modules: tuple[str, ...] = MODULES, built: tuple[str, ...] = BUILT
) -> None:
    (root / MANIFEST).write_text(compiled.manifest_text(root, modules, PATTERNS, built))


def test_a_current_build_is_used(package: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _write_manifest(package)
    assert _kind(package, monkeypatch) == ("compiled", compiled.COMPILED_OK)


def test_a_changed_source_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_manifest(package)
    (package / "fakepkg" / "other.py").write_text("LIMIT = 4\n")  # not the guarded module itself
    assert _kind(package, monkeypatch) == ("pure", compiled.STALE)


def test_a_damaged_build_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_manifest(package)
    (package / BUILT[0]).write_text("KIND = 'compiled, then damaged'\n")  # not as built
    assert _kind(package, monkeypatch) == ("pure", compiled.STALE)


def test_a_manifest_without_its_built_files_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_manifest(package, built=())  # (an older manifest's shape, or a hand-made one)
    assert _kind(package, monkeypatch) == ("pure", compiled.STALE)


def test_a_missing_manifest_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert _kind(package, monkeypatch) == ("pure", compiled.NOT_BUILT)


def test_an_unreadable_manifest_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (package / MANIFEST).write_text("{not json")
    assert _kind(package, monkeypatch) == ("pure", compiled.NOT_BUILT)


def test_a_manifest_of_other_modules_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_manifest(package, ("fakepkg.elsewhere",))
    assert _kind(package, monkeypatch) == ("pure", compiled.STALE)


def test_spit_pure_python_makes_the_pure_module_load(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_manifest(package)
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert _kind(package, monkeypatch) == ("pure", compiled.FORCED)


def test_only_a_stale_build_is_worth_a_warning(package: Path) -> None:
    guard = compiled.Guard(package, MODULES, PATTERNS, MANIFEST)
    assert compiled.stale_warning(guard) is None  # never built: pure on purpose
    _write_manifest(package)
    (package / "fakepkg" / "other.py").write_text("LIMIT = 4\n")
    guard = compiled.Guard(package, MODULES, PATTERNS, MANIFEST)
    assert "pip install -e ." in (compiled.stale_warning(guard) or "")


def test_the_manifest_covers_every_module_the_compiled_ones_import() -> None:
    hashes = compiled.source_hashes(SRC)
    for name in ("spit/engine/cards.py", "spit/realtime/arbiter.py", "spit/bots/common.py"):
        assert name in hashes
    for module in compiled.COMPILED:
        assert module.replace(".", "/") + ".py" in hashes


def test_the_suite_runs_the_compiled_modules() -> None:
    if compiled.pure_forced():  # asked for: then the pure modules must be the ones running
        assert compiled.state() == compiled.FORCED
        assert not compiled.running_compiled()
        return
    state = compiled.state()
    if state != compiled.COMPILED_OK:
        _not_compiled(state)
    assert compiled.running_compiled(), "the manifest is current but the .py files were loaded"


def _games(pure: bool) -> tuple[str, bool, str]:
    """The verdict, whether the compiled modules ran, and the games' digest."""
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    env["PYTHONPATH"] = str(SRC)
    if pure:
        env[compiled.PURE_ENV] = "1"
    script = ROOT / "tests" / "support" / "games_digest.py"
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    state, running, digest = json.loads(done.stdout)
    return state, running, digest


def test_the_compiled_and_pure_modules_play_the_same_games() -> None:
    pure = _games(pure=True)
    assert pure[:2] == (compiled.FORCED, False)
    if compiled.pure_forced():
        # pure on purpose (nothing may be built): the games still replay the same
        # in another interpreter (no hash seed or import order in a choice)
        again = _games(pure=True)
        assert again == pure
        return
    fast = _games(pure=False)
    if not fast[1]:
        _not_compiled(fast[0])
    assert fast[:2] == (compiled.COMPILED_OK, True)
    assert fast[2] == pure[2]


@pytest.mark.parametrize("stale", [True, False])
@pytest.mark.parametrize(
    "command",
    [
        ["sim", "--games", "1", "--jobs", "1", "--json"],
        ["tournament", "--levels", "easy,medium", "--games", "1", "--jobs", "1", "--json"],
    ],
    ids=["sim", "tournament"],
)
def test_sim_and_tournament_say_when_the_build_is_stale(
    package: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stale: bool,
    command: list[str],
) -> None:
    from spit.cli import main

    _write_manifest(package)
    if stale:
        (package / "fakepkg" / "other.py").write_text("LIMIT = 4\n")
    guard = compiled.Guard(package, MODULES, PATTERNS, MANIFEST)
    monkeypatch.setattr(compiled, "install", lambda root=None: guard)
    assert main(command) == 0
    err = capsys.readouterr().err
    assert ("older than its sources" in err) == stale


def test_an_edited_copy_of_the_real_build_runs_its_py_files(tmp_path: Path) -> None:
    """End to end, on a copy of ``src`` with its compiled modules: one edit and they are off.

    (With ``SPIT_PURE_PYTHON=1`` there may be no build: then the copy must run
    its ``.py`` files before and after the edit.)
    """
    built = compiled.state() == compiled.COMPILED_OK
    if not built and not compiled.pure_forced():
        _not_compiled(compiled.state())
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    code = (
        "from spit.bots import compiled\n"
        "import spit.bots.spit_strategy as k\n"
        "print(compiled.state(), compiled.running_compiled(), k.__file__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE_ENV}
    env["PYTHONPATH"] = str(copy)

    def run() -> list[str]:
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    state, running, path = run()
    if built or state == compiled.COMPILED_OK:
        assert (state, running) == (compiled.COMPILED_OK, "True")
        assert Path(path).parent == copy / "spit" / "bots"
        after = compiled.STALE
    else:
        assert running == "False" and state in (compiled.NOT_BUILT, compiled.STALE)
        after = state
    with (copy / "spit" / "engine" / "cards.py").open("a") as cards:
        cards.write("# an edit\n")
    assert run() == [after, "False", str(copy / "spit" / "bots" / "spit_strategy.py")]
