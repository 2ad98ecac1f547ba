"""H8 fumbles in the arbiter, on a fake clock: the time-out, lost races, what never fumbles."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support import FakeClock, deal, to_slap

from spit.engine import Action, Phase, SpitGame, call, card, choose, move, play, slap
from spit.realtime.arbiter import FUMBLING, Applied, Arbiter, Outcome, Rejected, Timing

H8 = Timing(fumble_time=0.5, race_margin=0.25)


def race_game() -> SpitGame:
    """Left pile 5C, right pile KD. Both stock 1s hold a 6 (fits the 5, not a 6);
    player 1's stock 2 holds JC, which fits neither pile."""
    return deal(("6D JC JS QC QS", "6H JD JH QD QH"), ("5C 5H", "KD KC"))


def opened(arbiter: Arbiter, clock: FakeClock) -> float:
    """Both call: the opening spit happens (R5). Returns the time."""
    t = clock()
    arbiter.submit(call(0), at=t)
    arbiter.submit(call(1), at=t)
    arbiter.tick(t)
    assert arbiter.game.phase is Phase.PLAY
    return t


def only(outcomes: list[Outcome], action: Action) -> Outcome:
    (found,) = [o for o in outcomes if o.action == action]
    return found


BLIND = play(0, 1, 0)  # JC onto 5C: never fits


def test_H8_a_blind_press_is_a_fumble_and_starts_the_fumble_time(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(BLIND, at=t)
    refused = only(arbiter.tick(t), BLIND)
    assert isinstance(refused, Rejected)
    assert refused.fumble == pytest.approx(0.5)
    assert refused.reason != FUMBLING  # the engine's own reason: it was tried
    assert arbiter.fumbled_until(0) == pytest.approx(t + 0.5)
    assert arbiter.fumbled_until(1) < t  # the other player is not held back
    (fumble,) = arbiter.fumbles
    assert (fumble.time, fumble.action, fumble.index) == (t, BLIND, len(game.actions))


def test_H8_presses_inside_the_fumble_time_are_refused_untried_and_do_not_extend_it(
    clock: FakeClock,
) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(BLIND, at=t)
    arbiter.tick(t)
    before = game.fingerprint()
    fits = play(0, 0, 0)  # 6D onto 5C: legal, yet held back
    arbiter.submit(fits, at=t + 0.2)
    arbiter.submit(BLIND, at=t + 0.3)  # another blind press: refused, starts nothing
    arbiter.submit(move(0, 4), at=t + 0.4)
    outcomes = arbiter.tick(t + 0.45)
    assert [(o.reason, o.fumble) for o in outcomes if isinstance(o, Rejected)] == [
        (FUMBLING, 0.0),
        (FUMBLING, 0.0),
        (FUMBLING, 0.0),
    ]
    assert game.fingerprint() == before  # nothing was tried
    assert len(arbiter.fumbles) == 1
    assert arbiter.fumbled_until(0) == pytest.approx(t + 0.5)  # not extended
    # the other player plays on meanwhile
    arbiter.submit(play(1, 0, 0), at=t + 0.46)
    assert isinstance(only(arbiter.tick(t + 0.46), play(1, 0, 0)), Applied)
    # once the fumble time is over, a press is tried again
    arbiter.submit(play(0, 3, 1), at=t + 0.5)  # QC onto KD
    assert isinstance(only(arbiter.tick(t + 0.5), play(0, 3, 1)), Applied)


def test_H8_a_lost_race_within_the_margin_is_not_a_fumble(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(play(1, 0, 0), at=t)  # 6H lands on 5C first
    arbiter.submit(play(0, 0, 0), at=t + 0.2)  # 6D on a 6: refused, a lost race
    outcomes = arbiter.tick(t + 0.2)
    lost = only(outcomes, play(0, 0, 0))
    assert isinstance(lost, Rejected) and lost.fumble == 0 and lost.reason != FUMBLING
    assert arbiter.fumbles == []
    # the same press a whole race margin after the opponent's card is a fumble
    arbiter.submit(play(0, 0, 0), at=t + 0.3)
    late = only(arbiter.tick(t + 0.3), play(0, 0, 0))
    assert isinstance(late, Rejected) and late.fumble == pytest.approx(0.5)


def test_H8_a_lost_race_of_an_exact_tie_is_not_a_fumble(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(play(0, 0, 0), at=t)
    arbiter.submit(play(1, 0, 0), at=t)
    outcomes = arbiter.tick(t)
    (loser,) = [o for o in outcomes if isinstance(o, Rejected)]
    assert loser.fumble == 0 and arbiter.fumbles == []


def test_H8_calls_slaps_and_choices_are_never_fumbles(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    for action in (call(0), slap(0, 1), choose(0, 0)):  # none is legal in play
        arbiter.submit(action, at=t)
    outcomes = arbiter.tick(t)
    assert len(outcomes) == 3 and all(isinstance(o, Rejected) for o in outcomes)
    assert all(isinstance(o, Rejected) and o.fumble == 0 for o in outcomes)
    assert arbiter.fumbles == []


def test_H8_a_fumble_does_not_hold_back_a_slap(clock: FakeClock) -> None:
    game = to_slap(race_game())
    arbiter = Arbiter(game, H8, clock)
    t = clock.advance(0.5)
    # a play in the slap phase is a play the game refuses: a fumble
    arbiter.submit(play(0, 0, 0), at=t)
    arbiter.tick(t)
    assert len(arbiter.fumbles) == 1
    arbiter.submit(slap(0, 0), at=t + 0.1)  # inside the fumble time: still slaps
    assert isinstance(only(arbiter.tick(t + 0.1), slap(0, 0)), Applied)


def test_H8_fumble_time_zero_turns_it_off(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(fumble_time=0), clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(BLIND, at=t)
    arbiter.submit(play(0, 0, 0), at=t + 0.1)
    outcomes = arbiter.tick(t + 0.1)
    assert only(outcomes, BLIND).fumble == 0  # type: ignore[union-attr]
    assert isinstance(only(outcomes, play(0, 0, 0)), Applied)
    assert arbiter.fumbles == []


def test_H8_the_fumble_time_stops_while_the_game_is_paused(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(BLIND, at=t)
    arbiter.tick(t)
    arbiter.pause(t + 0.2)
    arbiter.resume(t + 5.2)
    assert arbiter.fumbled_until(0) == pytest.approx(t + 5.5)
    arbiter.submit(play(0, 0, 0), at=t + 5.4)
    assert only(arbiter.tick(t + 5.4), play(0, 0, 0)).reason == FUMBLING  # type: ignore[union-attr]


def test_H8_a_late_press_is_judged_at_its_stamp_not_its_arrival(clock: FakeClock) -> None:
    """A far network guest: the press fitted when it was made; it arrived after the
    opponent's card had landed. A lost race, not a fumble."""
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(play(1, 0, 0), at=t + 0.1)
    arbiter.tick(t + 0.9)  # the opponent's card landed at t + 0.1
    arbiter.submit(play(0, 0, 0), at=t)  # pressed at t, arrived 0.9 s late
    late = only(arbiter.tick(t + 0.9), play(0, 0, 0))
    assert isinstance(late, Rejected) and late.stamped == t
    assert late.fumble == 0


def test_H8_seen_moves_the_window_back_for_a_player_who_sees_the_game_late(
    clock: FakeClock,
) -> None:
    game = race_game()
    arbiter = Arbiter(game, H8, clock)
    opened(arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(play(1, 0, 0), at=t)
    arbiter.tick(t + 0.4)
    # pressed 0.4 s after the card landed, but the player's screen showed the
    # game 0.3 s late: what they saw was 0.1 s old, within the margin
    arbiter.submit(play(0, 0, 0), at=t + 0.4, seen=t + 0.1)
    assert only(arbiter.tick(t + 0.4), play(0, 0, 0)).fumble == 0  # type: ignore[union-attr]
    arbiter.submit(play(0, 0, 0), at=t + 0.45)  # the same press without the lag: a fumble
    assert only(arbiter.tick(t + 0.45), play(0, 0, 0)).fumble > 0  # type: ignore[union-attr]


class SlowHand:
    """An agent that plans one play and makes it ``delay`` seconds later."""

    def __init__(self, action: Action, delay: float) -> None:
        self.action = action
        self.delay = delay
        self.planned = 0

    def plan(self, observation: Any, now: float) -> tuple[float, Action] | None:
        if self.planned or self.action not in observation.legal:
            return None
        self.planned += 1
        return self.delay, self.action


def test_H8_a_computers_lost_race_is_not_a_fumble(clock: FakeClock) -> None:
    """The bot planned 6H onto 5C and takes 1 s; the human plays there 0.5 s before
    it lands. The bot lost a race long after the margin: still no fumble."""
    game = race_game()
    bot = SlowHand(play(1, 0, 0), 1.0)
    arbiter = Arbiter(game, H8, clock, agents={1: bot})
    t = opened(arbiter, clock)
    arbiter.submit(play(0, 0, 0), at=t + 0.5)
    outcomes = arbiter.tick(t + 2.0)
    lost = only(outcomes, play(1, 0, 0))
    assert bot.planned == 1
    assert isinstance(lost, Rejected) and lost.fumble == 0
    assert arbiter.fumbles == [] and arbiter.fumbled_until(1) < t
    assert game.piles[0][-1] == card("6", "D")


@pytest.mark.parametrize("bad", [-0.1, 2.5, True, "0.5"])
def test_H8_timing_refuses_a_fumble_time_out_of_range(bad: object) -> None:
    with pytest.raises(ValueError, match="fumble_time"):
        Timing(fumble_time=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="race_margin"):
        Timing(race_margin=bad)  # type: ignore[arg-type]


def test_H8_defaults() -> None:
    assert (Timing().fumble_time, Timing().race_margin) == (0.5, 0.25)
