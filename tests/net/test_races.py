"""The race audit: every press a host judged goes into the replay, and
``spit replay --races`` lists the close races in words."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.net.test_fairness import Inbox, guest_stamper, press_at
from tests.support import FakeClock
from tests.support.net import race_position

from spit.cli import main
from spit.net.match import Match
from spit.net.stamping import MARGIN, Stamper
from spit.store.races import Press, close_races, parse_presses, presses_json, race_lines
from spit.store.replays import (
    PlayerInfo,
    ReplayFileError,
    load_replay,
    new_meta,
    parse_replay,
    replay_data,
    verify_file,
)

NAMES = ("Ann", "Bob")
RULE_ID = re.compile(r"\b[RHPV]\d")


def raced(guest_lead: float, lie: float = 0.0) -> Match:
    """Ann (the host's keyboard) and Bob (a guest 40 ms away) race for one pile."""
    game, ann_play, bob_play = race_position()
    clock = FakeClock()
    match = Match(game, clock=clock, window=0.2, names=NAMES)
    match.attach(0, Inbox(), Stamper.local(), clock.now)
    match.attach(1, Inbox(), guest_stamper(clock, 0.04), clock.now)
    clock.now += 1.0
    match.tick(clock.now)
    press = clock.now
    bob_press, ann_press = press, press + guest_lead
    deliveries = sorted([(ann_press, 0), (bob_press + 0.04, 1)])
    for arrival, seat in deliveries:
        clock.now = arrival
        match.tick(clock.now)
        if seat == 0:
            match.submit_local(0, 1, ann_play, ann_press, arrival)
        else:
            press_at(match, clock, 1, bob_play, made=bob_press, lie=lie)
        match.tick(clock.now)
    clock.now += 0.5
    match.tick(clock.now)
    return match


def replay_of(match: Match) -> dict[str, object]:
    meta = new_meta([PlayerInfo(n) for n in NAMES])
    times = [0.0] * len(match.game.actions)
    return replay_data(match.game, times, meta, {"presses": presses_json(match.presses)})


def test_each_press_keeps_its_stamp_arrival_clamp_and_verdict() -> None:
    match = raced(guest_lead=0.01)  # Bob pressed 10 ms before Ann
    ann, bob = sorted(match.presses, key=lambda p: p.seat)
    assert bob.arrival - bob.press == pytest.approx(0.04, abs=1e-6)
    assert ann.clamp == 0 and bob.clamp == 0
    assert bob.applied and not ann.applied and ann.reason
    assert bob.order is not None and ann.order is not None and bob.order < ann.order
    assert bob.index == len(match.game.actions) - 1


def test_the_replay_keeps_the_presses_and_loads_them_back() -> None:
    match = raced(guest_lead=0.01)
    replay = parse_replay(json.dumps(replay_of(match)))
    assert replay.presses is not None
    assert [p.to_json() for p in replay.presses] == presses_json(match.presses)


def test_close_races_say_who_won_and_why_in_words() -> None:
    match = raced(guest_lead=0.01)
    (race,) = close_races(match.presses)
    assert race.winner.seat == 1 and race.lead == pytest.approx(0.01, abs=1e-4)
    text = "\n".join(race_lines(match.presses, NAMES))
    assert "Bob's card to the" in text and "went first" in text
    assert "Bob pressed 10 ms earlier." in text
    assert "Ann's was refused" in text
    assert not RULE_ID.search(text)


def test_a_clamped_press_is_explained() -> None:
    # Bob presses 1 ms after Ann but claims a second earlier: he gains the margin
    # (2 ms) and wins; the audit shows his press was judged later than it claimed.
    match = raced(guest_lead=-MARGIN / 2, lie=1.0)
    (race,) = close_races(match.presses)
    assert race.winner.seat == 1
    assert race.winner.clamp == pytest.approx(1.0 - MARGIN, abs=1e-6)
    text = "\n".join(race_lines(match.presses, NAMES))
    assert "later than it claimed" in text
    assert not RULE_ID.search(text)


def test_a_late_press_is_explained() -> None:
    press = Press(
        1,
        race_position()[2],
        press=1.0,
        arrival=1.3,
        clamp=0.0,
        window=0.1,
        judged=1.3,
        order=1,
        index=None,
        reason="no longer fits",
    )
    other = Press(
        0,
        race_position()[1],
        press=1.05,
        arrival=1.05,
        clamp=0.0,
        window=0.1,
        judged=1.05,
        order=0,
        index=5,
    )
    (race,) = close_races([press, other])
    assert race.winner is other
    lines = race_lines([press, other], NAMES)
    assert any("longer than the host waited" in line for line in lines)


def test_old_replays_without_presses_still_load_and_verify(tmp_path: Path) -> None:
    match = raced(guest_lead=0.01)
    data = replay_of(match)
    del data["presses"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    assert load_replay(path).presses is None
    ok, line = verify_file(path)
    assert ok, line


def test_a_damaged_race_audit_is_refused_in_one_line() -> None:
    data = replay_of(raced(guest_lead=0.01))
    presses = data["presses"]
    assert isinstance(presses, list)
    presses[0]["press"] = "soon"
    with pytest.raises(ReplayFileError, match="race audit is damaged: press 1: press"):
        parse_replay(json.dumps(data))
    with pytest.raises(ValueError):
        parse_presses([{"seat": 3}], 1)


def test_spit_replay_races_lists_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "net.json"
    path.write_text(json.dumps(replay_of(raced(guest_lead=0.01))))
    assert main(["replay", "--races", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 close race" in out and "Bob pressed 10 ms earlier." in out
    assert not RULE_ID.search(out)


def test_spit_replay_races_on_a_replay_without_presses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = replay_of(raced(guest_lead=0.01))
    del data["presses"]
    path = tmp_path / "local.json"
    path.write_text(json.dumps(data))
    assert main(["replay", "--races", str(path)]) == 0
    assert "keeps no record of presses" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["replay", "--races", str(bad)]) == 1
    assert "bad.json" in capsys.readouterr().err


def test_the_hosts_own_replay_file_keeps_the_presses() -> None:
    """The archiver writes the finished game's replay with the audit the host hands it."""
    from tests.store.test_archive import new_arbiter, run

    from spit.engine import SpitConfig, SpitGame
    from spit.store import paths
    from spit.store.archive import Archiver

    clock = FakeClock(1000.0)
    arbiter = new_arbiter(SpitGame(SpitConfig(round_limit=30), seed=6), clock)
    archiver = Archiver(arbiter, [PlayerInfo(n) for n in NAMES])
    audit = raced(guest_lead=0.01).presses
    archiver.extra = lambda: {"presses": presses_json(audit)}
    run(arbiter, clock, archiver)
    assert archiver.status is not None and archiver.status.saved, archiver.message
    (path,) = paths.replay_dir().glob("*.json")
    kept = load_replay(path).presses
    assert kept is not None and [p.to_json() for p in kept] == presses_json(audit)
