"""Replay files: round trips, timed actions, and bad or hostile files."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spit.engine import SpitConfig, play
from spit.store.replays import (
    MAX_REPLAY_BYTES,
    PlayerInfo,
    Replay,
    ReplayFileError,
    load_replay,
    new_meta,
    parse_replay,
    replay_data,
    save_replay,
    times_from_log,
    verify_file,
)

PLAYERS = (PlayerInfo("Ann"), PlayerInfo("bot", bot="hard"))


@pytest.fixture
def saved(playout) -> tuple[Path, dict]:
    game, times = playout(SpitConfig(round_limit=30, alternating_colours=True), seed=5)
    path = save_replay(game, times, new_meta(PLAYERS))
    return path, json.loads(path.read_text())


def test_round_trip_gives_same_final_fingerprint_and_times(playout):
    game, times = playout(SpitConfig(round_limit=30), seed=11)
    path = save_replay(game, times, new_meta(PLAYERS))
    assert path.parent.name == "replays"
    replay = load_replay(path)
    assert isinstance(replay, Replay)
    assert replay.final.fingerprint() == game.fingerprint()
    assert [a for _, a in replay.timed] == game.actions
    assert [t for t, _ in replay.timed] == pytest.approx(times)
    assert replay.meta.players == PLAYERS
    assert replay.start.actions == [] and replay.start.round_no == 1
    # driving the start position with the timed actions reaches the same end
    for _, action in replay.timed:
        replay.start.apply(action)
    assert replay.start.fingerprint() == game.fingerprint()


def test_replay_file_is_also_an_engine_save(saved):
    from spit.engine import loads

    path, _ = saved
    assert loads(path.read_text()).over


def test_two_replays_in_the_same_second_get_different_names(playout):
    game, times = playout(seed=2)
    meta = new_meta(PLAYERS)
    assert save_replay(game, times, meta) != save_replay(game, times, meta)


def test_times_from_arbiter_log_are_relative_to_start():
    log = [(100.5, play(0, 0, 0)), (101.0, play(1, 0, 1))]
    assert times_from_log(log, 100.0) == [0.5, 1.0]
    assert times_from_log(log, 100.0, offset=60.0) == [60.5, 61.0]


def test_replay_data_refuses_mismatched_times(playout):
    game, times = playout(seed=3)
    with pytest.raises(ValueError):
        replay_data(game, times[:-1], new_meta(PLAYERS))


def test_verify_ok_line(saved):
    path, _ = saved
    ok, line = verify_file(path)
    assert ok and str(path) in line and "\n" not in line


def write_json(tmp_path: Path, data) -> Path:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path


def edits():
    """(description, change to the replay dict, words the error must contain)."""

    def swap_actions(d):
        d["actions"][10], d["actions"][11] = d["actions"][11], d["actions"][10]

    def insert_slap(d):
        d["actions"].insert(0, ["slap", 0, 0, 0])
        d["times"].insert(0, 0.0)

    def card_change(d):
        d["seed"] = d["seed"] + 1

    return [
        ("fingerprint", lambda d: d.update(fingerprint="0" * 32), "fingerprint"),
        ("no fingerprint", lambda d: d.pop("fingerprint"), "fingerprint"),
        ("non-monotonic", lambda d: d["times"].__setitem__(5, -1 + d["times"][4]), "earlier"),
        ("times short", lambda d: d["times"].pop(), "times for"),
        ("time string", lambda d: d["times"].__setitem__(0, "soon"), "not a number"),
        ("time nan", lambda d: d["times"].__setitem__(0, float("inf")), "not a number"),
        ("time too big for a float", lambda d: d["times"].__setitem__(0, 10**320), "range"),
        ("illegal action", insert_slap, "illegal"),
        ("bad kind", lambda d: d["actions"].__setitem__(3, ["cheat", 0, 0, 0]), "unknown action"),
        ("wrong player", lambda d: d["actions"].__setitem__(3, ["play", 7, 0, 0]), "range"),
        ("swapped", swap_actions, ""),
        ("other seed", card_change, ""),
        ("no meta", lambda d: d.pop("meta"), "meta"),
        ("bad name", lambda d: d["meta"]["players"][0].update(name=5), "name"),
        ("bad date", lambda d: d["meta"].update(date="yesterday"), "date"),
        ("bad mode", lambda d: d.update(mode="poker"), "mode"),
        ("bad config", lambda d: d["config"].update(rm_rf=True), "config"),
        ("bad seed", lambda d: d.update(seed=-1), "seed"),
        ("bad cards", lambda d: d.update(cards=[[1, 2], "x"]), ""),
        ("not a list", lambda d: d.update(actions={"a": 1}), "actions"),
    ]


@pytest.mark.parametrize(("what", "edit", "words"), edits(), ids=[e[0] for e in edits()])
def test_edited_replay_gives_one_line_error_naming_file(saved, tmp_path, what, edit, words):
    _, data = saved
    edit(data)
    path = write_json(tmp_path, data)
    with pytest.raises(ReplayFileError) as info:
        load_replay(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert "\n" not in message
    assert words in message
    ok, line = verify_file(path)
    assert not ok and line.startswith("FAIL")


def test_truncated_file(saved, tmp_path):
    path, _ = saved
    bad = tmp_path / "cut.json"
    bad.write_bytes(path.read_bytes()[:-50])
    with pytest.raises(ReplayFileError, match="not valid JSON"):
        load_replay(bad)


def test_deeply_nested_json(tmp_path):
    bad = tmp_path / "deep.json"
    bad.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ReplayFileError, match="deep"):
        load_replay(bad)


def test_huge_file_is_refused_without_reading_it_all(tmp_path):
    bad = tmp_path / "huge.json"
    with open(bad, "wb") as handle:
        handle.truncate(MAX_REPLAY_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(ReplayFileError, match="larger"):
        load_replay(bad)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ReplayFileError, match="no such file"):
        load_replay(tmp_path / "nope.json")
    with pytest.raises(ReplayFileError, match="folder"):
        load_replay(tmp_path)


def test_huge_integer_and_pickle_bytes(tmp_path):
    for raw in (b'{"seed": ' + b"9" * 10_000 + b"}", b"\x80\x04\x95cos\nsystem\n."):
        bad = tmp_path / "x.json"
        bad.write_bytes(raw)
        with pytest.raises(ReplayFileError):
            load_replay(bad)


@given(st.binary(max_size=400))
def test_junk_bytes_give_replay_file_error(junk):
    with pytest.raises(ReplayFileError):
        parse_replay(junk)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)


@given(
    st.dictionaries(
        st.sampled_from(
            [
                "format",
                "version",
                "mode",
                "config",
                "seed",
                "cards",
                "actions",
                "times",
                "meta",
                "fingerprint",
            ]
        ),
        json_values,
    )
)
def test_junk_json_objects_give_replay_file_error(data):
    with pytest.raises(ReplayFileError):
        parse_replay(json.dumps(data))


@given(st.integers(0, 400), st.sampled_from(["drop", "dup", "time"]))
def test_mutated_real_replay_fails_cleanly(replay_text, index, how):
    data = json.loads(replay_text)
    n = len(data["actions"])
    i = index % n
    if how == "drop":
        del data["actions"][i]
        del data["times"][i]
    elif how == "dup":
        data["actions"].insert(i, data["actions"][i])
        data["times"].insert(i, data["times"][i])
    else:
        data["times"][i] = data["times"][-1] + 1.0
        if i == n - 1:
            data["times"][i] = -1.0
    with pytest.raises(ReplayFileError):
        parse_replay(json.dumps(data))


@pytest.mark.parametrize("field", ["name", "bot"])
def test_a_long_bad_name_is_cut_with_an_ellipsis(saved, tmp_path, field):
    """The reason quotes the start of the name and ends in '…', not cut mid-quote."""
    _, data = saved
    data["meta"]["players"][1][field] = "Abcdefghij " * 20
    path = write_json(tmp_path, data)
    with pytest.raises(ReplayFileError) as info:
        load_replay(path)
    message = str(info.value)
    assert message.endswith("…'") and "'Abcdefghij Abcdefghij" in message


def test_a_label_never_carries_control_characters():
    """Printed by spit resume --list, stats or coach, they would be terminal escapes."""
    assert PlayerInfo("a\x07b\x1b[31mc").label == "a?b?[31mc"
    assert PlayerInfo("x", bot="me:\x1bZ").label == "Computer (like ?Z)"
    assert PlayerInfo("Ann [b]").label == "Ann [b]"


def test_a_match_me_computer_is_labelled_as_on_the_board():
    """The board calls a "match me" bot 'Computer (like Ann)'; so do the lists."""
    assert PlayerInfo("Computer (like Ann)", bot="me:Ann").label == "Computer (like Ann)"
    assert PlayerInfo("Computer (hard)", bot="hard").label == "Computer (hard)"
