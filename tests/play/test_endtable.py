"""The last table of a finished game: every card where it was when the game ended."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from spit.engine import SYSTEM, AnyGame, SpeedConfig, SpeedGame, SpitConfig, SpitGame, card
from spit.play.endtable import EndTable, cards_left, end_table, result_lines
from spit.play.session import Session


def played_out(game: AnyGame, seed: int, limit: int = 20_000) -> AnyGame:
    """``game`` played by random legal actions (both players and the system) to its end."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.over:
            return game
        legal = game.legal_actions(0) + game.legal_actions(1) + game.legal_actions(SYSTEM)
        game.apply(rng.choice(legal))
    raise AssertionError("the game did not end")


def on_the_table(table: object) -> int:
    """Every card the board shows: places, face-down reserves, piles and side piles."""
    held = sum(cards_left(table, p) for p in (0, 1))  # type: ignore[arg-type]
    piles = sum(len(p) for p in table.piles)  # type: ignore[attr-defined]
    sides = table.side_pile_sizes()  # type: ignore[attr-defined]
    return held + piles + (sum(sides) if sides else 0)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    variants=st.sets(st.sampled_from(["V1", "V2", "V3", "V4"])),
)
@example(seed=15497167, variants={"V2", "V3"})  # the round limit right after a play
def test_R20_the_last_table_of_a_finished_spit_game_holds_all_52_cards(
    seed: int, variants: set[str]
) -> None:
    """However a Spit game ends (a win by R20, a match's score, the round limit), the
    table the board shows at its end holds every card of the deck."""
    config = SpitConfig.from_variants(sorted(variants), target_score=30, round_limit=4)
    game = played_out(SpitGame(config, seed), seed)
    session = Session.local(game)
    assert session.table.over and session.table.winner == game.winner
    assert on_the_table(session.table) == 52


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), long_deal=st.booleans())
def test_P6_a_finished_speed_game_shows_its_own_table(seed: int, long_deal: bool) -> None:
    """Speed leaves every card where it lies at the end: no table to rebuild."""
    game = played_out(SpeedGame(SpeedConfig(long_deal=long_deal), seed), seed)
    assert end_table(game) is None
    assert Session.local(game).table is game and on_the_table(game) == 52


def test_R19_the_winners_last_card_is_on_its_pile_and_the_loser_keeps_their_cards() -> None:
    six, five = card("6", "D"), card("5", "C")
    rest = [c for c in range(52) if c not in (six, five)]
    game = SpitGame(seed=3, packets=[[six], [*rest[:15], five, *rest[15:]]])
    game.apply(game.legal_actions(1)[0])  # P2's opening call
    game.apply(game.legal_actions(0)[0])  # P1 plays 6D: the layout is empty, P1 wins
    assert game.over and not any(game.piles)  # the engine gathered everything
    table = end_table(game)
    assert isinstance(table, EndTable)
    assert table.piles[1][-1] == six and len(table.piles[1]) == 2
    assert all(top is None for top, _ in table.columns(0))
    assert cards_left(table, 1) == 50 and table.reserve_size(1) == 35
    lines = result_lines(table, ("Ann", "Bob"), "0:03")
    assert lines[0] == "Ann has no cards left and wins the game!"
    assert lines[1:] == ["Left on the table: Ann 0 cards, Bob 50", "Game time 0:03"]


def test_a_match_leads_with_its_score_and_target() -> None:
    game = played_out(SpitGame(SpitConfig.from_variants(["V4"], target_score=20), 5), 5)
    table = Session.local(game).table
    a, b = game.scores
    lines = result_lines(table, ("Ann", "Bob"), "1:02")
    assert lines[1] == f"Score: Ann {a}, Bob {b} (the match is to 20)"


def test_a_network_guests_session_has_a_clock_and_a_table_too() -> None:
    """``RemoteSession`` builds its own fields (no ``Session.__init__``): the board's
    game clock and last table must work on it all the same."""
    from spit.net.view import RemoteSession

    guest = RemoteSession(None, clock=lambda: 100.0)
    # the host's game clock: it stands until the host says the game runs
    assert guest.game_time(100.0) == 0.0 and guest.game_time(103.5) == 0.0
    welcome = {
        "t": "welcome",
        "seat": 0,
        "mode": "spit",
        "config": {"v": 1, "rules": {}},
        "names": ["A", "B"],
        "window": 0.05,
        "seats": [True, True],
        "played": 2.0,
    }
    guest.receive(welcome, now=100.0)
    assert guest.game_time(100.0) == 2.0 and guest.game_time(103.5) == 5.5
    assert guest.table is guest.game  # not over: the game itself
    assert guest.tick(104.0) in (True, False)
