"""The ``--variant`` option: optional rules named in words, checked per game.

Every command that takes ``--variant`` asks the mode registry which optional
rules a game has and ``spit.engine.rule_words`` what players call them, so
``--help`` and the errors list the same choices the game accepts. The rule ids
of RULES.md (``V1``, ``P1b``) are still accepted, for old scripts and notes.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from spit.engine import get_mode, mode_names
from spit.engine.rule_words import variant_id, variant_names


def choices_text(mode: str) -> str:
    """The words ``mode`` takes after ``--variant``, e.g. ``'long-deal, alternating-colours'``."""
    return variant_names(get_mode(mode).variants)


def variant_lists(modes: Iterable[str] = ()) -> str:
    """Each mode's choices (every mode's when none is named): ``'Spit: ...; Speed: ...'``."""
    named = tuple(modes) or mode_names()
    return "; ".join(f"{get_mode(m).title}: {choices_text(m)}" for m in named)


def variant_help(modes: Iterable[str] = (), more: str = "repeat or give a comma list") -> str:
    """``--variant``'s help: each mode's choices (every mode's when none is named)."""
    return f"an optional rule ({variant_lists(modes)}); {more}"


def parse_variants(values: Iterable[str] | None, mode: str = "spit") -> tuple[str, ...]:
    """``['four-stocks', 'v3,scoring']`` -> ``('V1', 'V3', 'V4')``, checked for ``mode``.

    Raises ArgumentTypeError naming the choices of ``mode`` in words.
    """
    info = get_mode(mode)
    out: list[str] = []
    for value in values or []:
        for part in value.split(","):
            word = part.strip()
            if not word:
                continue
            vid = variant_id(word)
            if vid is None or vid not in info.variants:
                known = "unknown variant" if vid is None else f"{info.title} has no variant"
                raise argparse.ArgumentTypeError(
                    f"{known} {word!r}; {info.title} takes {choices_text(mode)}"
                )
            if vid not in out:
                out.append(vid)
    return tuple(out)


def variant_word(text: str) -> str:
    """An argparse ``type``: the id of any game's optional rule named by ``text``."""
    vid = variant_id(text)
    if vid is None:
        raise argparse.ArgumentTypeError(
            f"unknown variant {text.strip()!r}; "
            + "; ".join(f"{get_mode(m).title} takes {choices_text(m)}" for m in mode_names())
        )
    return vid
