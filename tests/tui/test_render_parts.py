"""A row of cards put together from its columns' drawings is the row drawn at once.

``draw_slots`` joins each column's own cached drawing; ``draw_slots_whole``
draws the row on one canvas. They must agree on the text, the spans and the
runs (which the board's boxes turn into screen lines), whatever the cards,
keys, flashes, palettes, and also when a column's text is too wide for it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spit.tui.render import (
    PALETTES,
    Slot,
    _slot_part,
    draw_slots,
    draw_slots_whole,
)

slots = st.builds(
    Slot,
    st.one_of(st.none(), st.integers(0, 51), st.integers(-3, -1)),
    st.sampled_from(["", "+1", "+12", "+1234567"]),
    st.sampled_from(["", "q a z", "y h", "a long key name"]),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(slots, min_size=0, max_size=7),
    st.booleans(),
    st.booleans(),
    st.sampled_from(sorted(PALETTES)),
)
def test_a_row_joined_from_its_columns_is_the_row_drawn_at_once(
    row: list[Slot], keys_above: bool, symbols: bool, palette: str
) -> None:
    joined = draw_slots.__wrapped__(tuple(row), keys_above, symbols, PALETTES[palette])
    whole = draw_slots_whole(tuple(row), keys_above, symbols, PALETTES[palette])
    assert joined.plain == whole.plain
    assert joined.spans == whole.spans
    assert joined.runs == whole.runs


def test_an_ordinary_column_is_joined_and_a_too_wide_one_is_drawn_with_the_row() -> None:
    palette = PALETTES["default"]
    assert _slot_part(Slot(5, "+3", "q a z"), False, True, palette) is not None
    assert _slot_part(Slot(5, "+3", "a long key name"), False, True, palette) is None
