"""What players read for the optional rules: the one place their words live.

RULES.md names every rule with an id (``V1``, ``P1b``, ``H3``...). The ids
belong in code, tests, files and ``--verbose`` output; a player reads words.
Everything that shows an optional rule to a player (the board's top bar, the
settings screen, ``--help``, error messages, ``spit sim``) asks this module,
and the command line and the settings file accept the words as well as the ids.

>>> variant_label("P1b")
'long deal'
>>> variants_in_words(("V1", "V3"))
'four stocks, alternating colours'
>>> variant_id("alternating-colours")
'V3'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class VariantWords:
    """An optional rule as players see it."""

    id: str  #: the rule's id in RULES.md, e.g. "V1"
    name: str  #: the command line's and the settings file's word, e.g. "four-stocks"
    label: str  #: a few words, e.g. "four stocks"
    line: str  #: one line saying what it does


#: Every optional rule a mode's ``variants`` may hold, by id.
VARIANT_WORDS: dict[str, VariantWords] = {
    v.id: v
    for v in (
        VariantWords("V1", "four-stocks", "four stocks", "layouts of four stocks (10 cards)"),
        VariantWords(
            "V2",
            "choose-pile",
            "choose, don't slap",
            "who empties their layout chooses a pile instead of a slap",
        ),
        VariantWords(
            "V3",
            "alternating-colours",
            "alternating colours",
            "a card must also be of the other colour than the pile's top",
        ),
        VariantWords(
            "V4",
            "scoring",
            "scoring match",
            "a match of rounds: a point per card still held, lowest total wins",
        ),
        VariantWords(
            "P1b", "long-deal", "long deal", "side piles of 5 cards and 20 cards to each player"
        ),
    )
}

#: The words for rules that are not variants but that players meet by name.
SLAP_TIME = "slap time"
ROUND_LIMIT = "round limit"
MOVES = "moves to an empty slot"
STANDARD_DEAL = "standard deal"


def variant_label(vid: str) -> str:
    """The few words for the optional rule ``vid`` (the id itself if it has none)."""
    words = VARIANT_WORDS.get(vid)
    return words.label if words is not None else vid


def variants_in_words(ids: Iterable[str], none: str = "") -> str:
    """``('V1', 'V3')`` -> ``'four stocks, alternating colours'`` (``none`` if empty)."""
    labels = [variant_label(v) for v in ids]
    return ", ".join(labels) if labels else none


def variant_names(ids: Iterable[str]) -> str:
    """The command line's words for ``ids``, e.g. ``'four-stocks, scoring'``."""
    return ", ".join(VARIANT_WORDS[v].name if v in VARIANT_WORDS else v for v in ids)


def variant_id(text: str) -> str | None:
    """The id named by ``text``: an id (any case) or a variant's word; None if neither."""
    key = text.strip().casefold()
    for v in VARIANT_WORDS.values():
        if key in (v.id.casefold(), v.name, v.label.casefold()):
            return v.id
    return None


#: The ids that make a game a match to a target score; shown as the target instead.
MATCH_IDS = ("V4", "P7")


@lru_cache(maxsize=64)
def rules_in_words(variants: tuple[str, ...], match: bool, target: int) -> str:
    """A game's optional rules for the top bar: ``'long deal, match to 5'``.

    ``variants`` are the config's ids; a match rule among them is shown as its
    target (``match``, ``target``), not as a variant. Cached: the board asks on
    every repaint.
    """
    words = [variant_label(v) for v in variants if v not in MATCH_IDS]
    if match:
        words.append(f"match to {target}")
    return ", ".join(words)
