"""SVG snapshots of the screens at 80x24 (the board also at 120x36 and 160x48, where
its cards are bigger), on a frozen clock with fixed deals.

Update the baselines with ``python3 -m pytest tests/tui/test_snapshots.py --snapshot-update``
and look at them before committing.
"""

from __future__ import annotations

from tests.support import FakeClock
from tui_helpers import make_app, stuck, to_slap

from spit.engine import Game, SpeedConfig, SpeedGame, SpitGame, card

SIZE = (80, 24)
MEDIUM = (120, 36)
LARGE = (160, 48)


def test_title_screen(snap_compare) -> None:
    assert snap_compare(make_app(FakeClock(), start=None), terminal_size=SIZE)


def test_spit_board_in_play(snap_compare) -> None:
    # seed 7: both call, then player 2 plays 6S on the right pile (5S)
    app = make_app(FakeClock(), seed=7)
    assert snap_compare(app, press=["1", "0", "h"], terminal_size=SIZE)


def test_spit_board_in_play_120x36(snap_compare) -> None:
    app = make_app(FakeClock(), seed=7)
    assert snap_compare(app, press=["1", "0", "h"], terminal_size=MEDIUM)


def test_spit_board_in_play_160x48(snap_compare) -> None:
    app = make_app(FakeClock(), seed=7)
    assert snap_compare(app, press=["1", "0", "h"], terminal_size=LARGE)


def test_spit_board_a_played_card_lit_up(snap_compare) -> None:
    # the effect of P2's 6S onto 5S: the slot it left and the pile it reached
    app = make_app(FakeClock(), seed=7, effects=True)
    assert snap_compare(app, press=["1", "0", "h"], terminal_size=SIZE)


def test_spit_board_a_played_card_lit_up_160x48(snap_compare) -> None:
    app = make_app(FakeClock(), seed=7, effects=True)
    assert snap_compare(app, press=["1", "0", "h"], terminal_size=LARGE)


def test_spit_stalemate(snap_compare) -> None:
    app = make_app(FakeClock(), stuck)
    assert snap_compare(app, press=["1", "0", "a"], terminal_size=SIZE)


def test_spit_slap_phase(snap_compare) -> None:
    app = make_app(FakeClock(), lambda: to_slap(SpitGame(seed=11)))
    assert snap_compare(app, terminal_size=SIZE)


def test_spit_slap_phase_120x36(snap_compare) -> None:
    app = make_app(FakeClock(), lambda: to_slap(SpitGame(seed=11)))
    assert snap_compare(app, terminal_size=MEDIUM)


def test_spit_game_over(snap_compare) -> None:
    def one_card() -> SpitGame:
        six, five = card("6", "D"), card("5", "C")
        rest = [c for c in range(52) if c not in (six, five)]
        return SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])

    app = make_app(FakeClock(), one_card)
    assert snap_compare(app, press=["0", "a"], terminal_size=SIZE)


def speed_game() -> Game:
    return SpeedGame(SpeedConfig(), seed=5)


def test_speed_board_opening(snap_compare) -> None:
    app = make_app(FakeClock(), speed_game, start="speed")
    assert snap_compare(app, press=["a"], terminal_size=SIZE)


def test_speed_board_in_play(snap_compare) -> None:
    app = make_app(FakeClock(), speed_game, start="speed")
    assert snap_compare(app, press=["1", "0", "i"], terminal_size=SIZE)  # P2: Q♠ on J♠


def test_speed_board_in_play_160x48(snap_compare) -> None:
    app = make_app(FakeClock(), speed_game, start="speed")
    assert snap_compare(app, press=["1", "0", "i"], terminal_size=LARGE)


def test_speed_board_in_play_ascii_120x36(snap_compare) -> None:
    app = make_app(FakeClock(), speed_game, start="speed", ascii_only=True)
    assert snap_compare(app, press=["1", "0", "i"], terminal_size=MEDIUM)


def test_tutorial_lesson_after_a_wrong_key(snap_compare) -> None:
    # Lesson 1: "s" would play 8H on the king; the lesson explains why not.
    app = make_app(FakeClock(), start="tutorial")
    assert snap_compare(app, press=["s"], terminal_size=SIZE)


def test_tutorial_lesson_done(snap_compare) -> None:
    # Lesson 5 (R16) reached through the course; "a" slaps the smaller, right pile.
    app = make_app(FakeClock(), start="tutorial")
    keys = ["w", "enter", "d", "enter", "b", "enter", "1", "enter", "a"]
    assert snap_compare(app, press=keys, terminal_size=SIZE)


def test_statistics_screen_with_charts(snap_compare) -> None:
    from spit.tui.charts import ChartData
    from spit.tui.library import StatsScreen

    ratings = [1500.0, 1512.5, 1530.0, 1521.0, 1544.0, 1561.0, 1549.5, 1575.0]
    reactions = [0.4 + 0.05 * (i % 17) + 0.3 * (i % 5 == 0) for i in range(120)]
    data = ChartData("Ann", "spit", ratings, reactions)

    async def open_charts(pilot) -> None:
        await pilot.app.push_screen(StatsScreen(data=data))
        await pilot.pause()

    app = make_app(FakeClock(), start=None)
    assert snap_compare(app, run_before=open_charts, terminal_size=SIZE)
