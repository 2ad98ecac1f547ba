"""Each mode's observer: what a seat and a spectator see, and the JSON round trip."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spit.bots.sim import new_game
from spit.engine import SYSTEM, AnyGame, call, get_mode
from spit.engine.events import CardTurnedUp
from spit.engine.observers import HIDDEN, CodecError


def _played(mode: str, seed: int, steps: int) -> AnyGame:
    """A position reached by ``steps`` random legal actions (both players called first)."""
    game = new_game(mode, (), seed)
    rng = random.Random(seed)
    game.apply(call(0))
    game.apply(call(1))
    for _ in range(steps):
        legal = game.legal_actions(None) + game.legal_actions(SYSTEM)
        if game.over or not legal:
            break
        game.apply(rng.choice(legal))
    return game


def _cards_in(data: dict[str, object]) -> set[int]:
    """The card ids a Speed observation shows: its hand and the pile tops."""
    hand = data["hand"]
    tops = data["pile_tops"]
    assert isinstance(hand, list) and isinstance(tops, list)
    return {c for c in hand + tops if isinstance(c, int) and c != HIDDEN}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["spit", "speed"]), st.integers(0, 10**6), st.integers(0, 60))
def test_every_observation_round_trips_through_json(mode: str, seed: int, steps: int) -> None:
    game = _played(mode, seed, steps)
    observer = get_mode(mode).observer()
    for seat in (0, 1, None):
        data = json.loads(json.dumps(observer.observe(game, seat)))
        obs = observer.from_json(data, game.config)
        if seat is not None:
            assert obs == game.observation(seat)
        else:
            assert obs.player is None and obs.legal == ()
        table = observer.table(obs)
        assert [len(side) for side in table.columns] == [len(game.columns(p)) for p in (0, 1)]
        assert table.reserves == (game.reserve_size(0), game.reserve_size(1))
        assert [p.size for p in table.piles] == [len(p) for p in game.piles]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 60))
def test_P2_no_speed_observation_shows_a_hand_to_anyone_but_its_holder(
    seed: int, steps: int
) -> None:
    game = _played("speed", seed, steps)
    observer = get_mode("speed").observer()
    hands = [{c for c in game.hands[p] if c is not None} for p in (0, 1)]
    hidden = [hands[p] | set(game.draw[p]) for p in (0, 1)]
    for seat in (0, 1):
        assert not _cards_in(observer.observe(game, seat)) & hidden[1 - seat]
    public = observer.observe(game, None)
    assert not _cards_in(public) & (hidden[0] | hidden[1])
    assert public["hand"].count(HIDDEN) == len(hands[0])


def test_a_drawn_speed_card_is_seen_by_its_holder_alone_and_spit_hides_nothing() -> None:
    drawn = CardTurnedUp(1, 3, 40)
    speed = get_mode("speed").observer()
    assert speed.hides_events and speed.event_for(drawn, 1) == drawn
    assert speed.event_for(drawn, 0).card is None and speed.event_for(drawn, None).card is None
    spit = get_mode("spit").observer()
    assert not spit.hides_events and spit.event_for(drawn, None) == drawn


def test_a_spectator_form_with_a_card_in_a_hand_is_refused() -> None:
    game = _played("speed", 3, 0)
    observer = get_mode("speed").observer()
    data = observer.observe(game, None)
    data["hand"][0] = game.hands[0][0]
    with pytest.raises(CodecError, match="spectator"):
        observer.from_json(data, game.config)
