"""The settings file: round trips, mistakes reported by line, defaults for bad parts."""

import re
import tomllib
from pathlib import Path

import pytest
import tomlkit
from hypothesis import assume, given
from hypothesis import strategies as st

from spit.play.keys import ACTIONS, DEFAULT_KEYS, check_key, keymap_problems
from spit.store import paths
from spit.store.settings import (
    Settings,
    dumps_settings,
    load_settings,
    same_name,
    save_settings,
)


def test_missing_file_gives_defaults_without_warning():
    settings, warnings = load_settings()
    assert settings == Settings()
    assert warnings == []


def test_spit_config_env_var_names_the_file(isolated_dirs: Path):
    assert paths.config_path() == isolated_dirs / "config" / "config.toml"
    save_settings(Settings(names=("Ann", "Bob")))
    assert (isolated_dirs / "config" / "config.toml").exists()
    assert load_settings()[0].names == ("Ann", "Bob")


def test_round_trip_of_every_field(tmp_path: Path):
    keys0 = dict(DEFAULT_KEYS[0], left1="7")
    settings = Settings(
        names=('Ann "the" \\fast\\', "Bø"),
        keys=(keys0, dict(DEFAULT_KEYS[1])),
        rules={
            "spit": {"four_stocks": True, "alternating_colours": True, "target": 7},
            "speed": {"long_deal": True},
        },
        bot_level="hard",
        auto_spit=None,
        slap_time=2.5,
        repeat_window=0.25,
    )
    path = tmp_path / "s.toml"
    save_settings(settings, path)
    loaded, warnings = load_settings(path)
    assert warnings == []
    assert loaded == settings


names = st.text(min_size=1, max_size=24).filter(lambda t: t.isprintable() and t == t.strip())


@given(names, names)
def test_any_name_round_trips_through_the_file(tmp_path_factory, one: str, two: str):
    assume(not same_name(one, two))  # two players of one name are refused (issue 21)
    path = tmp_path_factory.mktemp("names") / "c.toml"
    save_settings(Settings(names=(one, two)), path)
    assert load_settings(path) == (Settings(names=(one, two)), [])


COMMENTED = """\
# My spit settings: I like it hard.
[players]
player1 = "Ann"    # that's me
player2 = "Bob"

[game]
bot_level = "hard" # tough one
colour = "blue"    # a key spit does not know

# keys of the left player
[keys.player1]
left1 = "7"
"""


def test_saving_keeps_comments_layout_and_unknown_keys(tmp_path: Path):
    path = tmp_path / "c.toml"
    path.write_text(COMMENTED, encoding="utf-8")
    settings, _ = load_settings(path)
    save_settings(settings.with_changes(names=("Ann", "Carl"), slap_time=4.0), path)
    text = path.read_text(encoding="utf-8")
    for kept in (
        "# My spit settings: I like it hard.",
        'player1 = "Ann"    # that\'s me',
        'bot_level = "hard" # tough one',
        'colour = "blue"    # a key spit does not know',
        "# keys of the left player",
        'left1 = "7"',
    ):
        assert kept in text
    assert 'player2 = "Carl"' in text and "slap_time = 4.0" in text
    loaded, warnings = load_settings(path)
    assert loaded == settings.with_changes(names=("Ann", "Carl"), slap_time=4.0)
    assert [w for w in warnings if "colour" not in w] == []


def test_a_file_that_is_not_toml_is_written_afresh(tmp_path: Path):
    path = tmp_path / "c.toml"
    path.write_text("this is [not toml", encoding="utf-8")
    save_settings(Settings(names=("Ann", "Bob")), path)
    assert load_settings(path) == (Settings(names=("Ann", "Bob")), [])


def test_default_key_maps_have_no_problems():
    assert keymap_problems(DEFAULT_KEYS) == []
    assert set(DEFAULT_KEYS[0]) == set(ACTIONS)


@pytest.mark.parametrize(
    "key", ["escape", "Tab", "ctrl+c", "\t", "\x1b", "ab", " ", "", 5, "漢", "\uff21", "\u0301"]
)
def test_bad_game_keys_are_refused(key):
    assert check_key(key) is not None


def test_duplicate_key_between_players_is_a_problem():
    maps = (dict(DEFAULT_KEYS[0], left1="y"), dict(DEFAULT_KEYS[1]))
    problems = keymap_problems(maps)
    assert any("'y' is used twice" in p for p in problems)


def test_duplicate_key_within_a_player_is_a_problem():
    maps = (dict(DEFAULT_KEYS[0], left1="w"), dict(DEFAULT_KEYS[1]))
    assert keymap_problems(maps)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_syntax_error_names_file_and_line(tmp_path: Path):
    path = write(tmp_path / "c.toml", '[players]\nplayer1 = "Ann"\nplayer2 = \n')
    settings, warnings = load_settings(path)
    assert settings == Settings()
    assert len(warnings) == 1
    assert str(path) in warnings[0]
    assert "line 3" in warnings[0]


def test_bad_value_names_its_line_and_only_that_value_falls_back(tmp_path: Path):
    text = (
        "[players]\n"
        'player1 = "Ann"\n'
        "\n"
        "[timing]\n"
        "auto_spit = 1.5\n"
        'slap_time = "slow"\n'
        "[game]\n"
        'variants = ["V2"]\n'
    )
    path = write(tmp_path / "c.toml", text)
    settings, warnings = load_settings(path)
    assert len(warnings) == 1
    assert f"{path}, line 6: timing.slap_time" in warnings[0]
    assert settings.slap_time == Settings().slap_time
    # the rest of the file still applies
    assert settings.names[0] == "Ann"
    assert settings.auto_spit == 1.5
    assert settings.rules_of("spit")["choose_pile"] and not settings.rules_of("speed")["long_deal"]


def test_bad_key_falls_back_for_that_action_only(tmp_path: Path):
    text = '[keys.player1]\nleft1 = "escape"\nleft2 = "8"\n'
    path = write(tmp_path / "c.toml", text)
    settings, warnings = load_settings(path)
    assert len(warnings) == 1 and "line 2" in warnings[0] and "keys.player1.left1" in warnings[0]
    assert settings.keys[0]["left1"] == DEFAULT_KEYS[0]["left1"]
    assert settings.keys[0]["left2"] == "8"


def test_duplicate_keys_in_file_fall_back_to_default_keys_but_keep_the_rest(tmp_path: Path):
    text = '[players]\nplayer2 = "Bob"\n[keys.player2]\nleft1 = "q"\n'
    path = write(tmp_path / "c.toml", text)
    settings, warnings = load_settings(path)
    assert len(warnings) == 1 and "used twice" in warnings[0]
    assert settings.keys == DEFAULT_KEYS
    assert settings.names[1] == "Bob"


def test_dotted_and_inline_keys_are_located(tmp_path: Path):
    text = 'timing.slap_time = -1\n[game]\nbot_level = "godlike"\n'
    path = write(tmp_path / "c.toml", text)
    _, warnings = load_settings(path)
    assert any("line 1: timing.slap_time" in w for w in warnings)
    assert any("line 3: game.bot_level" in w for w in warnings)


def test_auto_spit_off_and_unknown_settings(tmp_path: Path):
    path = write(tmp_path / "c.toml", '[timing]\nauto_spit = "off"\ncolour = 3\n')
    settings, warnings = load_settings(path)
    assert settings.auto_spit is None
    assert warnings and "line 3: timing.colour: unknown setting" in warnings[0]


def test_wrong_table_types_fall_back(tmp_path: Path):
    path = write(tmp_path / "c.toml", 'players = 3\nkeys = "qwerty"\n[game]\nvariants = "V1"\n')
    settings, warnings = load_settings(path)
    assert settings == Settings()
    assert len(warnings) == 3


def test_not_utf8_and_too_large_files(tmp_path: Path):
    path = tmp_path / "c.toml"
    path.write_bytes(b'[players]\nplayer1 = "\xff"\n')
    settings, warnings = load_settings(path)
    assert settings == Settings() and "line 2" in warnings[0]
    path.write_bytes(b"#" * 2_000_000)
    settings, warnings = load_settings(path)
    assert settings == Settings() and "larger" in warnings[0]


def test_unreadable_path_is_a_warning(tmp_path: Path):
    settings, warnings = load_settings(tmp_path)  # a directory, not a file
    assert settings == Settings()
    assert str(tmp_path) in warnings[0]


@given(st.binary(max_size=300))
def test_junk_bytes_never_raise(tmp_path_factory, junk: bytes):
    path = tmp_path_factory.mktemp("junk") / "c.toml"
    path.write_bytes(junk)
    settings, warnings = load_settings(path)
    assert isinstance(settings, Settings)
    assert all(isinstance(w, str) and str(path) in w for w in warnings)


toml_scalars = st.one_of(
    st.text(max_size=8), st.integers(), st.floats(allow_nan=False), st.booleans()
)
toml_values = toml_scalars | st.lists(toml_scalars, max_size=4)
section_keys = st.sampled_from(
    ["players", "game", "timing", "keys", "player1", "variants", "slap_time", "left1", "x"]
)


@given(st.dictionaries(section_keys, st.dictionaries(section_keys, toml_values, max_size=4)))
def test_any_well_formed_toml_loads_with_warnings_not_errors(tmp_path_factory, data):
    lines = []
    for table, values in data.items():
        lines.append(f"[{table}]")
        for key, value in values.items():
            lines.append(tomlkit.dumps({key: value}).strip())
    path = tmp_path_factory.mktemp("toml") / "c.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    settings, warnings = load_settings(path)
    assert keymap_problems(settings.keys) == []
    assert all(isinstance(n, str) and n for n in settings.names)
    assert isinstance(settings.slap_time, float)
    assert all(w.startswith(str(path)) for w in warnings)


def test_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "c.toml"
    save_settings(Settings(names=("Old", "File")), path)
    before = path.read_bytes()

    def boom(*_args):
        raise OSError("disk full")

    monkeypatch.setattr("spit.store.paths.os.replace", boom)
    with pytest.raises(OSError):
        save_settings(Settings(names=("New", "File")), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["c.toml"]  # no temp file left over


def test_written_file_is_plain_toml():
    text = dumps_settings(Settings())
    data = tomllib.loads(text)
    assert data["keys"]["player2"]["right5"] == ";"
    assert data["timing"]["auto_spit"] == 2.0


def test_bot_levels_are_the_bots_levels():
    from spit.bots import LEVELS
    from spit.store.settings import BOT_LEVELS

    assert BOT_LEVELS == LEVELS


def test_warnings_come_in_the_order_of_the_lines(tmp_path: Path):
    path = tmp_path / "s.toml"
    path.write_text(
        "[timing]\n"
        'slap_time = "slow"\n'
        "repeat_window = 5\n"
        "[players]\n"
        'player1 = ""\n'
        "[game]\n"
        'bot_level = "godlike"\n'
        "[keys.player1]\n"
        'left1 = "escape"\n'
    )
    settings, warnings = load_settings(path)
    lines = [int(w.split(", line ")[1].split(":")[0]) for w in warnings]
    assert lines == [2, 3, 5, 7, 9], warnings
    assert "timing.repeat_window: must be a number of seconds from 0 to 2" in warnings[1]
    assert settings.repeat_window == 0.5


def test_the_held_key_window_is_a_setting(tmp_path: Path):
    path = tmp_path / "s.toml"
    path.write_text("[timing]\nrepeat_window = 0.2\n")
    settings, warnings = load_settings(path)
    assert warnings == [] and settings.repeat_window == 0.2
    assert "repeat_window = 0.2" in dumps_settings(settings)


#: Valid TOML a person may write, in shapes the saver must update in place.
SHAPES = {
    "inline keys": "# mine\nkeys = {player1 = {left1 = 'q'}}\n",
    "empty inline keys": "# mine\nkeys = {}\n",
    "inline players": "# mine\nplayers = {player1 = 'A'} # me\n",
    "inline player keys": "# mine\n[keys]\nplayer1 = {left1 = 'q'}\n",
    "dotted": "# mine\nplayers.player1 = 'A'\nkeys.player1.left1 = 'q'\n",
    "inline game": "# mine\ngame = {variants = ['V1']}\ntiming = {}\n",
    "array of tables": "# mine\n[[display]]\npalette = 'light'\n",
}


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
def test_saving_updates_any_valid_toml_shape_in_place(tmp_path: Path, text: str):
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    chosen = Settings(names=("Zed", "Yo"), palette="four-colour").with_rules(
        "spit", choose_pile=True
    )
    save_settings(chosen, path)
    written = path.read_text(encoding="utf-8")
    assert "# mine" in written  # the person's comment is kept
    assert load_settings(path) == (chosen, [])


def test_a_file_tomlkit_reads_but_is_not_toml_is_written_afresh(tmp_path: Path):
    """A key set twice: tomllib refuses the file (so does the game); tomlkit
    parses it but cannot update it. Saving writes a fresh, valid file."""
    path = tmp_path / "c.toml"
    path.write_text("[players]\nplayer1 = 'A'\nplayer1 = 'B'\n", encoding="utf-8")
    assert "Cannot overwrite a value" in load_settings(path)[1][0]
    save_settings(Settings(names=("Ann", "Bob")), path)
    assert load_settings(path) == (Settings(names=("Ann", "Bob")), [])


def test_the_file_names_variants_in_words_or_by_rule_id(tmp_path):
    """Issue 21: players name the variants in words; the rule ids stay accepted."""
    path = tmp_path / "c.toml"
    path.write_text('[game]\nvariants = ["four-stocks", "V3", "nine"]\n')
    settings, warnings = load_settings(path)
    spit = settings.rules_of("spit")
    assert spit["four_stocks"] and spit["alternating_colours"] and not spit["choose_pile"]
    (warning,) = warnings
    assert "'nine'" in warning and "four-stocks, choose-pile" in warning
    assert not re.search(r"\b[RVPH][0-9]+\b", warning.replace(str(path), ""))


def test_saving_writes_no_rule_id_into_the_players_file(tmp_path):
    """What spit writes into the player's file names the rules in words, also
    after reading an old file that named its variants by id."""
    path = tmp_path / "c.toml"
    path.write_text('[game]\nvariants = ["V1", "V3"]\nspeed_deal = "long"\n')
    settings, warnings = load_settings(path)
    assert not warnings
    save_settings(settings, path)
    save_settings(settings, tmp_path / "new.toml")
    for written in (path.read_text(), (tmp_path / "new.toml").read_text()):
        assert not re.search(r"\b[RVPH][0-9]+[a-z]?\b", written), written
    assert load_settings(path) == (settings, [])


def test_H8_fumble_settings_round_trip_and_make_the_games_timing(tmp_path: Path):
    path = tmp_path / "config.toml"
    save_settings(Settings(fumble_time=1.25, race_margin=0.1), path)
    settings, warnings = load_settings(path)
    assert warnings == []
    assert (settings.fumble_time, settings.race_margin) == (1.25, 0.1)
    timing = settings.timing()
    assert (timing.fumble_time, timing.race_margin) == (1.25, 0.1)
    assert Settings().timing().fumble_time == 0.5  # on by default


def test_H8_fumble_time_zero_is_off_and_a_bad_value_falls_back(tmp_path: Path):
    path = tmp_path / "config.toml"
    path.write_text("[timing]\nfumble_time = 0\nrace_margin = 5\n")
    settings, warnings = load_settings(path)
    assert settings.fumble_time == 0.0 and settings.timing().fumble_time == 0.0
    assert settings.race_margin == 0.25
    (warning,) = warnings
    assert "line 3" in warning and "race_margin" in warning and "0 to 2" in warning
