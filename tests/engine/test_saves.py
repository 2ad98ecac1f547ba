"""Saves: JSON round trips, and hostile or corrupt input always gives a ReplayError."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spit.engine import Phase, ReplayError, SpeedGame, SpitConfig, SpitGame, dumps, load_game, loads

from .helpers import all_legal, chain_game, play_chain


def played_game(config: SpitConfig | None = None, seed: int = 17, steps: int = 300) -> SpitGame:
    """A game some way in, by random legal actions."""
    game = SpitGame(config or SpitConfig(), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        legal = all_legal(game)
        game.apply(legal[rng.randrange(len(legal))])
    return game


VALID = json.loads(dumps(played_game()))


def test_round_trip_of_a_seeded_game() -> None:
    game = played_game(SpitConfig(choose_pile=True, four_stocks=True))
    text = dumps(game)
    again = loads(text)
    assert again.fingerprint() == game.fingerprint()
    assert again.actions == game.actions
    assert again.config == game.config and again.seed == game.seed
    assert dumps(again) == text


def test_round_trip_of_a_game_dealt_from_given_packets() -> None:
    game = chain_game(11)
    play_chain(game)
    again = loads(dumps(game))
    assert again.fingerprint() == game.fingerprint()
    assert again.start_packets == game.start_packets


def test_loads_accepts_bytes() -> None:
    assert loads(dumps(played_game()).encode()).fingerprint() == VALID["fingerprint"]


def with_field(name: str, value: object) -> dict:
    data = json.loads(json.dumps(VALID))
    data[name] = value
    return data


def without_field(name: str) -> dict:
    data = json.loads(json.dumps(VALID))
    del data[name]
    return data


def deep(depth: int) -> object:
    value: object = 0
    for _ in range(depth):
        value = [value]
    return value


CARDS = [list(range(26)), list(range(26, 52))]

CORRUPT_DATA = {
    "top level list": [],
    "top level string": "spit",
    "top level null": None,
    "no format": without_field("format"),
    "wrong format": with_field("format", "chess"),
    "wrong version": with_field("version", 2),
    "version as text": with_field("version", "1"),
    "unknown mode": with_field("mode", "snap"),
    "mode not text": with_field("mode", ["spit"]),
    "config not object": with_field("config", [1, 2]),
    "config unknown key": with_field("config", {"jokers": True}),
    "config wrong type": with_field("config", {"four_stocks": "yes"}),
    "config huge number": with_field("config", {"round_limit": 10**30}),
    "config negative": with_field("config", {"target_score": -5}),
    "config float": with_field("config", {"round_limit": 10.5}),
    "config nested": with_field("config", {"scoring": deep(50)}),
    "no seed": without_field("seed"),
    "seed negative": with_field("seed", -1),
    "seed too big": with_field("seed", 2**64),
    "seed huge": with_field("seed", 10**300),
    "seed text": with_field("seed", "17"),
    "seed float": with_field("seed", 17.0),
    "seed bool": with_field("seed", True),
    "cards not lists": with_field("cards", "AS 2S"),
    "cards three packets": with_field("cards", [[0], [1], list(range(2, 52))]),
    "cards duplicated": with_field("cards", [list(range(26)), list(range(25, 51))]),
    "cards out of range": with_field("cards", [list(range(26)), [*range(26, 51), 52]]),
    "cards bools": with_field("cards", [[True, *range(1, 26)], list(range(26, 52))]),
    "cards empty packet": with_field("cards", [[], list(range(52))]),
    "cards nested": with_field("cards", [deep(40), list(range(26, 52))]),
    "cards missing": with_field("cards", [list(range(20)), list(range(26, 52))]),
    "actions missing": without_field("actions"),
    "actions not list": with_field("actions", {"0": ["call", 0, 0, 0]}),
    "action not list": with_field("actions", ["call 0"]),
    "action short": with_field("actions", [["call", 0]]),
    "action unknown kind": with_field("actions", [["jump", 0, 0, 0]]),
    "action kind not text": with_field("actions", [[2, 0, 0, 0]]),
    "action player out of range": with_field("actions", [["call", 5, 0, 0]]),
    "action huge number": with_field("actions", [["play", 0, 10**40, 0]]),
    "action negative": with_field("actions", [["play", 0, -1, 0]]),
    "action float": with_field("actions", [["call", 0.0, 0, 0]]),
    "action bool": with_field("actions", [["call", False, 0, 0]]),
    "action nested": with_field("actions", [["call", deep(60), 0, 0]]),
    "system action from a player": with_field("actions", [["stall", 0, 0, 0]]),
    "player action from system": with_field("actions", [["call", 2, 0, 0]]),
    "illegal action": with_field("actions", [["play", 0, 0, 0]]),
    "illegal action later": with_field("actions", [*VALID["actions"], ["flip", 2, 0, 0]]),
    "actions reordered": with_field("actions", VALID["actions"][::-1]),
    "wrong fingerprint": with_field("fingerprint", "0" * 32),
    "fingerprint not text": with_field("fingerprint", 12),
    "fingerprint of another game": with_field(
        "fingerprint", SpitGame(SpitConfig(), 1).fingerprint()
    ),
}


@pytest.mark.parametrize("name", sorted(CORRUPT_DATA))
def test_corrupt_save_gives_a_replay_error(name: str) -> None:
    with pytest.raises(ReplayError) as info:
        load_game(CORRUPT_DATA[name])
    assert str(info.value).strip()
    with pytest.raises(ReplayError):
        loads(json.dumps(CORRUPT_DATA[name]))


CORRUPT_TEXT = {
    "empty": "",
    "not json": "spit game",
    "bad utf-8": b"\xff\xfe{",
    "nan": dumps(played_game()).replace('"seed":17', '"seed":NaN'),
    "infinity": dumps(played_game()).replace('"seed":17', '"seed":Infinity'),
    "too many digits": dumps(played_game()).replace('"seed":17', '"seed":' + "9" * 5000),
    "deep list": "[" * 100_000 + "]" * 100_000,
    "deep object": '{"a":' * 50_000 + "1" + "}" * 50_000,
    "deep in actions": dumps(played_game()).replace('"actions":[', '"actions":[' + "[" * 5000, 1),
}


@pytest.mark.parametrize("name", sorted(CORRUPT_TEXT))
def test_corrupt_text_gives_a_replay_error(name: str) -> None:
    with pytest.raises(ReplayError) as info:
        loads(CORRUPT_TEXT[name])
    assert str(info.value).strip()


@pytest.mark.parametrize("depth", range(985, 1001, 3))
def test_nesting_near_the_parser_limit_gives_a_replay_error(depth: int) -> None:
    nested = "[" * depth + "]" * depth
    places = [with_field(f, "MARK") for f in ("config", "cards", "actions", "mode", "fingerprint")]
    places.append(with_field("actions", [["call", "MARK", 0, 0]]))
    places.append(with_field("config", {"scoring": "MARK"}))
    for data in places:
        text = json.dumps(data).replace('"MARK"', nested)
        assert nested in text
        with pytest.raises(ReplayError):
            loads(text)


def test_every_truncation_gives_a_replay_error() -> None:
    text = dumps(played_game(steps=40))
    for cut in range(0, len(text) - 1, 3):
        with pytest.raises(ReplayError):
            loads(text[:cut])


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=30,
)


@given(junk=json_values)
def test_junk_json_gives_a_replay_error(junk: object) -> None:
    with pytest.raises(ReplayError):
        load_game(junk)


@given(field=st.sampled_from(sorted(VALID)), junk=json_values)
def test_a_junk_field_gives_a_replay_error_or_loads_the_same_game(field: str, junk: object) -> None:
    data = with_field(field, junk)
    try:
        game = load_game(data)
    except ReplayError as exc:
        assert str(exc).strip()
    else:
        # Only a harmless change can load: then it is the very same game.
        assert game.fingerprint() == VALID["fingerprint"]


@given(
    index=st.integers(0, 10_000),
    junk=st.lists(json_values, min_size=0, max_size=6) | json_values,
)
def test_a_junk_action_gives_a_replay_error(index: int, junk: object) -> None:
    actions = list(VALID["actions"])
    actions.insert(index % (len(actions) + 1), junk)
    try:
        load_game(with_field("actions", actions))
    except ReplayError as exc:
        assert str(exc).strip()


@given(text=st.text(max_size=200) | st.binary(max_size=200))
def test_junk_text_gives_a_replay_error(text: str | bytes) -> None:
    with pytest.raises(ReplayError):
        loads(text)


def test_save_version_must_be_the_integer_1_not_true() -> None:
    data = SpitGame(seed=3).to_json()
    data["version"] = True
    with pytest.raises(ReplayError, match="version"):
        load_game(data)


def test_save_without_fingerprint_is_refused() -> None:
    data = SpitGame(seed=3).to_json()
    data["fingerprint"] = None
    with pytest.raises(ReplayError, match="fingerprint"):
        load_game(data)


def test_legal_actions_of_an_unknown_player_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no player 3"):
        SpitGame(seed=3).legal_actions(3)


@pytest.mark.parametrize("make", [lambda: SpitGame(seed=9), lambda: SpeedGame(seed=9)])
def test_copy_is_independent_of_the_original(make) -> None:
    game = make()
    twin = game.copy()
    assert twin.fingerprint() == game.fingerprint() and type(twin) is type(game)
    for action in list(game.legal_actions(0)) + list(game.legal_actions(1)):
        game.apply(action)
    assert twin.fingerprint() != game.fingerprint()
    assert twin.actions == [] and twin.phase is Phase.OPENING
    assert game.phase is not Phase.OPENING
    # the copy plays on by itself, from where it was made
    fresh = make()
    for action in list(fresh.legal_actions(0)):
        fresh.apply(action)
        twin.apply(action)
    assert twin.fingerprint() == fresh.fingerprint()
