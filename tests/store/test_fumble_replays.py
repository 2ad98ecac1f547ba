"""H8 in replays: the fumble rule and every fumble are recorded and checked on load;
replays from before H8 have none and still verify."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from tests.support import FakeClock

from spit.bots import make_bot
from spit.engine import Kind, SpitGame
from spit.engine.actions import action_from_json
from spit.engine.saves import new_game_from_save
from spit.play.keys import Binding, KeyMap
from spit.play.session import key_action
from spit.realtime.arbiter import Arbiter, Timing
from spit.store.archive import Archiver
from spit.store.replays import (
    PlayerInfo,
    ReplayFileError,
    ReplayMeta,
    h8_record,
    load_replay,
    new_meta,
    parse_replay,
    replay_data,
    verify_file,
)

DATA = Path(__file__).parent / "data"


def player_keys(player: int) -> list[Binding]:
    """Every game key of ``player`` in the default key map."""
    keymap = KeyMap.default()
    found = [keymap.lookup(key) for key in keymap.keys[player].values()]
    return [b for b in found if b is not None]


def mashed(seconds: float = 40.0, timing: Timing | None = None) -> tuple[Arbiter, ReplayMeta]:
    """Player 1 presses a random key of theirs ten times a second, blind; a medium
    computer plays player 2. Returns the arbiter and the replay metadata."""
    clock = FakeClock()
    game = SpitGame(seed=4)
    bot = make_bot("medium", 1, seed=9, mode="spit")
    arbiter = Arbiter(game, timing or Timing(), clock, agents={1: bot})
    keys = player_keys(0)
    rng = random.Random(3)
    t = clock.now
    end = t + seconds
    while t < end and not game.over:
        t += 0.1
        action = key_action(game, rng.choice(keys))
        if not isinstance(action, str):
            arbiter.submit(action, at=t)
        arbiter.tick(t)
    h8 = h8_record(arbiter.timing, arbiter.fumbles, arbiter.start_time)
    meta = new_meta([PlayerInfo("Masher"), PlayerInfo("Computer", bot="medium")])
    return arbiter, ReplayMeta(meta.players, meta.date, h8)


def data_of(arbiter: Arbiter, meta: ReplayMeta) -> dict[str, Any]:
    times = [t - arbiter.start_time for t, _ in arbiter.log]
    return replay_data(arbiter.game, times, meta)


@pytest.fixture(scope="module")
def fumbled() -> tuple[Arbiter, dict[str, Any]]:
    arbiter, meta = mashed()
    assert len(arbiter.fumbles) >= 5  # a blind masher fumbles often
    return arbiter, data_of(arbiter, meta)


@pytest.mark.parametrize("name", ["spit.replay.json", "speed.replay.json"])
def test_H8_an_old_replay_without_h8_verifies_and_was_played_without_it(name: str) -> None:
    replay = load_replay(DATA / name)
    assert replay.meta.h8 is None
    ok, line = verify_file(DATA / name)
    assert ok, line


def test_H8_a_new_replay_with_fumbles_verifies(
    fumbled: tuple[Arbiter, dict[str, Any]], tmp_path: Path
) -> None:
    arbiter, data = fumbled
    path = tmp_path / "mashed.json"
    path.write_text(json.dumps(data))
    replay = load_replay(path)
    h8 = replay.meta.h8
    assert h8 is not None and (h8.fumble_time, h8.race_margin) == (0.5, 0.25)
    assert [n.action for n in h8.fumbles] == [f.action for f in arbiter.fumbles]
    assert h8.count(0) == len(arbiter.fumbles) and h8.count(1) == 0  # the computer never
    assert verify_file(path)[0]


def edited(data: dict[str, Any], change: Any) -> dict[str, Any]:
    bad = copy.deepcopy(data)
    change(bad)
    return bad


def test_H8_a_fumble_that_fitted_fails_verification(
    fumbled: tuple[Arbiter, dict[str, Any]],
) -> None:
    _, data = fumbled
    actions = data["actions"]

    def swap(bad: dict[str, Any]) -> None:
        # the fumble becomes a play that fitted in the position that refused it
        note = bad["h8"]["fumbles"][0]
        game = new_game_from_save(data)
        for raw in actions[: note[0]]:
            game.apply(action_from_json(raw))
        fits = [a for a in game.legal_actions(0) if a.kind is Kind.PLAY]
        assert fits
        note[3] = fits[0].to_json()

    with pytest.raises(ReplayFileError, match=r"fumble 1 \(.*\) fitted"):
        parse_replay(json.dumps(edited(data, swap)))


def test_H8_a_play_inside_a_fumble_time_fails_verification(
    fumbled: tuple[Arbiter, dict[str, Any]],
) -> None:
    _, data = fumbled
    # the first of player 1's plays after a fumble, pulled to just after it
    times = data["times"]
    for note in data["h8"]["fumbles"]:
        index, _, t, _ = note
        after = [
            i for i, a in enumerate(data["actions"]) if i >= index and a[0] == "play" and a[1] == 0
        ]
        if after and all(
            times[j] <= t + 0.1 for j in range(index, after[0])
        ):  # nothing in between that the move would have to overtake
            break
    else:
        raise AssertionError("the masher made no play soon after a fumble")

    def pull(bad: dict[str, Any]) -> None:
        bad["h8"]["fumbles"] = [n for n in bad["h8"]["fumbles"] if n[0] <= after[0]]
        for j in range(index, after[0] + 1):
            bad["times"][j] = min(bad["times"][j], t + 0.1)

    with pytest.raises(ReplayFileError, match="inside fumble"):
        parse_replay(json.dumps(edited(data, pull)))


@pytest.mark.parametrize(
    "h8",
    [
        {"fumble_time": 0.5, "race_margin": 0.25},
        {"fumble_time": 3, "race_margin": 0.25, "fumbles": []},
        {"fumble_time": 0, "race_margin": 0.25, "fumbles": [[0, 0, 1.0, ["play", 0, 0, 0]]]},
        {"fumble_time": 0.5, "race_margin": 0.25, "fumbles": [[0, 0, 1.0, ["call", 0, 0, 0]]]},
        {"fumble_time": 0.5, "race_margin": 0.25, "fumbles": [[9**9, 0, 1.0, ["play", 0, 0, 0]]]},
        {"fumble_time": 0.5, "race_margin": 0.25, "fumbles": "many"},
    ],
)
def test_H8_a_malformed_record_is_refused_in_one_line(
    fumbled: tuple[Arbiter, dict[str, Any]], h8: dict[str, Any]
) -> None:
    _, data = fumbled
    bad = dict(data, h8=h8)
    with pytest.raises(ReplayFileError) as info:
        parse_replay(json.dumps(bad))
    assert "\n" not in str(info.value)


def test_H8_fumble_time_zero_records_no_rule() -> None:
    arbiter, meta = mashed(seconds=5.0, timing=Timing(fumble_time=0))
    assert arbiter.fumbles == [] and meta.h8 is None
    assert "h8" not in data_of(arbiter, meta)


def test_H8_the_archiver_keeps_the_fumbles_in_the_saved_game_and_the_resumed_one(
    isolated_dirs: Path,
) -> None:
    """A game saved mid-way keeps its fumbles; resumed, it goes on under its own rule
    and the replay holds the fumbles of both sessions."""
    arbiter, _ = mashed(seconds=20.0)
    archiver = Archiver(arbiter, [PlayerInfo("Masher"), PlayerInfo("Computer", bot="medium")])
    archiver([])
    assert archiver.save_now() is None and archiver.save_path is not None
    saved = load_replay(archiver.save_path)
    assert saved.meta.h8 is not None
    assert len(saved.meta.h8.fumbles) == len(arbiter.fumbles) > 0
    # resumed: a new arbiter over the same game, with the saved rule
    clock = FakeClock()
    game = saved.final
    again = Arbiter(game, saved.meta.h8.timing(Timing()), clock)
    resumed = Archiver(again, saved.meta.players, resumed=saved)
    t = clock.now + 1.0
    blind = next(
        a
        for a in (key_action(game, b) for b in player_keys(0))
        if not isinstance(a, str) and a.kind is Kind.PLAY and a.player == 0 and not game.is_legal(a)
    )
    again.submit(blind, at=t)
    again.tick(t)
    assert len(again.fumbles) == 1
    again.submit(game.legal_actions(0)[0], at=t + 1.0)  # an action, so there is news to save
    again.tick(t + 1.0)
    resumed([])
    assert resumed.save_now() is None and resumed.save_path is not None
    both = load_replay(resumed.save_path)
    assert both.meta.h8 is not None and len(both.meta.h8.fumbles) == len(arbiter.fumbles) + 1


@pytest.mark.parametrize("with_h8", [False, True])
def test_H8_a_resumed_game_goes_on_under_its_own_fumble_rule(
    fumbled: tuple[Arbiter, dict[str, Any]], with_h8: bool
) -> None:
    """A save from before H8 goes on without fumbles; one with H8 keeps its
    settings, whatever the settings file says now."""
    from spit.tui.dealer import AppDependencies, AppSettings, Dealer, GameSettings

    _, data = fumbled
    saved = dict(data)
    if with_h8:
        saved["h8"] = dict(data["h8"], fumble_time=0.3, race_margin=0.125)
    else:
        del saved["h8"]
    replay = parse_replay(json.dumps(saved))
    settings = AppSettings(game=GameSettings(timing=Timing(fumble_time=0.5)))
    dealer = Dealer(settings, AppDependencies(clock=FakeClock(), record=False))
    session = dealer.deal("spit", resumed=replay)
    timing = session.arbiter.timing  # type: ignore[attr-defined]
    assert (timing.fumble_time, timing.race_margin) == ((0.3, 0.125) if with_h8 else (0.0, 0.25))


def test_H8_coaching_counts_each_players_fumbles(
    fumbled: tuple[Arbiter, dict[str, Any]],
) -> None:
    from spit.store.coaching import coach_game, coach_replay

    arbiter, data = fumbled
    coaching = coach_replay(parse_replay(json.dumps(data)))
    masher, computer = coaching.players
    assert masher.summary.fumbles == len(arbiter.fumbles) > 0
    assert computer.summary.fumbles == 0
    assert f"; {len(arbiter.fumbles)} fumbles" in coaching.lines()[1]
    assert all(len(line) <= 76 for line in coaching.lines())
    assert masher.to_json()["fumbles"] == len(arbiter.fumbles)
    # a game just played: the same count from the arbiter's fumbles
    times = [t - arbiter.start_time for t, _ in arbiter.log]
    fresh = coach_game(
        arbiter.game,
        times,
        coaching_players(),
        [f.action.player for f in arbiter.fumbles],
    )
    assert fresh.players[0].summary.fumbles == len(arbiter.fumbles)
    # without fumbles the line says nothing of them
    assert "fumble" not in coach_game(arbiter.game, times, coaching_players()).lines()[1]


def coaching_players() -> tuple[PlayerInfo, PlayerInfo]:
    return (PlayerInfo("Masher"), PlayerInfo("Computer", bot="medium"))
