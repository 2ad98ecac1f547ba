"""Coaching from saved games: ``spit coach``, the closest level and a player's speed profile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spit.bots.fit import closest_level, typical_delay
from spit.bots.reaction import REACTIONS
from spit.bots.sim import Seat, play_game
from spit.cli import main
from spit.engine import Game
from spit.realtime.arbiter import Arbiter
from spit.store.coaching import (
    coach_game,
    is_match_me,
    last_replay,
    match_me,
    match_me_name,
    speed_profile,
)
from spit.store.paths import replay_dir
from spit.store.replays import PlayerInfo, new_meta, save_replay, times_from_log


def simulated(
    p1: str, p2: str, seed: int, players: tuple[PlayerInfo, PlayerInfo], folder: Path | None
) -> tuple[Game, list[float]]:
    """Play one bot game on a fake clock; save its replay to ``folder`` if given."""
    kept: list[tuple[Game, list[float]]] = []

    def finish(game: Game, arbiter: Arbiter, index: int) -> None:
        times = times_from_log(arbiter.log, arbiter.start_time)
        kept.append((game, times))
        if folder is not None:
            save_replay(game, times, new_meta(players), folder, name=f"g{seed}.json")

    play_game((Seat.parse(p1), Seat.parse(p2)), seed=seed, on_finish=finish)
    return kept[0]


EASY, EXPERT = PlayerInfo("E", "easy"), PlayerInfo("X", "expert")


def test_the_closest_level_of_a_bot_is_its_own_level() -> None:
    game, times = simulated("easy", "expert", 3, (EASY, EXPERT), None)
    coaching = coach_game(game, times, (EASY, EXPERT))
    assert [p.closest_level for p in coaching.players] == ["easy", "expert"]
    slow, fast = (p.summary for p in coaching.players)
    assert slow.median_reaction is not None and fast.median_reaction is not None
    assert slow.median_reaction > fast.median_reaction
    assert fast.cards_per_minute > slow.cards_per_minute


def test_coach_prints_the_last_game_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach"]) == 1
    assert "no saved games yet" in capsys.readouterr().err
    simulated("easy", "expert", 4, (EASY, EXPERT), replay_dir())
    assert last_replay() == replay_dir() / "g4.json"
    assert main(["coach"]) == 0
    out = capsys.readouterr().out
    assert "Computer (easy):" in out and "plays like easy" in out
    assert "playable: median" in out and "missed chances:" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert main(["coach", str(replay_dir() / "g4.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [p["closest_level"] for p in data["players"]] == ["easy", "expert"]
    assert data["players"][0]["plays"] > 0


def test_coach_names_a_bad_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["coach", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("spit: ") and "bad.json" in err and len(err.splitlines()) == 1
    assert main(["coach", str(tmp_path / "missing.json")]) == 1
    assert "no such file" in capsys.readouterr().err


def test_speed_profile_fits_a_players_saved_games() -> None:
    # "Ann" is an easy-speed bot under a person's name; the profile ignores other people.
    ann, bob = PlayerInfo("Ann"), PlayerInfo("Bob")
    for seed in range(4):
        simulated("medium:easy", "medium:expert", seed, (ann, bob), replay_dir())
    profile = speed_profile("Ann")
    assert profile.fitted and profile.reactions >= 30
    assert closest_level(typical_delay(profile.reaction)) == "easy"
    assert closest_level(typical_delay(speed_profile("Bob").reaction)) == "expert"
    nobody = speed_profile("Zed")
    assert not nobody.fitted and nobody.reactions == 0


def test_match_me_copies_the_persons_speed_and_the_nearest_levels_play() -> None:
    ann, bob = PlayerInfo("Ann"), PlayerInfo("Bob")
    for seed in range(4):
        simulated("medium:easy", "medium:expert", seed, (ann, bob), replay_dir())
    like_ann = match_me("Ann")
    assert like_ann.profile == speed_profile("Ann")
    assert like_ann.strategy == "easy" and like_ann.label == "me:Ann"
    assert match_me("Bob").strategy == "expert"
    nobody = match_me("Zed")  # no saved games: the default level's speed
    assert nobody.profile.reaction == REACTIONS["medium"] and nobody.strategy == "medium"


def test_match_me_level_names() -> None:
    assert match_me_name("match-me", "Ann") == "Ann"
    assert match_me_name("me:Bob", "Ann") == "Bob"
    assert match_me_name("me: ", "Ann") is None
    assert match_me_name("hard", "Ann") is None
    assert is_match_me("me:Bob") and is_match_me("match-me") and not is_match_me("easy")


def test_stats_draws_the_charts_of_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    from spit.store.coaching import player_reactions
    from spit.tui.charts import MAX_SHOWN_REACTION

    ann, bob = PlayerInfo("Ann"), PlayerInfo("Bob")
    for seed in range(2):
        simulated("medium", "medium", seed, (ann, bob), replay_dir())
    plays = sum(1 for t in player_reactions("Ann", mode="spit") if t <= MAX_SHOWN_REACTION)
    assert plays > 0
    assert main(["stats", "--player", "Ann"]) == 0
    out = capsys.readouterr().out
    assert f"Reaction times of Ann: {plays} plays" in out
    assert "Rating of Ann (spit)" in out and "\x1b[" not in out
    assert main(["stats", "--player", "Ann", "--mode", "speed"]) == 0
    assert "Reaction times of Ann: 0 plays" in capsys.readouterr().out
    assert main(["stats", "--player", "Ann", "--no-charts"]) == 0
    assert "Reaction times" not in capsys.readouterr().out
    assert main(["stats", "--json"]) == 0
    json.loads(capsys.readouterr().out)


def test_speed_coaching_leaves_out_calls_and_slaps() -> None:
    kept: list[tuple[Game, list[float]]] = []

    def finish(game: Game, arbiter: Arbiter, index: int) -> None:
        kept.append((game, times_from_log(arbiter.log, arbiter.start_time)))

    play_game((Seat.parse("hard"), Seat.parse("medium")), mode="speed", seed=2, on_finish=finish)
    game, times = kept[0]
    lines = coach_game(game, times, (EASY, EXPERT)).lines()
    assert sum(1 for line in lines if "playable: median" in line) == 2
    assert not any("spit call" in line or "slap" in line for line in lines)


def _game_with_moments(folder: Path) -> Path:
    """A bot game's replay with a person in seat 1 (so that their moments are shown)."""
    people = (PlayerInfo("Ann"), PlayerInfo("X", "expert"))
    simulated("easy", "expert", 5, people, folder)
    return folder / "g5.json"


def test_coach_lists_the_moments_and_opens_the_replay_at_one(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from spit.store.coaching import coach_replay
    from spit.store.replays import load_replay
    from spit.tui import launch

    path = _game_with_moments(replay_dir())
    coaching = coach_replay(load_replay(path))
    assert coaching.moments and {m.player for m in coaching.moments} == {0}  # Ann's only
    assert main(["coach", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ann: moments to watch again" in out
    first = coaching.moments[0]
    assert f"  1. {first.words()}" in out
    assert f"Watch one in the replay: spit coach {path} --at N" in out
    assert max(len(line) for line in out.splitlines() if str(path) not in line) <= 80
    assert json.loads(_json(path, capsys))["moments"][0]["at"] == round(first.at, 3)

    opened: list[object] = []
    monkeypatch.setattr(launch, "run", lambda app: opened.append(app) or 0)
    last = len(coaching.moments)
    assert main(["coach", str(path), "--at", str(last)]) == 0
    (app,) = opened
    moment = coaching.moments[last - 1]
    assert app.opening.replay is not None and app.opening.replay_at == moment.at
    assert app.opening.replay_note == moment.words()
    assert main(["coach", str(path), "--at", str(last + 1)]) == 2
    assert f"this game has moments 1 to {last}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["coach", str(path), "--at", "0"])
    assert "numbered from 1" in capsys.readouterr().err


def _json(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["coach", str(path), "--json"]) == 0
    return capsys.readouterr().out


def test_replay_at_a_time_opens_the_viewer_there(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from spit.tui import launch

    path = _game_with_moments(replay_dir())
    opened: list[object] = []
    monkeypatch.setattr(launch, "run", lambda app: opened.append(app) or 0)
    assert main(["replay", str(path), "--at", "0:02"]) == 0
    assert opened[0].opening.replay_at == 2.0  # type: ignore[attr-defined]
    with pytest.raises(SystemExit):
        main(["replay", str(path), "--at", "soon"])
    assert "'soon' is not a time" in capsys.readouterr().err
    assert main(["replay", str(path), "--at", "9:00:00"]) == 2
    assert "this replay is" in capsys.readouterr().err and len(opened) == 1
