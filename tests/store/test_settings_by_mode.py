"""Issue 22: each game's rules are a table of the settings file, ``[rules.<mode>]``,
keyed by what its schema declares; a file of the old flat layout is read as it
always was and moved on saving without losing anything; a file spit cannot
use is kept aside before it is written over."""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path

import pytest

from spit.engine import SpeedConfig, SpitConfig, get_mode
from spit.store import paths
from spit.store.settings import (
    Settings,
    backup_path,
    load_settings,
    old_layout_path,
    save_settings,
    set_aside,
)

#: A settings file as spit wrote it before issue 22: one variants list for every
#: game (V3 is Speed's too), Speed's deal and a target per game in [game].
OLD_FILE = """\
# my settings
[players]
player1 = "Ann"  # me
player2 = "Bob"

[game]
variants = ["four-stocks", "V3"]   # the ones I like
speed_deal = "long"
bot_level = "hard"
spit_target = 40
speed_target = 5
mode = "speed"
opponent = "person"
favourite = "not a spit setting"

[timing]
slap_time = 2.5
"""


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_rules_are_read_and_written_by_mode(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    chosen = (
        Settings()
        .with_rules("spit", choose_pile=True, target=30)
        .with_rules("speed", alternating_colours=True, target=0)
    )
    save_settings(chosen, path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["rules"]["spit"]["choose_pile"] is True and data["rules"]["spit"]["target"] == 30
    assert data["rules"]["speed"] == {"long_deal": False, "alternating_colours": True, "target": 0}
    assert "variants" not in data["game"]  # no flat list any more
    assert load_settings(path) == (chosen, [])
    # one game's rules are its own: Spit's alternating colours are not Speed's
    assert not chosen.rules_of("spit")["alternating_colours"]


def test_every_mode_settings_defaults_are_its_config_defaults() -> None:
    for name, config in (("spit", SpitConfig()), ("speed", SpeedConfig())):
        mode = get_mode(name)
        assert mode.config_from_settings(Settings().rules_of(name)) == config


def test_an_old_flat_file_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(OLD_FILE, encoding="utf-8")
    settings, warnings = load_settings(path)
    assert warnings == [f"{path}, line 14: game.favourite: unknown setting, ignored"]
    spit, speed = settings.rules_of("spit"), settings.rules_of("speed")
    assert get_mode("spit").config_from_settings(spit) == SpitConfig(
        four_stocks=True, alternating_colours=True, target_score=40
    )
    assert get_mode("speed").config_from_settings(speed) == SpeedConfig(
        long_deal=True, alternating_colours=True, target_score=5
    )
    assert (settings.names, settings.bot_level, settings.mode) == (("Ann", "Bob"), "hard", "speed")


def test_saving_an_old_file_moves_its_rules_and_keeps_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "config" / "c.toml"
    path.parent.mkdir()
    path.write_text(OLD_FILE, encoding="utf-8")
    before, _ = load_settings(path)
    aside = set_aside(path)
    assert aside is not None and aside.copy == old_layout_path(path)
    save_settings(before, path)
    # the old file, byte for byte, readable by this user only
    assert old_layout_path(path).read_text(encoding="utf-8") == OLD_FILE
    assert _mode(old_layout_path(path)) == 0o600 and _mode(path.parent) == 0o700
    written = path.read_text(encoding="utf-8")
    assert "# my settings" in written and "# me" in written  # comments kept
    assert 'favourite = "not a spit setting"' in written  # an unknown key kept
    game = tomllib.loads(written)["game"]
    assert not {"variants", "speed_deal", "spit_target", "speed_target"} & set(game)
    after, warnings = load_settings(path)
    assert after == before
    assert warnings == [f"{path}, line {_line(written, 'favourite')}: game.favourite: "
                        "unknown setting, ignored"]  # fmt: skip
    # saved again, nothing more is set aside and the first copy stays
    assert set_aside(path) is None
    save_settings(after.with_rules("spit", scoring=True), path)
    assert old_layout_path(path).read_text(encoding="utf-8") == OLD_FILE


def _line(text: str, key: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(key))


def test_new_tables_win_over_old_keys_in_one_file(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[game]\nspit_target = 40\n[rules.spit]\ntarget = 60\n", encoding="utf-8")
    settings, warnings = load_settings(path)
    assert warnings == [] and settings.rules_of("spit")["target"] == 60


#: Files a person (or a program) may leave: what each breaks, and the text its
#: warning must hold.
HOSTILE = {
    "rules not a table": ("rules = 5\n", "rules: must be a table"),
    "a mode not a table": ("[rules]\nspit = [1, 2]\n", "rules.spit: must be a table"),
    "a number as words": ('[rules.spit]\ntarget = "lots"\n', "line 3: rules.spit.target"),
    "a huge number": ("[rules.spit]\ntarget = 99999999999999999999\n", "from 1 to 100000"),
    "a negative number": ("[rules.speed]\ntarget = -1\n", "from 0 to 100000"),
    "a flag as words": ('[rules.speed]\nlong_deal = "yes"\n', "must be true or false"),
    "a flag as a number": ("[rules.spit]\nfour_stocks = 1\n", "must be true or false"),
    "nested junk": ("[rules.spit]\ntarget = [[[[[[1]]]]]]\n", "rules.spit.target"),
    "an old key gone bad": ("[game]\nspit_target = -5\n", "game.spit_target"),
    "an old deal gone bad": ('[game]\nspeed_deal = "forever"\n', "game.speed_deal"),
}


@pytest.mark.parametrize(("text", "said"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_value_spit_cannot_use_is_said_and_kept_aside(
    isolated_dirs: Path, text: str, said: str
) -> None:
    path = paths.config_path()
    path.parent.mkdir(parents=True)
    path.write_text("# mine\n" + text, encoding="utf-8")
    settings, warnings = load_settings()
    (warning,) = warnings
    assert str(path) in warning and said in warning
    assert settings.rules == Settings().rules  # only the bad part falls back, to its default
    aside = set_aside()
    assert aside is not None and aside.copy == backup_path(path)
    assert "could not use" in aside.reason
    save_settings(settings.with_changes(bot_level="easy"))
    assert backup_path(path).read_text(encoding="utf-8") == "# mine\n" + text  # nothing lost
    assert _mode(backup_path(path)) == 0o600
    assert load_settings() == (settings.with_changes(bot_level="easy"), [])


def test_tables_spit_does_not_know_are_kept_without_a_copy(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    text = "[rules.chess]\nclock = 5\n[rules.spit]\nnuke = true\ntarget = 9\n"
    path.write_text(text, encoding="utf-8")
    settings, warnings = load_settings(path)
    assert [w.split(": ")[1] for w in warnings] == ["rules.chess", "rules.spit.nuke"]
    assert settings.rules_of("spit")["target"] == 9
    assert set_aside(path) is None  # saving writes over nothing it read
    save_settings(settings.with_rules("spit", target=11), path)
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["rules"]["chess"] == {"clock": 5} and data["rules"]["spit"]["nuke"] is True
    assert data["rules"]["spit"]["target"] == 11 and not backup_path(path).exists()


@pytest.mark.parametrize(
    "text",
    ["rules.spit.target = 5\n", "rules = {spit = {target = 5}}\n", "[rules]\nspit.target = 5\n"],
)
def test_the_rules_tables_in_any_toml_shape_are_read_and_updated(tmp_path: Path, text: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text("# mine\n" + text, encoding="utf-8")
    settings, warnings = load_settings(path)
    assert warnings == [] and settings.rules_of("spit")["target"] == 5
    changed = settings.with_rules("spit", target=6, four_stocks=True)
    save_settings(changed, path)
    assert "# mine" in path.read_text(encoding="utf-8")
    assert load_settings(path) == (changed, [])
