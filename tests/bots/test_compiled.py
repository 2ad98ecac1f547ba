"""The opt-in mypyc build (hatch_build.py, spit.bots.compiled).

By default the build is pure Python: it needs hatchling alone and the wheel
holds no extension module; these tests build one to check. With
``SPIT_MYPYC=1`` set when the suite runs, the compiled build was asked for:
then the spit installed for this Python (``SPIT_MYPYC=1 pip install
'.[test]'``, imported in an isolated interpreter, away from ``src``) must run
its compiled modules and play the same games as the pure sources. Without it
the same tests check the pure path instead: nothing here is skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from spit.bots import compiled

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
DIGEST = ROOT / "tests" / "support" / "games_digest.py"
ASKED = compiled.opted_in()


def _wheel(tmp_path: Path, version: str = "standard") -> Path:
    """Build the project's wheel (``standard`` or ``editable``) into ``tmp_path``."""
    from hatchling.builders.wheel import WheelBuilder

    built = list(WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=[version]))
    assert len(built) == 1
    return Path(built[0])


def _games(installed: bool) -> tuple[bool, str]:
    """Whether the bot modules ran compiled, and the games' digest, in a fresh interpreter.

    ``installed``: the spit installed for this Python, in an isolated interpreter
    (no ``PYTHONPATH``, no script directory); else the sources in ``src``.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    command = [sys.executable, "-I", str(DIGEST)] if installed else [sys.executable, str(DIGEST)]
    if not installed:
        env["PYTHONPATH"] = str(SRC)
    done = subprocess.run(
        command, env=env, cwd=ROOT / "tests", capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    running, digest = json.loads(done.stdout)
    return running, digest


def _not_built() -> None:
    pytest.fail(
        f"{compiled.OPT_IN_ENV}=1 asks to test the compiled build, but the spit installed for"
        f" this Python runs pure Python (an editable install?): `{compiled.OPT_IN_ENV}=1 pip"
        " install '.[test]'` builds it; without the variable the suite checks the pure build"
    )


def test_the_build_needs_nothing_but_hatchling() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["build-system"]["requires"] == ["hatchling"]


def test_only_SPIT_MYPYC_adds_mypy_and_setuptools_to_the_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from hatchling.builders.wheel import WheelBuilder

    monkeypatch.delenv(compiled.OPT_IN_ENV, raising=False)
    assert WheelBuilder(str(ROOT)).config.dependencies == []  # get_requires_for_build_wheel
    monkeypatch.setenv(compiled.OPT_IN_ENV, "0")
    assert WheelBuilder(str(ROOT)).config.dependencies == []
    monkeypatch.setenv(compiled.OPT_IN_ENV, "1")
    needs = WheelBuilder(str(ROOT)).config.dependencies
    assert [name.split(">")[0] for name in needs] == ["mypy", "setuptools"]


def test_the_default_wheel_is_pure_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.OPT_IN_ENV, raising=False)
    wheel = _wheel(tmp_path)
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    for module in compiled.COMPILED:
        assert module.replace(".", "/") + ".py" in names
    assert not [name for name in names if name.endswith(tuple(EXTENSION_SUFFIXES))]


def test_an_editable_install_asked_to_compile_stops_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(compiled.OPT_IN_ENV, "1")
    with pytest.raises(Exception, match="editable install runs the sources"):
        _wheel(tmp_path, "editable")
    assert not list(tmp_path.iterdir())


def test_the_bot_modules_run_as_they_were_built(tmp_path: Path) -> None:
    if not ASKED:
        # the pure path: the sources themselves, as every install but an opted-in wheel
        assert not compiled.running_compiled()
        assert compiled.describe() == "pure Python"
        for module in compiled.COMPILED:
            path = Path(str(sys.modules[module].__file__))
            assert path == SRC.joinpath(*module.split(".")).with_suffix(".py")
        return
    code = (
        "import json, sys\nfrom spit.bots import compiled\n"
        "kind = compiled.describe()\n"
        "print(json.dumps([kind, [sys.modules[m].__file__ for m in compiled.COMPILED]]))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    kind, files = json.loads(done.stdout)
    if kind != "compiled":
        _not_built()
    assert all(not Path(name).is_relative_to(SRC) for name in files)


def test_the_compiled_and_pure_modules_play_the_same_games() -> None:
    pure = _games(installed=False)
    assert pure[0] is False
    if not ASKED:
        # nothing compiled: the games still replay the same in another interpreter
        # (no hash seed or import order in a choice)
        assert _games(installed=False) == pure
        return
    fast = _games(installed=True)
    if not fast[0]:
        _not_built()
    assert fast[1] == pure[1]
