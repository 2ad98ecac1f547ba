"""The board's brief marks, from the arbiter's outcomes (no Textual)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from spit.engine import play
from spit.engine.events import CardPlayed, Dealt
from spit.play.effects import DURATION, GRID, SLACK, EffectKind, Effects
from spit.realtime.arbiter import Applied, Rejected


def test_a_move_that_came_just_after_the_other_players_card_lost_a_race() -> None:
    effects = Effects()
    effects.note([Applied(10.0, play(1, 2, 0), [CardPlayed(1, 2, 0, 5)])], 10.0)
    effects.note([Rejected(10.1, play(0, 3, 0), "not next to the top card")], 10.1)
    lost = [m for m in effects.active(10.1) if m.kind is EffectKind.LOST_RACE]
    assert [(m.player, m.pile) for m in lost] == [(0, 0)]


def test_a_refusal_with_no_card_just_played_there_is_no_lost_race() -> None:
    effects = Effects()
    effects.note([Applied(10.0, play(0, 2, 0), [CardPlayed(0, 2, 0, 5)])], 10.0)
    effects.note([Rejected(10.1, play(0, 3, 0), "not next to the top card")], 10.1)  # own card
    effects.note([Rejected(13.0, play(1, 3, 0), "not next to the top card")], 13.0)  # long after
    assert not [m for m in effects.active(13.0) if m.kind is EffectKind.LOST_RACE]


def test_the_fumble_hook_marks_the_slot() -> None:
    effects = Effects()
    effects.fumble(1, 3, 5.0)
    (mark,) = effects.active(5.0)
    assert (mark.kind, mark.player, mark.column) == (EffectKind.FUMBLE, 1, 3)


def test_turned_off_there_are_no_marks() -> None:
    effects = Effects(enabled=False)
    effects.note([Applied(1.0, play(0, 0, 0), [CardPlayed(0, 0, 0, 5), Dealt(0, (1,), 0)])], 1.0)
    effects.fumble(0, 0, 1.0)
    assert effects.marks == [] and effects.next_end() is None


@given(st.floats(0, 10_000, allow_nan=False), st.sampled_from(list(EffectKind)))
def test_a_mark_lasts_its_duration_and_ends_on_the_grid(now: float, kind: EffectKind) -> None:
    effects = Effects()
    effects.add(kind, 0, now, column=0)
    (mark,) = effects.marks
    end = mark.until
    assert now + DURATION[kind] <= end + 1e-9 < now + DURATION[kind] + GRID + 1e-9
    assert math.isclose(end / GRID, round(end / GRID), abs_tol=1e-6)
    assert effects.active(end - 1e-6) and effects.active(end) == ()
    # the screen is woken a little after, unless something drew the board meanwhile
    wake = effects.next_end()
    assert wake is not None and math.isclose(wake, end + SLACK)
    assert effects.expire(end)


def test_H8_a_refusal_that_started_a_fumble_marks_the_slot_not_a_lost_race() -> None:
    effects = Effects()
    effects.note([Applied(10.0, play(1, 2, 0), [CardPlayed(1, 2, 0, 5)])], 10.0)
    effects.note([Rejected(10.1, play(0, 3, 0), "not next to the top card", fumble=1.0)], 10.1)
    marks = {(m.kind, m.player, m.column) for m in effects.active(10.1)}
    assert (EffectKind.FUMBLE, 0, 3) in marks
    assert not any(kind is EffectKind.LOST_RACE for kind, _, _ in marks)
