"""The engine is pure: no UI, clock, asyncio or global random; determinism across processes."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import spit.engine

ENGINE_DIR = Path(spit.engine.__file__).parent
SRC_DIR = ENGINE_DIR.parent.parent
FORBIDDEN_MODULES = ("textual", "rich", "asyncio", "time", "random")


def run_python(code: str, hash_seed: str = "0") -> str:
    env = dict(os.environ, PYTHONPATH=str(SRC_DIR), PYTHONHASHSEED=hash_seed)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_engine_loads_no_ui_clock_or_random_module() -> None:
    # Some of these are loaded at interpreter start-up (time is built in; site may
    # load random), so they are dropped first: an engine import would bring them back.
    code = f"""
import sys
names = {FORBIDDEN_MODULES!r}
for m in list(sys.modules):
    if m.split(".")[0] in names:
        del sys.modules[m]
import spit.engine, spit.engine.saves, spit.engine.spit_game
print(sorted(m for m in sys.modules if m.split(".")[0] in names))
"""
    assert run_python(code) == "[]"


def forbidden_uses(source: str) -> list[str]:
    """Imports of random/time/UI/pickle modules and uses of deepcopy, eval or exec in code."""
    found: list[str] = []
    banned_modules = {"random", "time", "textual", "rich", "asyncio", "pickle", "marshal", "shelve"}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in banned_modules]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in banned_modules:
                found.append(node.module)
            found += [a.name for a in node.names if a.name == "deepcopy"]
        elif isinstance(node, ast.Name) and node.id in ("deepcopy", "eval", "exec"):
            found.append(node.id)
        elif isinstance(node, ast.Attribute) and node.attr == "deepcopy":
            found.append(node.attr)
    return found


def test_the_source_scanner_finds_what_it_looks_for() -> None:
    bad = "import random\nfrom copy import deepcopy\nimport pickle\nx = eval('1')\n"
    assert forbidden_uses(bad) == ["random", "deepcopy", "pickle", "eval"]
    assert forbidden_uses('"""no deepcopy here"""\n# nor eval( here\n') == []


def test_engine_sources_use_no_random_deepcopy_pickle_or_eval() -> None:
    sources = sorted(ENGINE_DIR.glob("*.py"))
    assert len(sources) >= 9
    found = [
        f"{path.name}: {use}"
        for path in sources
        for use in forbidden_uses(path.read_text(encoding="utf-8"))
    ]
    assert found == []


PLAY_A_GAME = """
import json, random
from spit.engine import SpitConfig, SpitGame, dumps
config = SpitConfig(choose_pile=True, scoring=True, target_score=80, round_limit=30)
game = SpitGame(config, 123456789)
rng = random.Random(5)
while not game.over and len(game.actions) < 5000:
    legal = game.legal_actions(0) + game.legal_actions(1)
    if not legal or rng.random() < 0.02:
        legal = legal + game.legal_actions(2)
    game.apply(legal[rng.randrange(len(legal))])
print(json.dumps([game.fingerprint(), len(game.actions), dumps(game)]))
"""


def test_same_config_seed_and_actions_give_the_same_game_in_fresh_processes() -> None:
    # Different hash seeds: nothing may depend on set or dict ordering of strings.
    first = json.loads(run_python(PLAY_A_GAME, hash_seed="1"))
    second = json.loads(run_python(PLAY_A_GAME, hash_seed="2"))
    assert first == second
    assert first[1] > 100
    # And the saved form replays to the same fingerprint here.
    assert spit.engine.loads(first[2]).fingerprint() == first[0]
