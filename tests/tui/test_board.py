"""The board on Textual's Line API: its layout at three sizes, its rows, its refreshes,
its effects."""

from __future__ import annotations

import pytest
from tests.support import FakeClock
from tests.support.pilot import running
from textual.geometry import Region
from tui_helpers import make_app, playable, region, screen_of

from spit.tui.render import LARGE, MEDIUM, SCALES, SMALL, scale_for
from spit.tui.widgets.board import REGIONS, Board, layout

SIZES = [(80, 24, SMALL), (100, 30, SMALL), (120, 36, MEDIUM), (159, 47, MEDIUM), (160, 48, LARGE)]


@pytest.mark.parametrize("scale", SCALES, ids=lambda s: s.name)
def test_each_scale_lays_the_regions_out_in_order_without_overlap(scale) -> None:
    rows = layout(scale)
    assert list(rows) == [spec.name for spec in REGIONS]
    end = 0
    for top, height in rows.values():
        assert top >= end and height >= 1
        end = top + height
    assert end == scale.height  # the board's rows, to the last


def test_the_80x24_layout_is_the_one_it_always_had() -> None:
    assert layout(SMALL) == {
        "topbar": (0, 1),
        "p2-info": (1, 1),
        "p2-cards": (2, 5),
        "centre": (8, 5),
        "p1-cards": (14, 5),
        "p1-info": (19, 1),
        "status": (20, 1),
        "news": (21, 1),
        "flash": (22, 1),
        "footer": (23, 1),
    }


@pytest.mark.parametrize(("width", "height", "scale"), SIZES)
def test_the_largest_scale_that_fits_is_chosen(width: int, height: int, scale) -> None:
    assert scale_for(width, height) is scale


@pytest.mark.parametrize(("width", "height", "scale"), SIZES)
async def test_each_row_shows_its_regions_line_at_every_size(
    width: int, height: int, scale
) -> None:
    """After each key, the rows are the regions' texts at their rows (centred), all else blank."""
    app = make_app(FakeClock(), playable)
    async with running(app, size=(width, height)) as pilot:
        board = screen_of(app).board
        assert board.scale is scale
        left = (width - scale.width) // 2
        offset = (height - scale.height) // 2
        for key in ("1", "0", "q", "j", "w"):
            await pilot.press(key)
            await pilot.pause()
            shown = [board.render_line(y).text for y in range(height)]
            used: set[int] = set()
            for name, (top, rows) in layout(scale).items():
                lines = board.text(name).plain.split("\n")
                for y in range(rows):
                    line = lines[y] if y < len(lines) else ""
                    row = shown[offset + top + y]
                    assert row[:left].strip() == "", (key, name)
                    assert row[left:].rstrip() == line.rstrip(), (key, name, y)
                    used.add(offset + top + y)
            assert all(not shown[y].strip() for y in range(height) if y not in used)


async def test_bigger_boards_draw_bigger_cards() -> None:
    widths = {}
    for size, scale in (((80, 24), SMALL), ((120, 36), MEDIUM), ((160, 48), LARGE)):
        app = make_app(FakeClock(), playable)
        async with running(app, size=size) as pilot:
            await pilot.pause()
            cards = region(app, "p1-cards").split("\n")
            assert len(cards) == scale.card_height + 1
            top = cards[0]
            widths[scale.name] = top.index("╮") - top.index("╭") + 1
            assert "6♦" in region(app, "p1-cards")
    assert widths == {"80x24": 7, "120x36": 11, "160x48": 15}


async def test_a_played_card_refreshes_only_its_changed_rows_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = make_app(FakeClock(), playable)
    async with running(app) as pilot:
        board = screen_of(app).board
        for key in ("1", "0"):  # the opening
            await pilot.press(key)
        await pilot.pause()
        calls: list[tuple[Region, ...]] = []
        refresh = board.refresh

        def counted(*regions: Region, **kwargs: bool) -> Board:
            calls.append(regions)
            return refresh(*regions, **kwargs)

        monkeypatch.setattr(board, "refresh", counted)
        await pilot.press("q")  # P1's 6D onto 5C: the cards, the centre, the news
        rows = {y for regions in calls for r in regions for y in r.line_range}
        assert len(calls) == 1
        assert {15, 10, 21} <= rows  # a card line of p1-cards, of the centre, the news
        assert not rows & {0, 1, 19, 23}  # the top bar, the info lines, the footer: unchanged


async def test_a_played_card_lights_its_slot_and_pile_up_in_ascii_too() -> None:
    clock = FakeClock()
    app = make_app(clock, playable, effects=True, ascii_only=True)
    async with running(app) as pilot:
        for key in ("1", "0"):
            await pilot.press(key)
        clock.advance(1.0)
        await pilot.press("q")  # P1's 6D onto 5C
        await pilot.pause()
        # heavy lines, which show without colour: "#" corners and "=" edges in ASCII
        first = region(app, "p1-cards").split("\n")[0]
        assert first.lstrip().startswith("# = = #")  # the slot it left (now empty)
        assert "#=====#" in region(app, "centre")
        clock.advance(0.25)
        screen_of(app).run_tick()
        await pilot.pause()
        assert "#" not in region(app, "p1-cards") and "#=" not in region(app, "centre")


async def test_reduce_motion_shows_no_effect() -> None:
    clock = FakeClock()
    app = make_app(clock, playable, effects=False)
    async with running(app) as pilot:
        for key in ("1", "0", "q"):
            await pilot.press(key)
        await pilot.pause()
        assert "┍" not in region(app, "p1-cards") + region(app, "centre")
        assert "6♦" in region(app, "centre")


async def test_the_settings_file_turns_the_effects_off_and_the_sound_on() -> None:
    from spit.store.settings import Settings as UserSettings
    from spit.store.settings import load_settings, save_settings
    from spit.tui.dealer import AppDependencies, Opening
    from spit.tui.launch import configured_app

    for reduce_motion, sound in ((False, False), (True, True)):
        save_settings(UserSettings(reduce_motion=reduce_motion, sound=sound))
        assert load_settings()[0].reduce_motion is reduce_motion
        app = configured_app(Opening("spit"), deps=AppDependencies(clock=FakeClock()))
        async with running(app) as pilot:
            await pilot.pause()
            controller = screen_of(app).controller
            assert controller is not None
            assert controller.effects.enabled is not reduce_motion
            assert controller.sound is sound


async def test_the_settings_screen_saves_the_effects_and_sound_choices() -> None:
    from spit.store.settings import load_settings
    from spit.tui.dialogs import SettingsScreen

    app = make_app(FakeClock(), start=None)
    async with running(app) as pilot:
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await pilot.pause()
        app.screen.query_one("#effects").value = "off"
        app.screen.query_one("#sound").value = "on"
        await pilot.press("ctrl+s")
        await pilot.pause()
    saved = load_settings()[0]
    assert saved.reduce_motion and saved.sound


async def test_the_bell_rings_on_a_stalemate_with_the_sound_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui_helpers import stuck

    for sound in (False, True):
        app = make_app(FakeClock(), stuck)
        app.settings.user = app.settings.user.with_changes(sound=sound)
        rung: list[bool] = []
        monkeypatch.setattr(app, "bell", lambda rung=rung: rung.append(True))
        async with running(app) as pilot:
            await pilot.press("1", "0")  # the opening spit, and at once a stalemate
            await pilot.pause()
        assert bool(rung) is sound


async def test_a_slap_shows_which_pile_went_to_whom_and_the_cards_dealt_back() -> None:
    from tui_helpers import to_slap

    from spit.engine import SpitGame

    clock = FakeClock()
    app = make_app(clock, lambda: to_slap(SpitGame(seed=11)), effects=True)
    async with running(app) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        await pilot.press("a")  # Player 1 slaps the right pile
        await pilot.pause()
        assert "▼ to #1" in region(app, "centre").split("\n")[0]  # down to Player 1 (#1)
        clock.advance(5.0)  # the slap time runs out: the piles are taken, the round dealt
        screen.run_tick()
        await pilot.pause()
        assert "round 2" in region(app, "topbar")
        cards = region(app, "p1-cards") + region(app, "p2-cards")
        assert "┍" in cards  # the layouts dealt again light up
        clock.advance(1.0)
        screen.run_tick()
        await pilot.pause()
        assert "to P" not in region(app, "centre")
        assert "┍" not in region(app, "p1-cards") + region(app, "p2-cards")


async def test_after_a_theme_change_every_row_is_drawn_in_the_new_colours() -> None:
    app = make_app(FakeClock(), playable)
    async with running(app, size=(100, 30)) as pilot:  # blank rows above and below the board
        board = screen_of(app).board
        app.theme = "textual-dark"
        await pilot.pause()
        rows = board.size.height

        def backgrounds() -> set[object]:
            lines = board.render_lines(board.size.region)  # as the compositor asks for them
            assert len(lines) == rows
            # each row starts with the board's own background: a blank row, or the
            # indent left of the drawn board
            return {next(iter(line)).style.bgcolor for line in lines}

        dark = backgrounds()
        app.theme = "textual-light"
        await pilot.pause()
        light = backgrounds()
        assert len(dark) == 1 and len(light) == 1 and dark != light
        assert light == {board.rich_style.bgcolor}
