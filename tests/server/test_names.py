"""The naming rules of server accounts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spit.server.names import MAX_LENGTH, name_key, name_problem


@pytest.mark.parametrize("name", ["Ann", "bob_the-2nd", "Z" * MAX_LENGTH, "Xy9"])
def test_good_names_are_accepted(name: str) -> None:
    assert name_problem(name) is None


@pytest.mark.parametrize(
    "name",
    [
        "",
        "ab",
        "Z" * (MAX_LENGTH + 1),
        "9lives",
        "_ann",
        "ann smith",
        "[bold]x",
        "ann\n",
        "Ånn",
        "guest",
        "Guest7",
        "Player2",
        "EXPERT",
        "admin",
        "match-me",
    ],
)
def test_bad_or_reserved_names_are_refused_with_a_reason(name: str) -> None:
    problem = name_problem(name)
    assert problem is not None and problem.endswith(".")


def test_names_are_compared_without_case() -> None:
    assert name_key("Ann") == name_key("aNN")
    assert name_key("Ann") != name_key("Anne")


@given(st.text(max_size=30))
def test_an_accepted_name_holds_no_markup_or_space(name: str) -> None:
    if name_problem(name) is None:
        assert not set(name) & set("[]<>&\"' \t\r\n\\/:;")
        assert name.isascii() and name.isprintable()
