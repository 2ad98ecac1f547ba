"""The arbiter on a fake clock: races (R11), spit calls (H2), slaps (R16, H3), stalls (H6)."""

from __future__ import annotations

from tests.support import FakeClock, deal, to_slap

from spit.engine import CLOSE, STALL, Phase, SpitGame, call, card, play, slap
from spit.engine.events import GameOver, GameWon, PileTaken, RoundOver, Spat
from spit.realtime.arbiter import Applied, Arbiter, Rejected, Timing
from spit.realtime.timers import TimerKind

STUCK = ("8C 9C 10C JC QC", "8D 9D 10D JD QD")  # no top is next to a 5


def opened(game: SpitGame, arbiter: Arbiter, clock: FakeClock) -> None:
    """Both call spit! now and the opening spit happens (R5)."""
    arbiter.submit(call(0), at=clock())
    arbiter.submit(call(1), at=clock())
    arbiter.tick(clock())
    assert game.phase is not Phase.OPENING


def race_game() -> SpitGame:
    # Left pile starts at 5C; both players' stock 1 holds a 6, which fits 5 but not 6.
    # The next spit cards (5H, KC) keep that so after a spit.
    return deal(("6D JC JS QC QS", "6H JD JH QD QH"), ("5C 5H", "KD KC"))


def applied(outcomes) -> list:
    return [o.action for o in outcomes if isinstance(o, Applied)]


def rejected(outcomes) -> list:
    return [o for o in outcomes if isinstance(o, Rejected)]


def test_r11_same_instant_same_pile_one_card_lands_other_refused(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(), clock)
    opened(game, arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(play(1, 0, 0), at=t)
    arbiter.submit(play(0, 0, 0), at=t)
    outcomes = arbiter.tick(t)
    assert len(applied(outcomes)) == 1
    (refused,) = rejected(outcomes)
    winner = applied(outcomes)[0].player
    assert refused.action.player == 1 - winner
    assert "6" in refused.reason  # judged against the new top card, a six
    assert game.piles[0][-1] == card("6", "D" if winner == 0 else "H")


def test_r11_one_arbiter_alternates_tie_priority(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(), clock)
    t = clock.advance(0.5)
    arbiter.submit(call(0), at=t)
    arbiter.submit(call(1), at=t)
    first = applied(arbiter.tick(t))
    t = clock.advance(1.0)
    arbiter.submit(play(0, 0, 0), at=t)
    arbiter.submit(play(1, 0, 0), at=t)
    second = applied(arbiter.tick(t))
    assert first[0].player != second[0].player
    assert arbiter.log[-1] == (t, second[0])  # the order that happened is what the log keeps


def test_r11_few_ms_apart_earlier_stamp_wins_whatever_the_arrival_order(
    clock: FakeClock,
) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(), clock)
    opened(game, arbiter, clock)
    t = clock.advance(1.0)
    arbiter.submit(play(0, 0, 0), at=t + 0.005)  # submitted first, pressed later
    arbiter.submit(play(1, 0, 0), at=t + 0.003)
    outcomes = arbiter.tick(t + 0.010)
    assert applied(outcomes) == [play(1, 0, 0)]
    assert [r.action for r in rejected(outcomes)] == [play(0, 0, 0)]
    assert game.piles[0][-1] == card("6", "H")


def test_r11_input_not_yet_due_waits_for_its_time(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(), clock)
    opened(game, arbiter, clock)
    t = clock()
    arbiter.submit(play(0, 0, 0), at=t + 0.5)
    assert arbiter.tick(t + 0.4) == []
    assert arbiter.next_deadline() == t + 0.5
    assert applied(arbiter.tick(t + 0.5)) == [play(0, 0, 0)]


def test_r12_h2_stalemate_then_automatic_spit_after_countdown(clock: FakeClock) -> None:
    game = deal(STUCK, ("5C", "5D"))
    arbiter = Arbiter(game, Timing(auto_spit=1.5), clock)
    opened(game, arbiter, clock)
    assert game.phase is Phase.STALEMATE
    start = clock()
    assert arbiter.timer() == (start + 1.5, "call")
    assert arbiter.tick(start + 1.49) == []
    outcomes = arbiter.tick(start + 1.5)
    assert [o.action for o in outcomes] == [call(0), call(1)]
    assert all(o.auto for o in outcomes)
    assert any(isinstance(e, Spat) for o in outcomes for e in o.events)
    assert len(game.piles[0]) == 2 and len(game.piles[1]) == 2


def test_h2_player_calls_and_game_calls_for_the_other_after_stall_time(
    clock: FakeClock,
) -> None:
    game = deal(STUCK, ("5C", "5D"))
    arbiter = Arbiter(game, Timing(auto_spit=None, stall_time=10.0), clock)
    opened(game, arbiter, clock)
    start = clock()
    arbiter.submit(call(0), at=start + 1.0)
    arbiter.tick(start + 9.99)
    assert game.phase is Phase.STALEMATE and game.called == [True, False]
    outcomes = arbiter.tick(start + 10.0)
    assert [(o.action, o.auto) for o in outcomes] == [(call(1), True)]
    assert len(game.piles[1]) == 2


def test_h2_both_call_spit_happens_at_once(clock: FakeClock) -> None:
    game = deal(STUCK, ("5C", "5D"))
    arbiter = Arbiter(game, Timing(), clock)
    opened(game, arbiter, clock)
    t = clock.advance(0.3)
    arbiter.submit(call(1), at=t)
    arbiter.submit(call(0), at=t + 0.01)
    arbiter.tick(t + 0.01)
    assert len(game.piles[0]) == 2 and len(game.piles[1]) == 2


def slap_phase(clock: FakeClock, timing: Timing | None = None) -> tuple[SpitGame, Arbiter]:
    game = SpitGame(seed=11)
    to_slap(game)
    arbiter = Arbiter(game, timing or Timing(slap_time=3.0), clock)
    return game, arbiter


def taken(outcomes) -> dict[int, int | None]:
    return {
        e.player: e.pile
        for o in outcomes
        for e in getattr(o, "events", [])
        if isinstance(e, PileTaken)
    }


def test_r16_slap_race_same_pile_first_slap_takes_it(clock: FakeClock) -> None:
    _game, arbiter = slap_phase(clock)
    t = clock.advance(0.2)
    arbiter.submit(slap(0, 1), at=t + 0.004)
    arbiter.submit(slap(1, 1), at=t + 0.001)
    outcomes = arbiter.tick(t + 0.01)
    assert taken(outcomes) == {1: 1, 0: 0}


def test_r16_slap_race_same_instant_one_winner(clock: FakeClock) -> None:
    _game, arbiter = slap_phase(clock)
    t = clock.advance(0.2)
    arbiter.submit(slap(0, 0), at=t)
    arbiter.submit(slap(1, 0), at=t)
    outcomes = arbiter.tick(t)
    first = applied(outcomes)[0].player
    assert taken(outcomes) == {first: 0, 1 - first: 1}


def test_r16_slaps_on_different_piles_each_takes_their_own_slap(clock: FakeClock) -> None:
    _game, arbiter = slap_phase(clock)
    t = clock.advance(0.2)
    arbiter.submit(slap(0, 1), at=t)
    arbiter.submit(slap(1, 0), at=t + 0.3)
    outcomes = arbiter.tick(t + 0.3)
    assert taken(outcomes) == {0: 1, 1: 0}


def test_h3_player_who_never_slaps_takes_the_pile_left_when_time_runs_out(
    clock: FakeClock,
) -> None:
    game, arbiter = slap_phase(clock, Timing(slap_time=3.0))
    start = clock()
    arbiter.submit(slap(1, 0), at=start + 0.5)
    arbiter.tick(start + 2.99)
    assert game.phase is Phase.SLAP
    outcomes = arbiter.tick(start + 3.0)
    assert (outcomes[0].action, outcomes[0].auto) == (CLOSE, True)
    assert taken(outcomes) == {1: 0, 0: 1}


def test_r16_nobody_slaps_each_takes_own_side(clock: FakeClock) -> None:
    _game, arbiter = slap_phase(clock)
    outcomes = arbiter.tick(clock() + 3.0)
    assert taken(outcomes) == {0: 0, 1: 1}


def test_r17_after_the_slap_new_layouts_and_a_new_opening(clock: FakeClock) -> None:
    game, arbiter = slap_phase(clock)
    round_no = game.round_no
    t = clock.advance(0.1)
    arbiter.submit(slap(0, 0), at=t)
    arbiter.submit(slap(1, 1), at=t + 0.1)
    arbiter.tick(t + 0.1)
    assert game.round_no == round_no + 1
    assert game.phase is Phase.OPENING
    assert all(game.stocks[p][0] for p in (0, 1))
    # the opening call timer starts from the new deal
    assert arbiter.timer() == (t + 0.1 + arbiter.timing.stall_time, "call")


def test_r18_one_pile_round_only_the_player_with_spit_cards_calls(clock: FakeClock) -> None:
    deck = list(range(52))
    game = SpitGame(seed=3, packets=[deck[:10], deck[10:]])
    arbiter = Arbiter(game, Timing(), clock)
    t = clock.advance(0.1)
    arbiter.submit(call(0), at=t)
    arbiter.submit(call(1), at=t + 0.1)
    outcomes = arbiter.tick(t + 0.1)
    (refused,) = rejected(outcomes)
    assert refused.action == call(0) and "no spit cards" in refused.reason
    assert game.phase is not Phase.OPENING
    assert game.pile_used == [False, True]


def test_r19_r20_one_pile_round_emptied_layout_wins_without_slap(clock: FakeClock) -> None:
    # Player 1 holds a single 6; player 2's first spit card is a 5: one play wins (R20).
    six = card("6", "D")
    five = card("5", "C")
    rest = [c for c in range(52) if c not in (six, five)]
    p2 = [*rest[:15], five, *rest[15:]]
    game = SpitGame(seed=3, packets=[[six], p2])
    arbiter = Arbiter(game, Timing(), clock)
    t = clock.advance(0.1)
    arbiter.submit(call(1), at=t)
    arbiter.submit(play(0, 0, 1), at=t + 0.2)
    outcomes = arbiter.tick(t + 0.2)
    events = [e for o in outcomes if isinstance(o, Applied) for e in o.events]
    assert any(isinstance(e, RoundOver) for e in events)
    assert GameWon(0, "R20") in events and GameOver(0, "R20") in events
    assert game.phase is Phase.GAME_OVER
    assert arbiter.timer() is None and arbiter.next_deadline() is None
    # after the end, inputs are refused with the reason
    arbiter.submit(call(1), at=t + 0.3)
    (late,) = rejected(arbiter.tick(t + 0.3))
    assert "over" in late.reason


def test_h6_stall_after_stall_time_without_a_play(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(stall_time=10.0), clock)
    opened(game, arbiter, clock)
    start = clock()
    assert arbiter.timer() == (start + 10.0, "stall")  # the old string still compares equal
    assert arbiter.timer()[1] is TimerKind.STALL
    # a play at +4 s restarts the wait
    arbiter.submit(play(0, 0, 0), at=start + 4.0)
    arbiter.tick(start + 4.0)
    assert arbiter.tick(start + 13.99) == []
    outcomes = arbiter.tick(start + 14.0)
    assert outcomes[0].action == STALL and outcomes[0].auto
    assert game.phase is Phase.STALEMATE


def test_h6_each_stall_needs_a_fresh_full_wait(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(stall_time=10.0, auto_spit=0.5), clock)
    opened(game, arbiter, clock)
    start = clock()
    arbiter.tick(start + 10.0)  # stall -> stalemate
    arbiter.tick(start + 10.5)  # automatic spit -> play again
    assert game.phase is Phase.PLAY
    assert arbiter.timer() == (start + 20.5, "stall")
    stalls = [a for _, a in arbiter.log if a == STALL]
    assert len(stalls) == 1


def test_pause_stops_timers_and_resume_shifts_them(clock: FakeClock) -> None:
    game = race_game()
    arbiter = Arbiter(game, Timing(stall_time=10.0), clock)
    opened(game, arbiter, clock)
    start = clock()
    arbiter.pause(start + 2.0)
    assert arbiter.paused
    arbiter.submit(play(0, 0, 0), at=start + 3.0)
    (refused,) = rejected(arbiter.tick(start + 30.0))
    assert refused.reason == "the game is paused"
    assert game.phase is Phase.PLAY and game.piles[0][-1] == card("5", "C")
    arbiter.resume(start + 7.0)
    assert arbiter.timer() == (start + 15.0, "stall")
    assert arbiter.tick(start + 14.9) == []
    assert arbiter.tick(start + 15.0)[0].action == STALL


def test_pause_does_not_refuse_a_key_pressed_before_it(clock: FakeClock) -> None:
    """R11: a card pressed before the pause was played before the pause."""
    game = race_game()
    arbiter = Arbiter(game, Timing(), clock)
    opened(game, arbiter, clock)
    t = clock()
    arbiter.submit(play(0, 0, 0), at=t + 1.0)
    arbiter.pause(t + 1.001)
    outcomes = arbiter.tick(t + 1.002)
    assert applied(outcomes) == [play(0, 0, 0)]
