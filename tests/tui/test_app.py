"""The app driven by keys through Textual's Pilot, on a fake clock."""

from __future__ import annotations

from tests.support import FakeClock
from tests.support.pilot import running
from tui_helpers import make_app, play_from_menu, playable, region, screen_of, stuck, to_slap

from spit.engine import Phase, SpitGame, card
from spit.realtime.arbiter import Timing
from spit.tui.screens import GameScreen, HelpScreen, PauseScreen
from spit.tui.title import TitleScreen


async def test_title_menu_starts_a_spit_game(clock: FakeClock) -> None:
    app = make_app(clock, start=None)
    async with running(app) as pilot:
        assert isinstance(app.screen, TitleScreen)
        await play_from_menu(pilot)  # Play Spit, then Start on the setup screen
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.game.mode == "spit"
        await pilot.press("escape")  # back to the menu
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)


async def test_a_game_the_command_opened_gives_way_to_the_title_menu_built_then(
    clock: FakeClock,
) -> None:
    app = make_app(clock, playable)  # as 'spit play': straight to a board
    async with running(app) as pilot:
        assert isinstance(app.screen, GameScreen)
        assert not any(isinstance(s, TitleScreen) for s in app.screen_stack)  # not built yet
        await pilot.press("escape")  # nothing played: leaves at once
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        await play_from_menu(pilot)  # Play Spit, from the menu this time
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TitleScreen)
        assert sum(isinstance(s, TitleScreen) for s in app.screen_stack) == 1


async def test_ctrl_c_says_how_to_quit_and_changes_nothing(clock: FakeClock) -> None:
    """Players reach for ctrl+c: it neither quits nor plays, and a note names ctrl+q."""
    app = make_app(clock, playable)
    notes: list[str] = []
    app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
    async with running(app) as pilot:
        game = app.screen.session.game
        before = game.fingerprint()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.is_running
        assert game.fingerprint() == before
        assert len(notes) == 1 and "ctrl+q" in notes[0] and "quit" in notes[0]


async def test_r5_h2_both_call_spit_with_their_own_keys_then_play(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        game = screen_of(app).session.game
        assert "call SPIT!" in region(app, "status")
        await pilot.press("1")  # player 1's call key
        assert game.phase is Phase.OPENING and "✓ called" in region(app, "p1-info")
        await pilot.press("0")
        assert game.phase is Phase.PLAY
        await pilot.press("q")  # P1 stock 1 (6D) onto the left pile (5C)
        assert game.piles[0][-1] == card("6", "D")
        await pilot.press("j")  # P2 stock 2 (QD) onto the right pile (KD)
        assert game.piles[1][-1] == card("Q", "D")
        await pilot.pause()
        assert "Q♦" in region(app, "centre") and "6♦" in region(app, "centre")
        assert "Player 2 played Q♦ on the right pile" in region(app, "news")


async def test_r11_card_beaten_to_the_pile_flashes_with_the_reason(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        game = screen_of(app).session.game
        await pilot.press("1", "0")
        await pilot.press("q")  # P1's 6D lands on 5C
        clock.advance(0.1)
        await pilot.press("y")  # P2 aimed 6H at the same pile: too late
        await pilot.pause()
        assert game.piles[0][-1] == card("6", "D")
        assert game.stocks[1][0][-1] == card("6", "H")  # the card stays on its stock
        flash = region(app, "flash")
        assert "too late" in flash and "Player 1 put 6♦" in flash
        # the flash goes away after a moment
        clock.advance(2.0)
        screen_of(app).run_tick()
        await pilot.pause()
        assert region(app, "flash") == ""


async def test_illegal_move_flashes_the_engines_reason(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        await pilot.press("1", "0", "w")  # P1 stock 2 (8C) onto 5C: not adjacent
        await pilot.pause()
        assert "8♣ is not one rank above or below 5♣" in region(app, "flash")


async def test_r12_r13_stalemate_then_spit_by_any_key(clock: FakeClock) -> None:
    app = make_app(clock, stuck)
    async with running(app) as pilot:
        game = screen_of(app).session.game
        await pilot.press("1", "0")
        await pilot.pause()
        assert game.phase is Phase.STALEMATE
        assert "Both stuck: SPIT!" in region(app, "status")
        await pilot.press("x")  # any of player 1's keys calls
        await pilot.press(",")  # any of player 2's keys calls
        await pilot.pause()
        assert len(game.piles[0]) == 2 and len(game.piles[1]) == 2


async def test_h2_automatic_spit_when_the_countdown_ends(clock: FakeClock) -> None:
    app = make_app(clock, stuck, timing=Timing(auto_spit=2.0))
    async with running(app) as pilot:
        game = screen_of(app).session.game
        await pilot.press("1", "0")
        await pilot.pause()
        assert "(2 s)" in region(app, "status")
        clock.advance(2.0)
        screen_of(app).run_tick()
        await pilot.pause()
        assert len(game.piles[0]) == 2


async def test_r16_slap_by_keys_and_r17_new_layout(clock: FakeClock) -> None:
    app = make_app(clock, lambda: to_slap(SpitGame(seed=11)))
    async with running(app) as pilot:
        game = screen_of(app).session.game
        assert "Slap a pile!" in region(app, "status")
        round_no = game.round_no
        await pilot.press("b")  # bottom row slaps nothing: a hint instead
        assert "top row (left pile)" in region(app, "flash")
        await pilot.press("k")  # P2 home row: the right pile
        await pilot.press("e")  # P1 top row: the left pile
        await pilot.pause()
        assert game.round_no == round_no + 1 and game.phase is Phase.OPENING
        news = region(app, "news")
        assert news.startswith(f"Round {round_no + 1} dealt: ")
        assert "Player 1 took left (" in news and "Player 2 took right (" in news
        assert len(news) <= 80
        assert f"Round {round_no + 1}: call SPIT!" in region(app, "status")


async def test_r20_game_over_and_play_again(clock: FakeClock) -> None:
    def one_card() -> SpitGame:
        six, five = card("6", "D"), card("5", "C")
        rest = [c for c in range(52) if c not in (six, five)]
        return SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])

    app = make_app(clock, one_card)
    async with running(app) as pilot:
        screen = screen_of(app)
        await pilot.press("0", "a")  # P2 spits alone; P1 plays 6D onto the right pile
        await pilot.pause()
        assert screen.session.game.phase is Phase.GAME_OVER
        assert "Player 1 has no cards left and wins the game!" in region(app, "status")
        await pilot.press("enter")
        await pilot.pause()
        assert screen.session.game.phase is Phase.OPENING


async def test_help_pauses_the_game_and_closes(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = screen_of(app)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        assert screen.session.arbiter.paused
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and not screen.session.arbiter.paused


async def test_pause_ignores_game_keys_and_resumes(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = screen_of(app)
        game = screen.session.game
        await pilot.press("1", "0", "space")
        await pilot.pause()
        assert isinstance(app.screen, PauseScreen)
        await pilot.press("q")
        await pilot.pause()
        assert game.piles[0][-1] == card("5", "C")  # nothing was played
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is screen and not screen.session.arbiter.paused
        await pilot.press("q")
        assert game.piles[0][-1] == card("6", "D")


async def test_too_small_terminal_shows_a_message_and_recovers(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = screen_of(app)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        note = screen.query_one("#too-small")
        assert note.display and not screen.query_one("#board").display
        assert "needs at least 80x24" in str(note.render())
        assert screen.session.arbiter.paused
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert screen.query_one("#board").display and not note.display
        assert not screen.session.arbiter.paused


async def test_the_board_shows_again_after_a_too_small_terminal(clock: FakeClock) -> None:
    """Back from too small, the board is painted again, at its old size and a new one
    (it stayed blank once: its width was kept from while it was hidden)."""
    app = make_app(clock, playable)
    async with running(app, size=(100, 30)) as pilot:
        await pilot.press("1", "0", "q")
        await pilot.pause()
        for width, height in ((70, 20), (100, 30), (70, 20), (120, 40)):
            await pilot.resize_terminal(width, height)
            await pilot.pause()
            shot = app.export_screenshot().replace("&#160;", " ")
            if width < 80:
                assert "needs at least 80x24" in shot
            else:
                assert "left pile (Player 1)" in shot and "spit cards" in shot, (width, height)


async def test_boxes_over_a_too_small_board_fit_the_terminal(clock: FakeClock) -> None:
    """Below 80x24 the help, pause and leave boxes shrink to the terminal (they were cut
    off at their full width); the help page still scrolls to its end."""
    app = make_app(clock, playable)
    async with running(app) as pilot:
        await pilot.press("1", "0", "q")  # a card played: leaving asks first
        await pilot.resize_terminal(60, 18)
        await pilot.pause()
        boxes = (("f1", "#help-box"), ("space", "#pause-box"), ("escape", "#confirm-box"))
        for key, box_id in boxes:
            await pilot.press(key)
            await pilot.pause()
            box = app.screen.query_one(box_id)
            region = box.region
            assert region.x >= 0 and region.right <= 60, (box_id, region)
            assert region.y >= 0 and region.bottom <= 18, (box_id, region)
            if box_id == "#help-box":
                page = app.screen.query_one("#help-text")
                assert page.max_scroll_y > 0  # the rest is there, a scroll away
            await pilot.press("escape" if box_id != "#pause-box" else "space")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)


async def test_internal_error_becomes_a_message_not_a_crash(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        screen = screen_of(app)

        def broken(now=None):
            raise RuntimeError("boom")

        screen.session.tick = broken
        await pilot.press("1")
        await pilot.pause()
        assert "Internal error" in region(app, "flash") and "boom" in region(app, "flash")
        assert app.is_running and screen.paused


async def test_ctrl_q_quits_from_the_board(clock: FakeClock) -> None:
    app = make_app(clock, playable)
    async with running(app) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


async def test_against_the_computer_agent_plays_through_the_arbiter(clock: FakeClock) -> None:
    from spit.bots import make_bot

    bot = make_bot("expert", 1, seed=1)
    app = make_app(clock, playable, agents={1: bot}, names=("Ann", "Computer"))
    async with running(app) as pilot:
        screen = screen_of(app)
        game = screen.session.game
        assert "Computer" in region(app, "p2-info") and "(computer)" in region(app, "p2-info")
        await pilot.press("y")  # a key of the computer's side is not a human's
        assert "Computer is played by the computer" in region(app, "flash")
        await pilot.press("1")  # Ann calls; the bot calls when its reaction time is up
        for _ in range(50):
            clock.advance(0.2)
            screen.run_tick()
            if any(a.player == 1 and a.kind == 0 for _, a in screen.session.arbiter.log):
                break
        assert game.phase is not Phase.OPENING
        assert any(a.player == 1 and a.kind == 0 for _, a in screen.session.arbiter.log)


async def test_what_start_up_built_is_frozen_once_the_first_frame_shows(
    clock: FakeClock,
) -> None:
    """launch.run asks for it (``freeze_when_ready``): the collector's full collections
    then skip the screens and styles start-up made; a test's app asks for nothing."""
    import gc

    plain = make_app(clock, playable)
    before = gc.get_freeze_count()
    async with running(plain) as pilot:
        await pilot.pause()
        assert gc.get_freeze_count() == before
    app = make_app(clock, playable)
    app.freeze_when_ready = True
    try:
        async with running(app) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, GameScreen)
            assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()  # (back in the collector's care: this process goes on testing)
