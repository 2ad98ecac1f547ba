"""Playing styles: which skills a strategy uses, one table row per level."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """The skills of a strategy, each one switchable for calibration.

    ``random_play``: pick any legal play or move at random (ignores the rest).
    ``wrong_slap``: chance of slapping (or choosing) the larger spit pile.
    ``uncover``: value turning up face-down cards (plays and R10 moves).
    ``keep_options``: value leaving own cards that fit the new pile tops.
    ``avoid_feeding``: avoid pile tops the opponent's visible cards fit.
    ``lookahead``: how many further own plays to look ahead (0 = greedy).
    """

    name: str
    random_play: bool = False
    wrong_slap: float = 0.0
    uncover: bool = True
    keep_options: bool = True
    avoid_feeding: bool = True
    lookahead: int = 0


STYLES: dict[str, Style] = {
    "easy": Style(
        "easy",
        random_play=True,
        wrong_slap=0.35,
        uncover=False,
        keep_options=False,
        avoid_feeding=False,
    ),
    "medium": Style("medium", wrong_slap=0.1, keep_options=False, avoid_feeding=False),
    "hard": Style("hard"),
    "expert": Style("expert", lookahead=2),
}
