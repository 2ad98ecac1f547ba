"""Speed coaching on hand-made replays whose reactions and misses are known exactly.

Each position is dealt from given packets (``tests/engine/helpers.py``), then
driven by timed actions as a replay would be; the expected figures are worked
out by hand in the comments.
"""

from __future__ import annotations

import pytest
from tests.engine.helpers import CHAIN5_PLAYS, chain_game, frozen_game, make_game, opened

from spit.engine import CLOSE, SpeedConfig, SpeedGame, call, parse_card, parse_cards, play, slap
from spit.play.coach import BEATEN, SLOW, analyse


def test_reaction_is_timed_from_the_moment_the_play_became_possible() -> None:
    # Pile 0 starts 7C, pile 1 KD. Player 1 (index 0): 8H, 9H, QC, AC, 4C on top;
    # player 2: 9S, 3D, 4D, 5D, JD. Nothing of player 2 fits 7C or KD.
    start = make_game(["8H", "9H", "QC", "AC", "4C"], ["9S", "3D", "4D", "5D", "JD"], "7C", "KD")
    timed = [
        (1.0, call(0)),
        (1.2, call(1)),  # the spit: 8H (on 7C), QC and AC (on KD) become possible at 1.2
        (1.9, play(0, 0, 0)),  # 8H after 0.7; now 9H (player 1) and 9S (player 2) fit 8H
        (2.4, play(1, 0, 0)),  # 9S after 0.5: player 1's 9H was beaten to it (open 1.9-2.4)
        (4.0, play(0, 2, 1)),  # QC on KD after 2.8; AC (open 1.2-4.0, 2.8 s) is missed, slow
    ]
    result = analyse(start, timed)
    assert [(p.player, p.card, round(p.reaction, 6)) for p in result.plays] == [
        (0, parse_card("8H"), 0.7),
        (1, parse_card("9S"), 0.5),
        (0, parse_card("QC"), 2.8),
    ]
    misses = [(m.player, m.card, m.pile, m.reason, round(m.open_for, 6)) for m in result.misses]
    assert misses == [
        (0, parse_card("9H"), 0, BEATEN, 0.5),
        (0, parse_card("AC"), 1, SLOW, 2.8),
    ]
    one, two = result.summary(0), result.summary(1)
    assert one.plays == 2 and two.plays == 1
    assert one.median_reaction == pytest.approx(1.75)
    assert one.fastest_reaction == pytest.approx(0.7)
    assert (one.missed, one.missed_slow, one.missed_beaten) == (2, 1, 1)
    assert two.missed == 0
    # In play from 1.2 s to 4.0 s: 2.8 s, so 2 cards are 2 / (2.8 / 60) per minute.
    assert result.play_time == pytest.approx(2.8)
    assert one.cards_per_minute == pytest.approx(2 / (2.8 / 60))


def test_a_card_played_on_the_other_pile_is_not_missed_and_a_quick_loss_is_not_slow() -> None:
    # 8H fits 7C, QC and AC fit KD. Player 1 plays QC at once: AC (open 0.3 s) closes,
    # not missed (quicker than 2 s); 8H stays possible.
    start = opened(
        make_game(["8H", "9H", "QC", "AC", "4C"], ["9S", "3D", "4D", "5D", "JD"], "7C", "KD")
    )
    result = analyse(start, [(0.3, play(0, 2, 1)), (3.5, play(0, 0, 0))])
    assert [round(p.reaction, 6) for p in result.plays] == [0.3, 3.5]
    assert result.misses == []


def test_chances_only_count_what_the_player_could_play_and_each_opponent_play_beats_them() -> None:
    # Player 1 plays the 15-card chain onto pile 0, one card every 0.5 s after a 1 s start.
    # Each chain card becomes possible with the play before it, so every reaction is the gap...
    # Player 2 never moves; their tops 2D 3D 4D 5D 10D fit the chain's pile tops 9H (10D),
    # JH (10D), AH (2D), 2H (3D), 3H (2D, 4D), 4H (3D, 5D), 5H (4D), 6H (5D): 10 chances,
    # each beaten by player 1's next card.
    start = chain_game(11)
    times = [1.0 + 0.5 * i for i in range(len(CHAIN5_PLAYS))]
    timed = [(t, play(0, stock, 0)) for t, (stock, _) in zip(times, CHAIN5_PLAYS, strict=True)]
    result = analyse(start, timed)
    assert [p.card for p in result.plays] == [parse_card(n) for _, n in CHAIN5_PLAYS]
    # ... except AH, which fitted player 2's KD from the start: timed from then (issue 21)
    assert [round(p.reaction, 6) for p in result.plays] == [1.0] + [0.5] * 5 + [4.0] + [0.5] * 8
    assert [m.reason for m in result.misses if m.player == 1] == [BEATEN] * 10
    assert sorted(m.card for m in result.misses) == sorted(
        parse_cards("10D 10D 2D 3D 2D 4D 3D 5D 4D 5D")
    )
    assert result.summary(0).missed == 0


def test_slaps_say_which_pile_how_fast_and_whether_it_was_the_smaller() -> None:
    # The chain ends the round at 8.0 s with pile 0 at 16 cards and pile 1 (KD) at 1.
    start = chain_game(11)
    timed = [(1.0 + 0.5 * i, play(0, s, 0)) for i, (s, _) in enumerate(CHAIN5_PLAYS)]
    timed += [(8.4, slap(1, 1)), (8.9, slap(0, 0))]
    result = analyse(start, timed)
    got = [(s.player, s.pile, round(s.delay or 0, 6), s.sizes, s.right) for s in result.slaps]
    assert got == [(1, 1, 0.4, (16, 1), True), (0, 0, 0.9, (16, 1), False)]
    assert result.summary(1).right_slaps == 1
    assert result.summary(0).right_slaps == 0 and result.summary(0).slaps == 1


def test_a_player_who_never_slaps_is_counted() -> None:
    start = chain_game(11)
    timed = [(1.0 + 0.5 * i, play(0, s, 0)) for i, (s, _) in enumerate(CHAIN5_PLAYS)]
    timed += [(8.5, slap(0, 1)), (11.0, CLOSE)]
    result = analyse(start, timed)
    assert [(s.player, s.pile) for s in result.slaps] == [(0, 1), (1, None)]
    assert result.summary(1).missed_slaps == 1


def test_v2_a_choice_not_made_is_no_late_slap_and_a_choice_is_no_slap() -> None:
    """Issue 21 defect 19: after a V2 game the box said "0 slaps, ..., 4 too late"."""
    from spit.engine import SpitConfig, choose
    from spit.store.coaching import PlayerReport, player_lines

    def report(analysis, player: int, label: str) -> PlayerReport:
        return PlayerReport(label, analysis.summary(player), None)

    v2 = SpitConfig(choose_pile=True)
    timed = [(1.0 + 0.5 * i, play(0, s, 0)) for i, (s, _) in enumerate(CHAIN5_PLAYS)]
    waited = analyse(chain_game(11, v2), [*timed, (11.0, CLOSE)])  # the smaller pile, by V2
    assert waited.slaps == []
    summary = waited.summary(0)
    assert (summary.slaps, summary.missed_slaps, summary.choices) == (0, 0, 0)
    assert player_lines(report(waited, 0, "Ann"))[-1] == "  no slaps"
    chose = analyse(chain_game(11, v2), [*timed, (8.5, choose(0, 1))])
    summary = chose.summary(0)
    assert (summary.slaps, summary.choices, summary.right_choices) == (0, 1, 1)
    assert player_lines(report(chose, 0, "Ann"))[-1] == "  1 pile choice, 1 of the smaller pile"


def test_a_reaction_is_timed_from_when_the_card_could_first_be_played() -> None:
    """Issue 21 defect 12: a card playable on one pile, played on the other just after
    an opponent's card made it fit there too, gave a "reaction" of a few milliseconds."""
    start = opened(
        make_game(["8H", "2C", "3C", "4C", "JC"], ["7S", "2D", "3D", "4D", "QD"], "6C", "9D")
    )
    # 8H fits the 9D from the start; at 3.0 s player 2's 7S on the 6C makes it fit there too
    result = analyse(start, [(3.0, play(1, 0, 0)), (3.005, play(0, 0, 0))])
    mine = [p for p in result.plays if p.player == 0]
    assert [(p.card, p.pile) for p in mine] == [(parse_card("8H"), 0)]
    assert mine[0].reaction == pytest.approx(3.005)
    assert result.summary(0).fastest_reaction == pytest.approx(3.005)


def test_stalemate_calls_are_timed_from_the_start_of_each_stalemate() -> None:
    # Frozen layouts: every spit leaves a stalemate (R12) at once.
    start = frozen_game(11)
    timed = [
        (0.5, call(0)),
        (0.8, call(1)),  # opening spit at 0.8, stalemate from 0.8 (opening calls are not timed)
        (1.5, call(1)),  # 0.7 after
        (3.3, call(0)),  # 2.5 after: late; the spit at 3.3 starts a new stalemate
        (3.6, call(0)),  # 0.3 after
        (5.3, call(1)),  # 2.0 after: late (the auto-spit countdown would call here)
    ]
    result = analyse(start, timed)
    got = [(c.player, round(c.delay, 6), c.late) for c in result.calls]
    assert got == [(1, 0.7, False), (0, 2.5, True), (0, 0.3, False), (1, 2.0, True)]
    one = result.summary(0)
    assert (one.calls, one.late_calls, one.median_call) == (2, 1, pytest.approx(1.4))
    assert result.plays == [] and result.misses == [] and result.play_time == 0


def test_speed_hands_count_like_stocks() -> None:
    # Speed: player 1's hand 4C 9D JH QS KS, player 2's 2H 3S 5C 6H 7S; the centre
    # cards 5D and 10H turn up when both are ready. 4C fits 5D; 9D and JH fit 10H;
    # player 2's 6H fits 5D.
    deck = parse_deck(p0="4C 9D JH QS KS", p1="2H 3S 5C 6H 7S", centre="5D 10H")
    start = SpeedGame(SpeedConfig(), 0, deck=deck)
    timed = [
        (0.2, call(0)),
        (0.4, call(1)),  # both ready: the piles turn up at 0.4
        (1.0, play(1, 3, 0)),  # 6H on 5D after 0.6: player 1's 4C is beaten
        (3.0, play(0, 1, 1)),  # 9D on 10H after 2.6; JH (open 2.6 s) is missed, slow
    ]
    result = analyse(start, timed)
    assert [(p.player, round(p.reaction, 6)) for p in result.plays] == [(1, 0.6), (0, 2.6)]
    assert [(m.player, m.card, m.reason) for m in result.misses] == [
        (0, parse_card("4C"), BEATEN),
        (0, parse_card("JH"), SLOW),
    ]


def parse_deck(p0: str, p1: str, centre: str) -> list[int]:
    """A Speed deck (see ``deal_speed``) with the named cards first in their sections."""
    named = {"p0": parse_cards(p0), "p1": parse_cards(p1), "centre": parse_cards(centre)}
    used = {c for cards in named.values() for c in cards}
    rest = [c for c in range(52) if c not in used]
    sections = [("p0", 15), ("p1", 15), ("s0", 10), ("s1", 10), ("centre", 2)]
    deck: list[int] = []
    for name, size in sections:
        cards = list(named.get(name, []))
        while len(cards) < size:
            cards.append(rest.pop(0))
        deck += cards
    return deck


def _hand_made() -> tuple[object, list[tuple[float, object]]]:
    """The replay of the first test: its reactions and misses are known exactly."""
    start = make_game(["8H", "9H", "QC", "AC", "4C"], ["9S", "3D", "4D", "5D", "JD"], "7C", "KD")
    timed = [
        (1.0, call(0)),
        (1.2, call(1)),
        (1.9, play(0, 0, 0)),
        (2.4, play(1, 0, 0)),
        (4.0, play(0, 2, 1)),
    ]
    return start, timed


def test_moments_are_the_costliest_misses_then_the_slowest_plays_each_where_it_opened() -> None:
    from spit.play.coach import MISSED, SLOW_PLAY, moments

    start, timed = _hand_made()
    analysis = analyse(start, timed)  # type: ignore[arg-type]
    found = moments(start, timed, analysis, [0])  # type: ignore[arg-type]
    # player 1 left AC open 2.8 s (from 1.2, on KD) and 9H 0.5 s (from 1.9, on 8H, beaten);
    # of their plays only QC (2.8 s after it fitted KD at 1.2) is slow; 8H (0.7 s) is not
    assert [(m.kind, m.card, m.onto, round(m.at, 6), round(m.seconds, 6)) for m in found] == [
        (MISSED, parse_card("AC"), parse_card("KD"), 1.2, 2.8),
        (MISSED, parse_card("9H"), parse_card("8H"), 1.9, 0.5),
        (SLOW_PLAY, parse_card("QC"), parse_card("KD"), 1.2, 2.8),
    ]
    assert [m.words() for m in found] == [
        "at 0:01 you could have played A♣ on K♦ for 2.8 s",
        "at 0:01 you could have played 9♥ on 8♥ for 0.5 s, then beaten to it",
        "at 0:01 you took 2.8 s to play Q♣ on K♦",
    ]
    assert moments(start, timed, analysis, [1]) == []  # player 2: no miss, no slow play
    assert len(moments(start, timed, analysis, [0], each=1)) == 2


def test_at_most_three_moments_of_each_kind_the_costliest_first() -> None:
    from spit.play.coach import MISSED, Analysis, Miss, Play, moments

    start, timed = _hand_made()
    analysis = Analysis("spit", 5.0, 5.0)
    analysis.misses = [Miss(0, parse_card("AC"), 1, 0.1 * i, 0.1 * i + i, SLOW) for i in range(6)]
    analysis.plays = [Play(0, parse_card("QC"), 1, 4.0, 1.0 + i) for i in range(5)]
    found = moments(start, timed, analysis, [0])  # type: ignore[arg-type]
    missed = [m.seconds for m in found if m.kind == MISSED]
    slow = [m.seconds for m in found if m.kind != MISSED]
    assert missed == pytest.approx([5.0, 4.0, 3.0]) and slow == pytest.approx([5.0, 4.0, 3.0])


@pytest.mark.parametrize(
    ("text", "seconds"), [("1:23", 83.0), ("83", 83.0), ("83.5", 83.5), ("1:00:05", 3605.0)]
)
def test_a_replay_time_is_read_as_minutes_and_seconds_or_seconds(text: str, seconds: float) -> None:
    from spit.play.coach import parse_clock

    assert parse_clock(text) == seconds


@pytest.mark.parametrize("text", ["", "x", "1:", "1:75", "-3", "1::2", "nan"])
def test_a_bad_replay_time_is_refused_with_a_message(text: str) -> None:
    from spit.play.coach import parse_clock

    with pytest.raises(ValueError, match="is not a time"):
        parse_clock(text)
