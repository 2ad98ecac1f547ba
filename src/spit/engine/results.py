"""How games, matches and rounds end, as enums.

They are ``StrEnum``s whose values are the strings saves, replays, the
records database and JSON output have always held, so old files read the
same and ``Result.SCORE == "score"``.
"""

from __future__ import annotations

from enum import StrEnum


class Result(StrEnum):
    """Why a game (or match) ended, or was won; ``NONE`` while it goes on."""

    NONE = ""
    NO_CARDS_LEFT = "R20"  #: Spit: a player has no cards left at a round's end
    PLAYED_OUT = "P6"  #: Speed: a player played out hand and draw pile
    STUCK = "H5"  #: Speed: stuck for good; fewer cards wins, equal is a draw
    SCORE = "score"  #: a match (V4, P7) reached its target score
    ROUND_LIMIT = "round_limit"  #: H4: the round limit was reached, a draw


class RoundEnd(StrEnum):
    """Why a Spit round ended (R15)."""

    LAYOUT_EMPTIED = "layout_emptied"  #: R15(a): a player emptied their layout
    NO_SPIT_CARDS = "no_spit_cards"  #: R15(b): stuck with no spit cards left
