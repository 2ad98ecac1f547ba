"""The settings code, the screens and the command line ask each mode's settings
schema (``Mode.settings``) instead of naming a mode's fields (issue 22)."""

from __future__ import annotations

import re
from pathlib import Path

from spit.engine import all_modes

SRC = Path(__file__).resolve().parents[2] / "src" / "spit"
#: The layers that read, show or take settings (bots read their own mode's config).
LAYERS = ("store", "tui", "cli", "play", "net", "server")
#: The old flat layout's per-mode keys: named once, by the settings file's migration.
OLD_KEYS = ("speed_deal", "spit_target", "speed_target")
MIGRATION = SRC / "store" / "settings.py"


def _names() -> set[str]:
    names = {s.key for m in all_modes() for s in m.settings}
    names |= {s.field for m in all_modes() for s in m.settings}
    # every mode's config has these (the "add a mode" checklist): the rules read them
    return names - {"target", "target_score", "alternating_colours"}


def _found(pattern: re.Pattern[str], skip: Path | None = None) -> list[str]:
    return [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for layer in LAYERS
        for path in sorted((SRC / layer).rglob("*.py"))
        if path != skip
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]


def test_no_layer_above_the_engine_names_a_mode_setting() -> None:
    names = _names()
    assert {"four_stocks", "long_deal"} <= names  # the test reads the real schemas
    words = "|".join(sorted(names))  # as code: an attribute, a string key, a keyword
    pattern = re.compile(rf"(\.|[\"'])({words})\b|\b({words})\s*=")
    found = _found(pattern)
    assert not found, "ask the mode's settings schema instead: " + "; ".join(found)


def test_only_the_migration_names_the_old_flat_keys() -> None:
    pattern = re.compile(r"\b(" + "|".join(OLD_KEYS) + r")\b")
    found = _found(pattern, skip=MIGRATION)
    assert not found, "the old layout is read by store/settings.py alone: " + "; ".join(found)
    assert "speed_deal" in MIGRATION.read_text(encoding="utf-8")  # where it is read
