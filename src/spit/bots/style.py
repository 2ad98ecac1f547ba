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
    ``anticipation``: a bot that planned its next play while choosing this one
    (a run: 5 then 6 then 7) makes that next play faster, its delay times this
    factor (1 = no planning ahead).
    ``watchful``: keep an eye on the piles while a play is on its way, and drop
    it (and think again at once) when the opponent's card makes it illegal,
    instead of slapping down a card that will be refused (R11).
    ``card_memory`` (Speed only): remember every card seen this deal and read
    the opponent's stalemates to estimate their hidden hand, then choose the
    play that leaves them the fewest expected fits (see ``speed_memory``). It
    replaces the run, options and lookahead scores in Speed, which measured as
    no help there.
    """

    name: str
    random_play: bool = False
    wrong_slap: float = 0.0
    uncover: bool = True
    keep_options: bool = True
    avoid_feeding: bool = True
    lookahead: int = 0
    anticipation: float = 1.0
    watchful: bool = False
    card_memory: bool = False


STYLES: dict[str, Style] = {
    "easy": Style(
        "easy",
        random_play=True,
        wrong_slap=0.35,
        uncover=False,
        keep_options=False,
        avoid_feeding=False,
    ),
    "medium": Style(
        "medium", wrong_slap=0.1, keep_options=False, avoid_feeding=False, anticipation=0.9
    ),
    "hard": Style("hard", anticipation=0.75),
    "expert": Style("expert", lookahead=2, anticipation=0.6, watchful=True, card_memory=True),
}
