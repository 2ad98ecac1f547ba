"""The setup screen before a game (issue 21): game, opponent, rules in words, match,
names; remembered in the settings file for next time."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import FakeClock
from tests.support.pilot import SIZE, running
from textual.widgets import Checkbox, Input, Select
from tui_helpers import screen_of

from spit.engine import get_mode, mode_names
from spit.engine.rule_words import VARIANT_WORDS
from spit.store.settings import OPPONENTS, PERSON, load_settings, save_settings
from spit.store.settings import Settings as UserSettings
from spit.tui.app import AppDependencies, SpitApp
from spit.tui.dealer import Opening
from spit.tui.launch import configured_app
from spit.tui.setup import (
    GameChoice,
    SetupError,
    SetupScreen,
    check_name,
    check_target,
    choice_from,
    rule_settings,
    rule_variants,
    rules_with,
    settings_with,
)
from spit.tui.title import TitleScreen

RULE_ID = re.compile(r"\b[RVPH][0-9]+[a-z]?\b")


def test_a_choice_goes_into_the_settings_and_comes_back_out() -> None:
    user = UserSettings()
    assert choice_from(user) == GameChoice(
        "spit", PERSON, rules_with("spit"), 0, ("Player 1", "Player 2")
    )
    ticked = rules_with("spit", ("V1", "V3"))
    spit = settings_with(user, GameChoice("spit", "hard", ticked, 50, ("Ann", "Bob")))
    rules = spit.rules_of("spit")
    assert rules == {
        "four_stocks": True,
        "choose_pile": False,
        "alternating_colours": True,
        "scoring": True,  # V4: the match
        "target": 50,
    }
    assert (spit.mode, spit.opponent, spit.bot_level, spit.names) == (
        "spit",
        "hard",
        "hard",
        ("Ann", "Bob"),
    )
    long_deal = rules_with("speed", ("P1b",))
    speed = settings_with(spit, GameChoice("speed", PERSON, long_deal, 5, ("Ann", "Bob")))
    assert speed.rules_of("speed") == {"long_deal": True, "alternating_colours": False, "target": 5}
    assert speed.rules_of("spit") == rules  # each game's rules are its own
    assert choice_from(speed).variants == ("P1b",) and choice_from(speed, "spit").target == 50
    single = settings_with(spit, GameChoice("spit", "easy", rules_with("spit"), 0, ("A", "B")))
    assert not single.rules_of("spit")["scoring"] and single.rules_of("spit")["target"] == 50


@settings(max_examples=60, deadline=None)
@given(
    mode=st.sampled_from(mode_names()),
    opponent=st.sampled_from(OPPONENTS),
    ticks=st.sets(st.integers(0, 3)),
    target=st.integers(0, 500),
    names=st.tuples(st.sampled_from(["Ann", "Bob", "Cy"]), st.sampled_from(["Di", "Ed"])),
)
def test_whatever_the_setup_chose_is_what_it_shows_next_time(
    mode: str, opponent: str, ticks: set[int], target: int, names: tuple[str, str]
) -> None:
    offered = rule_variants(get_mode(mode))
    variants = tuple(v for i, v in enumerate(offered) if i in ticks)
    choice = GameChoice(mode, opponent, rules_with(mode, variants), target, names)
    user = settings_with(UserSettings(), choice)
    assert choice_from(user) == choice


def test_the_settings_file_keeps_the_last_game(tmp_path) -> None:
    path = tmp_path / "config.toml"
    user = settings_with(UserSettings(), GameChoice("speed", "match-me", (), 0, ("A", "B")))
    save_settings(user, path)
    loaded, warnings = load_settings(path)
    assert warnings == [] and (loaded.mode, loaded.opponent) == ("speed", "match-me")
    path.write_text('[game]\nmode = "poker"\nopponent = "ghost"\n')
    loaded, warnings = load_settings(path)
    assert (loaded.mode, loaded.opponent) == ("spit", PERSON) and len(warnings) == 2
    assert "game.mode" in warnings[0] and "game.opponent" in warnings[1]


def test_names_and_targets_that_cannot_be_played_are_refused_with_a_reason() -> None:
    with pytest.raises(SetupError, match="different names"):
        settings_with(UserSettings(), GameChoice("spit", PERSON, (), 0, ("Ann", "ann")))
    settings_with(UserSettings(), GameChoice("spit", "easy", (), 0, ("Ann", "ann")))
    for bad, why in (("", "give a name"), ("a\tb", "control"), ("x" * 25, "at most 24")):
        with pytest.raises(SetupError, match=why):
            check_name(bad, "Player 1")
    assert check_target(" 12 ") == 12 and check_target("") == 0
    for bad in ("ten", "-1", "1000000"):
        with pytest.raises(SetupError, match="Match"):
            check_target(bad)


def test_every_offered_rule_has_its_line_in_words() -> None:
    for mode in mode_names():
        for v in rule_variants(get_mode(mode)):
            words = VARIANT_WORDS[v]
            assert words.label and words.line and not RULE_ID.search(words.label + words.line)
        for s in rule_settings(get_mode(mode)):  # and every setting the schema declares
            assert s.label and s.line and not RULE_ID.search(s.label + s.line)


def _app(clock: FakeClock) -> SpitApp:
    """The app as ``spit`` opens it: the settings file read, the title menu first."""
    return configured_app(Opening(), deps=AppDependencies(clock=clock))


async def _open_setup(pilot, mode: str = "spit") -> SetupScreen:
    from textual.widgets import OptionList

    menu = pilot.app.screen.query_one("#menu", OptionList)
    ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
    menu.highlighted = ids.index(mode)
    await pilot.press("enter")
    await pilot.pause()
    setup = pilot.app.screen
    assert isinstance(setup, SetupScreen)
    return setup


async def test_the_setup_fits_80x24_and_says_everything_in_words(clock: FakeClock) -> None:
    app = _app(clock)
    async with running(app) as pilot:
        setup = await _open_setup(pilot)
        shot = app.export_screenshot().replace("&#160;", " ")
        for widget in setup.query("Select, Input, Checkbox, Button"):
            assert widget.region.bottom <= SIZE[1] and widget.region.right <= SIZE[0], widget
        assert "four stocks" in shot and "a person at this keyboard" in shot
        assert not RULE_ID.search(re.sub(r"<[^>]+>", " ", shot))
        assert setup.focused is setup.query_one("#setup-start")


async def test_the_setup_starts_the_game_chosen_and_remembers_it(clock: FakeClock) -> None:
    app = _app(clock)
    async with running(app) as pilot:
        setup = await _open_setup(pilot, "spit")
        setup.query_one("#setup-mode", Select).value = "speed"
        await pilot.pause()
        boxes = {b.name: b for b in setup.query(Checkbox)}
        assert set(boxes) == {"long_deal", "alternating_colours"}  # Speed's rules now
        boxes["long_deal"].value = True
        setup.query_one("#setup-opponent", Select).value = "easy"
        setup.query_one("#setup-target", Input).value = "5"
        setup.query_one("#setup-name1", Input).value = "Ann"
        setup.query_one("#setup-start").focus()
        await pilot.press("enter")
        await pilot.pause()
        game = screen_of(app)
        assert game.mode == "speed" and game.opponents == {1: "easy"}
        session = game.session
        assert session is not None and session.names[0] == "Ann"
        assert session.game.config.long_deal and session.game.config.target_score == 5
    saved, _ = load_settings()
    assert (saved.mode, saved.opponent) == ("speed", "easy")
    assert saved.rules_of("speed") == {"long_deal": True, "alternating_colours": False, "target": 5}
    app = _app(FakeClock())  # next time: the same choices, Enter plays them
    async with running(app) as pilot:
        menu_setup = await _open_setup(pilot, "speed")
        assert menu_setup.read() == GameChoice(
            "speed", "easy", rules_with("speed", ("P1b",)), 5, ("Ann", "Player 2")
        )


async def test_player_2s_name_is_asked_only_of_a_person(clock: FakeClock) -> None:
    """Against a computer the second name is not shown (the computer has its own),
    and a bad one typed before the switch cannot stop the game."""
    app = _app(clock)
    async with running(app) as pilot:
        setup = await _open_setup(pilot, "spit")
        row = setup.query_one("#setup-player2")
        assert row.display  # a person at this keyboard: both names
        setup.query_one("#setup-name2", Input).value = ""  # not a name
        setup.query_one("#setup-opponent", Select).value = "easy"
        await pilot.pause()
        assert not row.display
        assert setup.read().names == ("Player 1", "Player 2")  # kept as it was
        setup.query_one("#setup-opponent", Select).value = PERSON
        await pilot.pause()
        assert row.display
        with pytest.raises(SetupError, match="Player 2: give a name"):
            setup.read()
        setup.query_one("#setup-opponent", Select).value = "easy"
        await pilot.pause()
        setup.query_one("#setup-start").focus()
        await pilot.press("enter")
        await pilot.pause()
        game = screen_of(app)
        assert game.opponents == {1: "easy"}


async def test_the_setup_refuses_what_cannot_be_played_and_loses_nothing(
    clock: FakeClock,
) -> None:
    app = _app(clock)
    async with running(app) as pilot:
        setup = await _open_setup(pilot)
        setup.query_one("#setup-name2", Input).value = "player 1"
        setup.query_one("#setup-start").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is setup
        message = str(setup.query_one("#setup-message").render())
        assert "Not started: The two players need different names" in message
        setup.query_one("#setup-name2", Input).value = "Bob"
        setup.query_one("#setup-target", Input).focus()
        setup.query_one("#setup-target", Input).value = "lots"
        await pilot.press("enter")  # Enter in a field starts too
        await pilot.pause()
        assert app.screen is setup and "'lots' is not a whole number" in str(
            setup.query_one("#setup-message").render()
        )
        assert setup.query_one("#setup-name2", Input).value == "Bob"  # nothing lost
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
    assert load_settings()[0] == UserSettings()  # Esc saved nothing


async def test_a_settings_file_that_cannot_be_written_is_said_and_start_again_plays(
    clock: FakeClock,
) -> None:
    def cannot(user: UserSettings):
        raise PermissionError(13, "Permission denied")

    app = configured_app(Opening(), deps=AppDependencies(clock=clock, save_settings=cannot))
    async with running(app) as pilot:
        setup = await _open_setup(pilot, "speed")
        await pilot.press("enter")  # Start: the choice differs from the file's
        await pilot.pause()
        assert app.screen is setup
        message = str(setup.query_one("#setup-message").render())
        assert "Not remembered: cannot write" in message and "Permission denied" in message
        assert "Start again to play anyway" in message
        setup.action_start()
        await pilot.pause()
        assert screen_of(app).mode == "speed"


async def test_the_setups_rule_boxes_show_on_and_off_in_plain_text(clock: FakeClock) -> None:
    """As in Settings (issue 21, defect 20): ``[X]`` on, ``[ ]`` off, not colour alone."""
    from tui_helpers import screen_text

    app = _app(clock)
    async with running(app) as pilot:
        await _open_setup(pilot)
        text = screen_text(app)
        assert "[ ] four stocks" in text or "[X] four stocks" in text, text
        assert "▐X▌" not in text
