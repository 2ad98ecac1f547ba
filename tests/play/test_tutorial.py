"""The tutorial's lessons (play/tutorial.py): positions, right keys, explained wrong keys."""

from __future__ import annotations

import pytest

from spit.engine import Kind, Phase, SpeedGame, SpitGame, call, slap
from spit.play.keys import KeyMap
from spit.play.session import key_action
from spit.play.tutorial import LESSONS, LINE_WIDTH, Lesson, keys_for, texts

KEYMAP = KeyMap.default()
IDS = [lesson.title for lesson in LESSONS]


def player_keys(player: int) -> list[str]:
    rows = KEYMAP.rows[player]
    return [*rows[0], *rows[1], *rows[2], KEYMAP.calls[player]]


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_expected_action_is_legal_and_has_a_key(lesson: Lesson) -> None:
    assert lesson.expected
    for action in lesson.expected:
        game = lesson.build()
        assert game.is_legal(action), action
        assert keys_for(action, game, KEYMAP)
        game.apply(action)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_explained_wrong_key_is_really_wrong(lesson: Lesson) -> None:
    game = lesson.build()
    for action, words in lesson.wrong.items():
        assert action not in lesson.expected
        keys = keys_for(action, game, KEYMAP)
        assert keys, f"no key means {action} here"
        for key in keys:
            verdict = lesson.judge(game, key, KEYMAP)
            assert not verdict.ok and verdict.text == texts(words, KEYMAP)


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_a_key_is_right_exactly_when_it_means_an_expected_action(lesson: Lesson) -> None:
    game = lesson.build()
    before = game.fingerprint()
    right = []
    for key in player_keys(0):
        binding = KEYMAP.lookup(key)
        assert binding is not None
        verdict = lesson.judge(game, key, KEYMAP)
        assert verdict.ok == (key_action(game, binding) in lesson.expected), key
        assert verdict.text and len(verdict.text) <= 2 * LINE_WIDTH
        if verdict.ok:
            right.append(key)
    assert right
    for key in player_keys(1):
        verdict = lesson.judge(game, key, KEYMAP)
        assert not verdict.ok and "player 2" in verdict.text
    assert not lesson.judge(game, "F9", KEYMAP).ok
    assert game.fingerprint() == before  # judging changes nothing


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_lesson_lines_fit_the_board(lesson: Lesson) -> None:
    lines = [lesson.heading(), lesson.task, lesson.hint, lesson.success, *lesson.wrong.values()]
    for line in lines:
        assert len(texts(line, KEYMAP)) <= LINE_WIDTH, line


def test_the_positions_show_what_their_rules_say() -> None:
    by_rule = {lesson.rules: lesson.build() for lesson in LESSONS}
    stuck = by_rule["R12, R13"]
    assert isinstance(stuck, SpitGame) and stuck.phase is Phase.STALEMATE  # R12 at once
    assert stuck.legal_actions(0) == [call(0)]
    slapping = by_rule["R16"]
    assert isinstance(slapping, SpitGame) and slapping.phase is Phase.SLAP
    assert [len(p) for p in slapping.piles] == [16, 4]
    assert slapping.legal_actions(0) == [slap(0, 0), slap(0, 1)]
    fresh = by_rule["R17"]
    assert isinstance(fresh, SpitGame) and fresh.phase is Phase.OPENING and fresh.round_no == 2
    assert (fresh.card_count(0), len(fresh.spit[0]), fresh.card_count(1)) == (17, 2, 35)
    few = by_rule["R18, R19"]
    assert isinstance(few, SpitGame) and few.one_pile_round
    assert few.layout_count(0) == 6 and not few.spit[0] and few.pile_used == [False, True]
    speed = by_rule["P2-P4"]
    assert isinstance(speed, SpeedGame) and speed.phase is Phase.PLAY
    assert speed.hand_count(0) == 5
    # fill an empty slot: only moves are possible for player 1
    slot = by_rule["R10"]
    assert isinstance(slot, SpitGame) and not slot.stocks[0][0]
    assert {a.kind.name for a in slot.legal_actions(0)} == {"MOVE"}


def test_R13_the_spit_lesson_plays_the_spit_it_describes() -> None:
    """The lesson about calling spit shows what the call does: after player 1's call,
    player 2 calls, each turns a spit card onto their own pile, and play resumes with
    the cards its words name."""
    from spit.engine import card_name

    lesson = next(lesson for lesson in LESSONS if lesson.rules == "R12, R13")
    game = lesson.build()
    assert isinstance(game, SpitGame)
    game.apply(sorted(lesson.expected)[0])
    for action in lesson.then:
        game.apply(action)
    assert game.phase is Phase.PLAY
    tops = [card_name(pile[-1]) for pile in game.piles]
    for name in tops:
        assert name in lesson.success
    assert any(a.kind.name == "PLAY" for a in game.legal_actions(0))


def test_R18_the_small_layout_lesson_says_15_cards_or_fewer() -> None:
    """RULES.md's R18: "15 cards or fewer" get no spit cards; the lesson says the same
    (it said "fewer than 15", which leaves out exactly 15)."""
    lesson = next(lesson for lesson in LESSONS if lesson.rules.startswith("R18"))
    assert "15 cards or fewer" in lesson.title
    assert "fewer than 15" not in lesson.title.lower()


def test_H8_a_lesson_teaches_fumbles() -> None:
    (lesson,) = [lesson for lesson in LESSONS if lesson.rules == "H8"]
    game = lesson.build()
    plays = [a for a in game.legal_actions(0) if a.kind is Kind.PLAY]
    assert set(plays) == set(lesson.expected)  # one card fits: the others are fumbles
    blind = next(iter(lesson.wrong))
    verdict = lesson.judge(game, keys_for(blind, game, KEYMAP)[0], KEYMAP)
    assert not verdict.ok and "fumble" in verdict.text
    right = lesson.judge(game, keys_for(next(iter(lesson.expected)), game, KEYMAP)[0], KEYMAP)
    assert right.ok
