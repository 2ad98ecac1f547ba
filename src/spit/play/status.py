"""The status line: the current phase, and the result, in plain words.

What the board prints above the news line. Pure functions of the game, the
players' names and the visible countdown, so the board and the replay viewer
say the same thing.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from spit.engine import Phase, Result
from spit.realtime.timers import TimerKind

if TYPE_CHECKING:
    # types only: the protocols cost start-up time and nothing at run time
    from spit.play.views import GameView


def result_text(game: GameView, names: tuple[str, str]) -> str:
    """The game's or match's result in words."""
    winner = game.winner
    if game.result is Result.ROUND_LIMIT:
        return "The round limit was reached: a draw."
    if winner is None:
        return "The game is a draw."
    if game.result is Result.SCORE:
        if game.info.lowest_score_wins:
            return f"{names[winner]} wins the match with the lowest score!"
        return f"{names[winner]} reaches the target score and wins the match!"
    if game.result is Result.NO_CARDS_LEFT:
        return f"{names[winner]} has no cards left and wins the game!"
    if game.result is Result.PLAYED_OUT:
        return f"{names[winner]} played every card and wins the game!"
    if game.result is Result.STUCK:
        return f"Stuck for good: {names[winner]} holds fewer cards and wins!"
    return f"{names[winner]} wins the game!"


def status_text(
    game: GameView,
    names: tuple[str, str],
    countdown: tuple[float, TimerKind] | None,
    paused: bool,
    stalled: bool,
) -> str:
    """The current phase in plain words, with any countdown.

    ``countdown`` is (seconds left, timer) as ``Session.countdown`` gives it;
    ``stalled`` is True when the stalemate came from the stall timer (H6).
    """
    phase = game.phase
    speed = game.info.side_piles  # the side piles, not calls, end a stalemate (P4)
    if paused:
        return "Paused."
    secs = f" ({math.ceil(countdown[0])} s)" if countdown else ""
    if phase is Phase.OPENING:
        if speed:
            return f"Get ready: each player presses any of their keys{secs}"
        return f"Round {game.round_no}: call SPIT! to start - any of your keys{secs}"
    if phase is Phase.PLAY:
        if countdown is not None:
            word = "the side piles turn" if speed else "SPIT"
            left = math.ceil(countdown[0])
            return f"Nobody has played for a while: {word} in {left} s"
        rule = "one rank up or down"
        if game.config.alternating_colours:
            rule += ", other colour"
        return f"Play! {rule}, on either pile"
    if phase is Phase.STALEMATE:
        if speed:
            return f"Both stuck: the side piles turn over{secs}"
        head = "Nobody played for a while: SPIT!" if stalled else "Both stuck: SPIT!"
        alone = [p for p in (0, 1) if not game.reserve_size(p)]
        tail = " Any of your keys calls."
        if alone:
            other = 1 - alone[0]
            tail = f" {names[alone[0]]} has no spit cards: {names[other]} spits alone."
        return f"{head}{tail}{secs}"
    if phase is Phase.SLAP:
        return f"Slap a pile! Top row: left pile, home row: right pile{secs}"
    if phase is Phase.CHOOSE:
        chooser = getattr(game, "chooser", None)
        who = names[chooser] if chooser is not None else "The winner"
        return f"{who} chooses a pile: top row left, home row right{secs}"
    return with_keys(result_text(game, names))


#: How wide the status line is (the board's width).
STATUS_WIDTH = 80


def with_keys(result: str, width: int = STATUS_WIDTH) -> str:
    """The result with what Enter and Esc do, in as many words as ``width`` has room for."""
    for keys in ("Enter: play again, Esc: menu.", "Enter: again, Esc: menu.", "(Enter/Esc)"):
        line = f"{result} {keys}"
        if len(line) <= width:
            return line
    return result
