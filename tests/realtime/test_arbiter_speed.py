"""The arbiter running Speed: the P4 flip pause, repeated flips, H6 stalls."""

from __future__ import annotations

from tests.support import FakeClock

from spit.engine import FLIP, STALL, Phase, SpeedConfig, SpeedGame, call, parse_cards, play
from spit.realtime.arbiter import Applied, Arbiter, Timing


def speed_deck(p1: str, p2: str, side1: str, side2: str, centre: str) -> list[int]:
    """A deck with the given hands, first side cards (turned in order) and centre cards."""
    named = [parse_cards(x) for x in (p1, p2, side1, side2, centre)]
    fixed = {c for group in named for c in group}
    rest = iter(c for c in range(52) if c not in fixed)
    sizes = (15, 15, 10, 10, 2)
    deck: list[int] = []
    for group, size in zip(named, sizes, strict=True):
        deck += group + [next(rest) for _ in range(size - len(group))]
    return deck


def test_p4_stalemate_side_piles_turn_after_the_flip_delay(clock: FakeClock) -> None:
    # Centre 5C/5D fits nothing; the first side cards (6C, 6D) fit nothing either;
    # the second ones (7C, 4D) free 8S and 3H.
    deck = speed_deck("8S 9S 10S JS QS", "3H 9H 10H JH QH", "6C 7C", "6D 4D", "5C 5D")
    game = SpeedGame(SpeedConfig(), seed=1, deck=deck)
    arbiter = Arbiter(game, Timing(flip_delay=1.0), clock)
    t = clock()
    arbiter.submit(call(0), at=t)
    arbiter.submit(call(1), at=t)
    arbiter.tick(t)
    assert game.phase is Phase.STALEMATE
    assert arbiter.timer() == (t + 1.0, "flip")
    assert arbiter.tick(t + 0.99) == []
    first = arbiter.tick(t + 1.0)
    assert [o.action for o in first] == [FLIP] and first[0].auto
    assert game.phase is Phase.STALEMATE  # sixes fit nothing: flip again, a full delay later
    assert arbiter.timer() == (t + 2.0, "flip")
    second = arbiter.tick(t + 2.0)
    assert [o.action for o in second] == [FLIP]
    assert game.phase is Phase.PLAY
    assert [p[-1] for p in game.piles] == parse_cards("7C 4D")


def test_p4_plays_are_refused_during_the_flip_pause(clock: FakeClock) -> None:
    deck = speed_deck("8S 9S 10S JS QS", "3H 9H 10H JH QH", "7C", "4D", "5C 5D")
    game = SpeedGame(SpeedConfig(), seed=1, deck=deck)
    arbiter = Arbiter(game, Timing(flip_delay=1.0), clock)
    t = clock()
    arbiter.submit(call(0), at=t)
    arbiter.submit(call(1), at=t)
    arbiter.tick(t)
    arbiter.submit(play(0, 0, 0), at=t + 0.5)
    outcomes = arbiter.tick(t + 1.0)
    assert "stalemate" in outcomes[0].reason
    assert isinstance(outcomes[1], Applied) and outcomes[1].action == FLIP


def test_h6_speed_stall_turns_the_side_piles(clock: FakeClock) -> None:
    # 6H fits the 5C, so play is possible, but nobody plays for the stall time.
    deck = speed_deck("6H 9S 10S JS QS", "3H 9H 10H JH QH", "7C", "4D", "5C 5D")
    game = SpeedGame(SpeedConfig(), seed=1, deck=deck)
    arbiter = Arbiter(game, Timing(stall_time=10.0, flip_delay=1.0), clock)
    t = clock()
    arbiter.submit(call(0), at=t)
    arbiter.submit(call(1), at=t)
    arbiter.tick(t)
    assert game.phase is Phase.PLAY
    assert arbiter.tick(t + 9.99) == []
    assert [o.action for o in arbiter.tick(t + 10.0)] == [STALL]
    assert [o.action for o in arbiter.tick(t + 11.0)] == [FLIP]
