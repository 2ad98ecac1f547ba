"""Settings, records, replays and resumable matches in the app (issue 6), through Pilot.

Every test runs with SPIT_CONFIG and SPIT_DATA_DIR in its own tmp_path
(``isolated_dirs`` in conftest.py), never the user's real files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, region, screen_of, written

from spit import cli
from spit.engine import Phase, SpitConfig, SpitGame, call, card
from spit.engine.actions import STALL
from spit.store.paths import database_path, replay_dir
from spit.store.records import load_results
from spit.store.replays import PlayerInfo, load_replay, new_meta, save_replay
from spit.store.resume import list_saved_games
from spit.store.settings import Settings as UserSettings
from spit.store.settings import load_settings, save_settings
from spit.tui.app import AppDependencies, Opening, SpitApp
from spit.tui.dialogs import RoundScreen, SettingsScreen, WarningsScreen
from spit.tui.launch import configured_app
from spit.tui.screens import GameScreen, PauseScreen
from spit.tui.title import TitleScreen
from spit.tui.viewer import ReplayScreen
from spit.tui.widgets.board import Board


def one_card() -> SpitGame:
    """P1 holds one card (6D) and no spit cards: playing it on 5C wins by R20."""
    six, five = card("6", "D"), card("5", "C")
    rest = [c for c in range(52) if c not in (six, five)]
    return SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])


def last_stall_of_round(target: int) -> SpitGame:
    """A V4 game in play with no spit cards left: the next stall ends the round (R15b)."""
    game = SpitGame(SpitConfig(scoring=True, target_score=target), seed=11)
    for _ in range(200):
        if game.phase is Phase.PLAY:
            if not game.spit[0] and not game.spit[1]:
                return game
            game.apply(STALL)
        else:
            for p in (0, 1):
                if call(p) in game.legal_actions(p):
                    game.apply(call(p))
    raise AssertionError("never ran out of spit cards")


async def end_round_by_stall(app: SpitApp, clock: FakeClock, pilot) -> tuple[int, int]:
    """H6: nobody plays for the stall time, so the round ends; returns the cards each held."""
    game = screen_of(app).session.game
    held = (game.card_count(0), game.card_count(1))
    clock.advance(10.5)
    screen_of(app).run_tick()
    await pilot.pause()
    return held


# ------------------------------------------------------------------ settings


async def test_settings_screen_edits_saves_and_reloads(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#name1").value = "Ann"
        screen.query_one("#slap_time").value = "2.5"
        screen.query_one("#repeat_window").value = "0.3"
        screen.query_one("#rule-spit-target").value = "40"
        screen.query_one("#rule-speed-target").value = "20"
        screen.query_one("#auto_spit").value = "off"
        screen.query_one("#rule-spit-scoring").value = True
        screen.query_one("#rule-speed-long_deal").value = True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "Saved to" in str(screen.query_one("#settings-message").render())
        # the file holds the edits, and the app uses them from now on
        saved, warnings = load_settings()
        assert warnings == []
        assert saved.names == ("Ann", "Player 2")
        spit, speed = saved.rules_of("spit"), saved.rules_of("speed")
        assert spit["scoring"] and not spit["four_stocks"] and speed["long_deal"]
        assert saved.slap_time == 2.5 and saved.auto_spit is None
        assert saved.repeat_window == 0.3 and app.settings.keymap.repeat_window == 0.3
        assert spit["target"] == 40 and speed["target"] == 20
        assert (
            app.settings.names == ("Ann", "Player 2") and app.settings.game.timing.slap_time == 2.5
        )
        assert app.settings.game.rules_of("spit")["target"] == 40
        assert app.settings.game.variants("spit") == ("V4",)
        assert app.settings.game.variants("speed") == ("P1b",)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
    # a new app reads the file back and the settings screen shows the saved values
    fresh = configured_app(deps=AppDependencies(clock=FakeClock()))
    async with running(fresh) as pilot:
        fresh.push_screen(SettingsScreen(fresh.settings, fresh.deps.save_settings))
        await pilot.pause()
        assert fresh.screen.query_one("#name1").value == "Ann"
        assert fresh.screen.query_one("#slap_time").value == "2.5"
        assert fresh.screen.query_one("#rule-spit-scoring").value is True
        assert fresh.screen.query_one("#rule-spit-four_stocks").value is False
        assert fresh.screen.query_one("#rule-speed-long_deal").value is True
        assert fresh.screen.query_one("#rule-speed-target").value == "20"


async def test_settings_screen_refuses_a_bad_value_and_keeps_the_file(clock: FakeClock) -> None:
    save_settings(UserSettings(slap_time=4.0))
    app = configured_app(deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#slap_time").value = "slow"
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert "Not saved" in message and "'slow' is not a number" in message
    assert load_settings()[0].slap_time == 4.0


async def test_settings_screen_says_when_the_file_cannot_be_written(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the settings folder should be")
    monkeypatch.setenv("SPIT_CONFIG", str(blocker / "config.toml"))
    app = configured_app(deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#name1").value = "Ann"
        await pilot.press("ctrl+s")
        await pilot.pause()
        message = str(app.screen.query_one("#settings-message").render())
        assert message.startswith("Not saved:")
        assert app.settings.names[0] != "Ann"  # nothing was applied either


async def test_config_mistakes_are_shown_with_file_and_line_and_defaults_used(
    isolated_dirs: Path,
) -> None:
    path = isolated_dirs / "config" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[players]\nplayer1 = "Ann"\n\n[timing]\nslap_time = "slow"\n')
    app = configured_app(Opening("spit"), deps=AppDependencies(clock=FakeClock()))
    async with running(app) as pilot:
        assert isinstance(app.screen, WarningsScreen)
        shown = " ".join(str(w.render()) for w in app.screen.query(".warning"))
        assert f"{path}, line 5: timing.slap_time" in shown and "using 3" in shown
        await pilot.press("enter")
        await pilot.pause()
        # the game starts with the good part applied and the default for the bad part
        session = screen_of(app).session
        assert session.names[0] == "Ann"
        assert session.arbiter.timing.slap_time == 3.0


def test_cli_applies_the_config_and_target_options(launched: list[SpitApp]) -> None:
    user = UserSettings(names=("Ann", "Bob"), bot_level="hard")
    save_settings(user.with_rules("spit", four_stocks=True).with_rules("speed", long_deal=True))
    apps = launched
    assert cli.main(["speed", "--target", "20"]) == 0
    game = apps[0].settings.game
    assert game.rules_of("speed")["target"] == 20 and apps[0].settings.names == ("Ann", "Bob")
    assert game.variants("speed") == ("P1b",) and game.bot_level == "hard"
    assert game.variants("spit") == ("V1",)
    assert cli.main(["play", "--target", "30", "--variant", "V3"]) == 0
    # P7/V4: a target on the command line plays a match; --variant replaces the file's
    game = apps[1].settings.game
    assert game.rules_of("spit")["target"] == 30 and game.variants("spit") == ("V3", "V4")
    assert game.variants("speed") == ("P1b",)  # another game's rules are its own


# ------------------------------------------------------------------ matches


async def test_v4_between_rounds_screen_shows_the_round_and_the_score(clock: FakeClock) -> None:
    app = make_app(clock, lambda: last_stall_of_round(target=1000))
    async with running(app) as pilot:
        game = screen_of(app).session.game
        held = await end_round_by_stall(app, clock, pilot)
        assert game.phase is Phase.SLAP and game.scores == list(held)
        await pilot.press("k", "e")  # P2 slaps the right pile, P1 the left
        await pilot.pause()
        assert isinstance(app.screen, RoundScreen)
        text = str(app.screen.query_one("#round-text").render())
        assert "Stuck, and no spit cards left" in text
        assert "Player 1 took the left pile" in text and "Player 2 took the right pile" in text
        assert f"Points this round: Player 1 {held[0]}, Player 2 {held[1]}" in text
        assert f"Score: Player 1 {held[0]} - Player 2 {held[1]}" in text
        # the game waits while the screen is up
        assert screen_of_game(app).paused
        # the match was saved when the new round was dealt (never lose a match)
        await written(app, pilot)
        (saved,) = list_saved_games()
        assert saved.replay.final.round_no == 2
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and not app.screen.paused
        assert game.phase is Phase.OPENING and game.round_no == 2


def screen_of_game(app: SpitApp) -> GameScreen:
    return next(s for s in app.screen_stack if isinstance(s, GameScreen))


async def test_v4_match_end_is_shown_and_recorded_as_a_match(clock: FakeClock) -> None:
    app = make_app(clock, lambda: last_stall_of_round(target=1))
    async with running(app) as pilot:
        held = await end_round_by_stall(app, clock, pilot)
        assert isinstance(app.screen, RoundScreen)
        assert "The match is over" in str(app.screen.query_one(".box-title").render())
        await pilot.press("enter")
        await pilot.pause()
        game = screen_of(app).session.game
        assert game.phase is Phase.GAME_OVER and game.result == "score"
        await written(app, pilot)
        assert "Result saved" in region(app, "flash")
    results, skipped = load_results()
    assert skipped == 0 and len(results) == 1
    result = results[0]
    assert result.kind == "match" and result.mode == "spit" and result.variants == ("V4",)
    assert result.scores == held
    # V4: the lowest total wins (equal totals are a draw)
    expected = None if held[0] == held[1] else (0 if held[0] < held[1] else 1)
    assert result.winner == expected
    assert list_saved_games() == []  # a finished match leaves nothing to resume


# ------------------------------------------------------------------ records


async def test_finished_game_is_recorded_with_its_replay(clock: FakeClock) -> None:
    app = make_app(clock, one_card, names=("Ann", "Bob"))
    async with running(app) as pilot:
        clock.advance(1.0)
        await pilot.press("0")
        clock.advance(0.5)
        await pilot.press("a")  # P1 plays 6D on 5C: no cards left, R20
        await pilot.pause()
        game = screen_of(app).session.game
        assert game.phase is Phase.GAME_OVER
        await written(app, pilot)
        assert "Result saved" in region(app, "flash")
    (result,), _ = load_results()
    assert result.players == (PlayerInfo("Ann"), PlayerInfo("Bob"))
    assert result.kind == "game" and result.winner == 0 and result.reason == "R20"
    assert result.duration == pytest.approx(1.5)
    replay = load_replay(replay_dir() / result.replay)
    assert replay.final.fingerprint() == game.fingerprint()
    # P2 called (spitting alone) at 1.0 s and P1 played at 1.5 s: the times are the keys'
    assert [(t, a.player) for t, a in replay.timed] == [(1.0, 1), (1.5, 0)]


async def test_database_failure_is_shown_and_play_goes_on(clock: FakeClock) -> None:
    database_path().mkdir(parents=True)  # a folder where the database file should be
    app = make_app(clock, one_card)
    async with running(app) as pilot:
        await pilot.press("0", "a")
        await written(app, pilot)
        flash = region(app, "flash")
        assert flash.startswith("✗ Result not saved: ")
        assert len(list(replay_dir().glob("*.json"))) == 1  # the replay was still kept
        await pilot.press("enter")  # play again
        await pilot.pause()
        assert screen_of(app).session.game.phase is Phase.OPENING


# ------------------------------------------------------------------ replays


def short_replay(tmp: Path) -> Path:
    """A replay of a finished game with actions 0.25 s apart."""
    game = SpitGame(SpitConfig(round_limit=3), seed=5)
    times: list[float] = []
    while not game.over:
        if game.phase is Phase.PLAY:
            legal = game.legal_actions(0) + game.legal_actions(1)
            game.apply(legal[0] if legal else STALL)
        else:
            actions = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(2)
            game.apply(actions[0])
        times.append(0.25 * len(times))
    return save_replay(game, times, new_meta((PlayerInfo("Ann"), PlayerInfo("Bob"))), tmp)


async def test_replay_viewer_speed_pause_step_restart(tmp_path: Path) -> None:
    clock = FakeClock()
    replay = load_replay(short_replay(tmp_path))
    app = SpitApp(opening=Opening(replay=replay), deps=AppDependencies(clock=clock))
    async with running(app) as pilot:
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "Replay playing at 1x" in region_of(screen, "status")
        assert "space  pause" in region_of(screen, "footer")  # the keys are on screen
        clock.advance(1.0)
        screen.run_tick()
        # 1x: after 1 s the actions at 0, 0.25, 0.5, 0.75 and 1.0 s are played
        assert screen.playback.index == 5
        await pilot.press("2")
        clock.advance(1.0)
        screen.run_tick()
        assert screen.playback.index == 13  # 2x: the replay is at 3.0 s
        assert "at 2x" in region_of(screen, "status")
        await pilot.press("space")
        clock.advance(5.0)
        screen.run_tick()
        assert screen.playback.index == 13 and "PAUSED" in region_of(screen, "status")
        await pilot.press("right")
        assert screen.playback.index == 14  # one step
        assert screen.session.game is screen.playback.game
        await pilot.press("r")
        assert screen.playback.index == 0
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code in (0, None)


def region_of(screen: ReplayScreen, name: str) -> str:
    return screen.query_one(Board).text(name).plain


def test_bad_replay_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "spit-game"')
    assert cli.main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(bad) in err and "Traceback" not in err


# ------------------------------------------------------------------ resume


async def crash_after_round_one(clock: FakeClock) -> str:
    """Play a V4 match into round 2, then stop the app as a crash would; the saved fingerprint."""
    app = make_app(clock, lambda: last_stall_of_round(target=1000))
    async with running(app) as pilot:
        await end_round_by_stall(app, clock, pilot)
        await pilot.press("k", "e")
        await written(app, pilot)
        assert isinstance(app.screen, RoundScreen)
    (saved,) = list_saved_games()
    return json.loads(saved.path.read_text())["fingerprint"]


async def test_resume_match_from_the_title_menu(clock: FakeClock) -> None:
    fingerprint = await crash_after_round_one(clock)
    app = make_app(FakeClock(), start=None)
    async with running(app) as pilot:
        menu = app.screen.query_one("#menu")
        assert menu.get_option_at_index(0).id == "resume"
        await pilot.press("enter")  # the list of unfinished games
        await pilot.pause()
        await pilot.press("enter")  # the one there is
        await pilot.pause()
        assert isinstance(app.screen, PauseScreen)  # the game waits for the players
        assert "Resumed: round 2, score" in str(app.screen.query_one("#pause-box").render())
        await pilot.press("space")
        await pilot.pause()
        session = screen_of(app).session
        assert session.game.fingerprint() == fingerprint
        assert session.game.round_no == 2 and session.game.config.scoring


async def test_spit_resume_after_a_crash(clock: FakeClock, launched: list[SpitApp]) -> None:
    fingerprint = await crash_after_round_one(clock)
    apps = launched
    assert cli.main(["resume"]) == 0
    app = apps[0]
    assert app.opening.resumed is not None
    app.deps.clock = FakeClock()
    async with running(app) as pilot:
        await pilot.pause()
        await pilot.press("space")  # go on from the "Resumed" pause box
        await pilot.pause()
        session = screen_of(app).session
        assert session.game.fingerprint() == fingerprint
        # the resumed match goes on: both call, and the match file still holds the match
        await pilot.press("1", "0")
        assert session.game.phase is not Phase.OPENING
        (saved,) = list_saved_games()
        assert saved.replay.final.round_no == 2
