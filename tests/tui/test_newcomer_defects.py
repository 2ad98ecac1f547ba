"""Issue 21's defects a newcomer met, each checked where a player sees it."""

from __future__ import annotations

from pathlib import Path

from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, region, screen_of, screen_text

from spit.store.settings import Settings as UserSettings
from spit.store.settings import load_settings, save_settings
from spit.tui.dialogs import SettingsScreen

SIZE = (100, 30)


async def test_settings_checkboxes_show_on_and_off_in_plain_text(clock: FakeClock) -> None:
    """Defect 20: a ticked and an unticked box differ in their characters, not only colour."""
    save_settings(UserSettings().with_rules("spit", four_stocks=True))
    app = make_app(clock, start=None)
    app.settings.apply(load_settings()[0])
    async with running(app, size=SIZE) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        text = screen_text(app)
        assert "[X] four stocks" in text and "[ ] alternating colours" in text
        app.screen.query_one("#rule-spit-alternating_colours").value = True
        await pilot.pause()
        assert "[X] alternating colours" in screen_text(app)


BROKEN = """\
# my settings
[players]
player1 = "Ann"
player2 = "Bob

[game]
bot_level = "hard"

[keys.player1]
left1 = "2"
"""


async def test_saving_over_a_file_with_a_mistake_keeps_it_and_its_good_parts(
    clock: FakeClock, isolated_dirs: Path
) -> None:
    """Defect 1: a bad line made the file read as defaults, and saving rewrote it."""
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(BROKEN)
    settings, warnings = load_settings()
    # only the bad line is lost: the rest of the file is used
    assert settings.names == ("Ann", "Player 2") and settings.bot_level == "hard"
    assert settings.keys[0]["left1"] == "2"
    assert len(warnings) == 1 and "line 4" in warnings[0] and "ignored" in warnings[0]
    app = make_app(clock, start=None)
    app.settings.apply(settings)
    async with running(app, size=SIZE) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#name2").value = "Cy"
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert "Saved to" in message and "config.toml.bak" in message
    assert (path.parent / "config.toml.bak").read_text() == BROKEN
    text = path.read_text()
    assert "# my settings" in text and 'player2 = "Bob' in text  # kept, as a comment
    saved, warnings = load_settings()
    assert warnings == []
    assert saved.names == ("Ann", "Cy") and saved.bot_level == "hard"
    assert saved.keys[0]["left1"] == "2"


def test_a_file_that_cannot_be_salvaged_is_still_kept_before_saving(isolated_dirs: Path) -> None:
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe not text")
    save_settings(UserSettings(names=("Ann", "Bob")))
    assert (path.parent / "config.toml.bak").read_bytes() == b"\xff\xfe not text"
    assert load_settings() == (UserSettings(names=("Ann", "Bob")), [])


async def test_settings_refuse_two_players_of_one_name(clock: FakeClock) -> None:
    """Defect 2: 'Ann took no pile; Ann took the right pile' and Ann v Ann in the stats."""
    app = make_app(clock, start=None)
    async with running(app, size=SIZE) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#name1").value = "Ann"
        app.screen.query_one("#name2").value = " ann "
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert "Not saved" in message and "different names" in message
    assert load_settings() == (UserSettings(), [])  # nothing written


def test_a_settings_file_with_one_name_twice_keeps_the_first(isolated_dirs: Path) -> None:
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[players]\nplayer1 = "Ann"\nplayer2 = "ANN"\n')
    settings, warnings = load_settings()
    assert settings.names == ("Ann", "Player 2")
    assert len(warnings) == 1 and "line 3" in warnings[0] and "same name" in warnings[0]
    path.write_text('[players]\nplayer1 = "Player 2"\nplayer2 = "player 2"\n')
    assert load_settings()[0].names == ("Player 2", "Player 1")


async def test_watching_two_computers_offers_quit_not_save(clock: FakeClock) -> None:
    """Defect 17: the footer offered "save+quit", but nothing is kept and it quit silently."""
    app = make_app(clock, opponents={0: "easy", 1: "easy"}, bot_seed=1)
    async with running(app) as pilot:
        await pilot.pause()
        footer = region(app, "footer")
        assert "save+quit" not in footer and "ctrl+q  quit" in footer
        assert "not kept" in (screen_of(app).quit_note or "")
    people = make_app(clock)  # a game between people is kept: the footer says so
    async with running(people) as pilot:
        await pilot.pause()
        assert "ctrl+q  save+quit" in region(people, "footer")
        assert screen_of(people).quit_note is None


def _box_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if "┃" in line]


async def test_the_game_over_box_hides_the_board_beside_it(clock: FakeClock) -> None:
    """Defect 14: a stray 'k' (of the board's 'keys') showed left of the result box."""
    from test_persist_app import one_card

    app = make_app(clock, one_card, names=("Ann", "Bob"))
    async with running(app) as pilot:
        clock.advance(1.0)
        await pilot.press("0")
        clock.advance(0.5)
        await pilot.press("a")  # Ann wins: the box opens over the board
        await pilot.pause()
        lines = _box_lines(screen_text(app))
        assert any("Enter: play again" in line for line in lines)
        for line in lines:
            assert line[: line.index("┃")].strip() == "", line


async def test_a_long_name_leaves_the_game_over_keys_readable(clock: FakeClock) -> None:
    """Defect 15: '…Enter: play again, Escap…' was cut at 80 columns."""
    from test_persist_app import one_card

    long = "Bartholomew Fitzgerald X"  # the longest name a setting takes
    app = make_app(clock, one_card, names=(long, "Bob"))
    async with running(app) as pilot:
        clock.advance(1.0)
        await pilot.press("0")
        clock.advance(0.5)
        await pilot.press("a")
        await pilot.pause()
        status = region(app, "status")
        assert status.startswith(long) and "Enter" in status and "Esc" in status
        assert len(status) <= 80 and "…" not in status


async def test_the_watch_level_picker_shows_its_whole_note(clock: FakeClock) -> None:
    """Defect 15: the watch picker's note ended in 'Esc:   ┃' at 80 columns."""
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        await pilot.pause()
        app.screen.choose_watch("speed")
        await pilot.pause()
        text = " ".join(screen_text(app).replace("┃", " ").split())
        assert "Enter: choose Esc: back" in text


async def test_the_host_dialog_is_centred_as_the_others(clock: FakeClock) -> None:
    """Defect 16: the Host dialog was drawn at the top left."""
    app = make_app(clock, start=None)
    async with running(app, size=(100, 30)) as pilot:
        await pilot.pause()
        app.screen.choose_host()
        await pilot.pause()
        lines = screen_text(app).splitlines()
        top = next(n for n, line in enumerate(lines) if "┏" in line)
        bottom = next(n for n, line in enumerate(lines) if "┗" in line)
        left = lines[top].index("┏")
        right = 100 - lines[top].index("┓") - 1
        assert abs(left - right) <= 1 and left > 0
        assert abs(top - (30 - 1 - bottom)) <= 1 and top > 0


async def test_resuming_a_hosted_game_says_it_goes_on_at_this_keyboard(clock: FakeClock) -> None:
    """Defect 3: a hosted game came back as a hot-seat game without a word."""
    from tui_helpers import PLAYABLE, deal

    from spit.engine import call
    from spit.store.paths import saved_dir
    from spit.store.replays import PlayerInfo, load_replay, new_meta
    from spit.store.resume import save_game
    from spit.tui.screens import PauseScreen

    game = deal(*PLAYABLE)
    game.apply(call(0))
    game.apply(call(1))
    game.apply(game.legal_actions(0)[0])
    meta = new_meta((PlayerInfo("Ann"), PlayerInfo("Gus", remote=True)))
    path = save_game(game, [0.5, 0.6, 1.0], meta, saved_dir() / "hosted.json")
    replay = load_replay(path)
    assert replay.meta.players[1].remote and not replay.meta.players[0].remote
    app = make_app(clock, resumed=replay)
    async with running(app) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PauseScreen)  # nothing is played before they agree
        notice = " ".join(str(app.screen.query_one("#pause-box").render()).split())
        assert "It was a network game: it goes on here, Ann and Gus both at this keyboard" in notice
        assert "Esc: leave" in notice
    plain = new_meta((PlayerInfo("Ann"), PlayerInfo("Bob")))
    local = load_replay(save_game(game, [0.5, 0.6, 1.0], plain, saved_dir() / "local.json"))
    again = make_app(clock, resumed=local)
    async with running(again) as pilot:
        await pilot.pause()
        assert "network" not in str(again.screen.query_one("#pause-box").render())


OLD_AND_BAD = """\
# mine
[game]
variants = ["four-stocks"]
speed_deal = "long"
[rules.spit]
target = "lots"
"""


async def test_saving_over_values_spit_could_not_use_keeps_the_file_and_says_where(
    clock: FakeClock, isolated_dirs: Path
) -> None:
    """Issue 22: a value the game could not use (here a match target in words) would be
    written over by its default; the old file is kept first and the screen names it."""
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(OLD_AND_BAD)
    settings, warnings = load_settings()
    assert len(warnings) == 1 and "line 6: rules.spit.target" in warnings[0]
    assert settings.rules_of("spit")["four_stocks"] and settings.rules_of("speed")["long_deal"]
    app = make_app(clock, start=None)
    app.settings.apply(settings)
    async with running(app, size=SIZE) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
    assert "Saved to" in message and "values spit could not use" in message
    assert "config.toml.bak" in message
    assert (path.parent / "config.toml.bak").read_text() == OLD_AND_BAD
    saved, warnings = load_settings()
    assert warnings == [] and saved.rules_of("spit")["four_stocks"]  # the good parts stay
    assert saved.rules_of("speed")["long_deal"] and saved.rules_of("spit")["target"] == 100
