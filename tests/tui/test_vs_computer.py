"""Playing against the computer in the app: the menu, the level choice, the bots (issue 5)."""

from __future__ import annotations

from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, play_from_menu, region, screen_of

from spit.bots import Bot, make_strategy
from spit.engine import Kind, Phase
from spit.store.settings import Settings as UserSettings
from spit.tui.screens import GameScreen
from spit.tui.title import TitleScreen


async def test_title_menu_starts_spit_against_the_chosen_level(clock: FakeClock) -> None:
    app = make_app(clock, start=None, bot_seed=5)
    async with running(app) as pilot:
        await play_from_menu(pilot, "spit", "hard")
        screen = screen_of(app)
        session = screen.session
        assert screen.mode == "spit" and screen.opponents == {1: "hard"}
        bot = session.agents[1]
        assert isinstance(bot, Bot) and 0 not in session.agents
        assert session.names[1] == "Computer (hard)"
        # H2: against the computer the spit is automatic after a countdown
        assert session.arbiter.timing.auto_spit == UserSettings().auto_spit == 2.0


async def test_the_level_choice_offers_match_me(clock: FakeClock) -> None:
    """docs/playing.md promises "match me" in the app's choice of opponent."""
    app = make_app(clock, start=None, bot_seed=5)
    async with running(app) as pilot:
        await play_from_menu(pilot, "spit", "match-me")
        screen = screen_of(app)
        assert screen.opponents == {1: "match-me"}
        assert screen.session.names[1] == "Computer (like Player 1)"
        assert isinstance(screen.session.agents[1], Bot)


async def test_the_setup_can_be_left_without_playing(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        from textual.widgets import OptionList

        from spit.tui.setup import SetupScreen

        menu = app.screen.query_one("#menu", OptionList)
        ids = [menu.get_option_at_index(i).id for i in range(menu.option_count)]
        menu.highlighted = ids.index("speed")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_watching_two_bots_plays_by_itself_to_the_end(clock: FakeClock) -> None:
    app = make_app(clock, start="spit", opponents={0: "expert", 1: "expert"}, bot_seed=3, seed=4)
    async with running(app) as pilot:
        screen = screen_of(app)
        game = screen.session.game
        await pilot.press("q")  # a person's key does nothing while the computers play
        assert game.phase is Phase.OPENING
        for _ in range(20000):
            clock.advance(0.25)
            screen.run_tick()
            if game.over:
                break
        assert game.over
        log = screen.session.arbiter.log
        assert {a.player for _, a in log if a.kind is Kind.PLAY} == {0, 1}


async def test_speed_against_the_computer(clock: FakeClock) -> None:
    app = make_app(clock, start="speed", opponents={1: "medium"}, bot_seed=2)
    async with running(app) as pilot:
        screen = screen_of(app)
        game = screen.session.game
        await pilot.press("1")  # player 1 is ready; the computer gets ready by itself
        for _ in range(40):
            clock.advance(0.25)
            screen.run_tick()
            if game.phase is not Phase.OPENING:
                break
        assert game.phase in (Phase.PLAY, Phase.STALEMATE)


def save_games_of(name: str, seat: str, games: int) -> None:
    """Save replays of bot games with player 1 under a person's ``name``."""
    from spit.bots.sim import Seat, play_game
    from spit.store.paths import replay_dir
    from spit.store.replays import PlayerInfo, new_meta, save_replay, times_from_log

    players = (PlayerInfo(name), PlayerInfo("Other"))

    def save(game, arbiter, index) -> None:
        times = times_from_log(arbiter.log, arbiter.start_time)
        save_replay(game, times, new_meta(players), replay_dir(), name=f"{name}{index}.json")

    for index in range(games):
        play_game((Seat.parse(seat), Seat.parse("medium")), index=index, on_finish=save)


async def test_match_me_plays_at_the_players_own_fitted_speed(clock: FakeClock) -> None:
    from spit.bots.reaction import REACTIONS
    from spit.store.coaching import speed_profile

    save_games_of("Ann", "medium:expert", 3)
    fitted = speed_profile("Ann")
    assert fitted.fitted and fitted.reaction != REACTIONS["medium"]
    app = make_app(clock, opponents={1: "match-me"}, names=("Ann", "Bob"), bot_seed=1)
    async with running(app):
        session = screen_of(app).session
        bot = session.agents[1]
        assert isinstance(bot, Bot)
        assert bot.reaction == fitted.reaction
        assert bot.strategy.name == make_strategy("expert").name
        assert session.names[1] == "Computer (like Ann)"
        assert session.levels == {1: "me:Ann"}
        assert "as fast as Ann" in region(app, "news")
    app = make_app(clock, opponents={1: "me:Zed"}, bot_seed=1)
    async with running(app):  # nobody's games: the default, medium's speed
        session = screen_of(app).session
        assert session.agents[1].reaction == REACTIONS["medium"]
        assert session.names[1] == "Computer (like Zed)"
        # issue 21 defect 8: it says so, and at which speed it plays
        news = region(app, "news")
        assert "Too few saved plays of Zed" in news and "medium level's speed" in news


def test_unknown_match_me_level_is_refused(clock: FakeClock) -> None:
    import pytest

    with pytest.raises(ValueError, match="match-me"):
        make_app(clock, opponents={1: "mimic"})


async def test_a_resumed_match_brings_back_its_match_me_player(clock: FakeClock) -> None:
    import json

    from spit.engine import SpitConfig, SpitGame
    from spit.store.replays import PlayerInfo, new_meta, parse_replay, replay_data

    game = SpitGame(SpitConfig.from_variants(["V4"]), 3)
    meta = new_meta((PlayerInfo("Ann"), PlayerInfo("Computer (like Ann)", bot="me:Ann")))
    saved = parse_replay(json.dumps(replay_data(game, [], meta)))
    app = make_app(clock, start=None, resumed=saved, bot_seed=2)
    async with running(app) as pilot:
        await pilot.pause()
        # a resumed game opens paused, with its board under the pause box
        board = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        session = board.session
        assert session is not None
        assert isinstance(session.agents[1], Bot) and 0 not in session.agents
        assert session.levels == {1: "me:Ann"}
        assert session.names == ("Ann", "Computer (like Ann)")


def test_the_app_defaults_are_the_settings_file_defaults() -> None:
    from spit.bots import DEFAULT_LEVEL, LEVELS
    from spit.engine import all_modes
    from spit.store import settings
    from spit.tui.app import GameSettings, settings_from_user

    assert GameSettings() == settings_from_user(UserSettings())
    assert GameSettings().computer_auto_spit == UserSettings().auto_spit
    assert settings.BOT_LEVELS == LEVELS and UserSettings().bot_level == DEFAULT_LEVEL
    for mode in all_modes():  # each mode's schema lets a player choose every one of its rules
        assert tuple(s.variant for s in mode.settings if s.variant) == tuple(mode.variants)
