"""The table a finished game is shown with: every card where it was when the game ended.

When a Spit game is won (R19, R20) the engine gathers each player's cards
off the table in the same action that ends it, so the final position has
no card on the board at all. The players want to see the table as it stood:
the winner's empty layout, the loser's cards, the piles with the last card
on top. ``end_table`` rebuilds it from the game's own actions: the position
before the last action, and the card that action played (``CardPlayed``) on
its pile. Everything else (phase, winner, scores, words) is the finished
game's. No UI here; the board draws whatever ``GameView`` it is given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from spit.engine import Action, AnyGame, Phase
from spit.engine.base import Game, GameConfig
from spit.engine.events import CardPlayed, PileTaken
from spit.engine.modes import Mode
from spit.engine.results import Result
from spit.engine.saves import new_game_from_save

if TYPE_CHECKING:
    from spit.play.views import GameView


class EndTable:
    """A finished game seen on its last table: ``before`` is the position before the
    last action, ``played`` the card that action played (or None)."""

    def __init__(self, final: AnyGame, before: AnyGame, played: CardPlayed | None) -> None:
        self.final = final
        self.before = before
        self.played = played

    # the finished game's state and words
    @property
    def mode(self) -> str:
        """The mode's name."""
        return self.final.mode

    @property
    def config(self) -> GameConfig:
        """The rules in force."""
        config: GameConfig = self.final.config
        return config

    @property
    def phase(self) -> Phase:
        """Game over."""
        return self.final.phase

    @property
    def round_no(self) -> int:
        """The last round."""
        return self.final.round_no

    @property
    def winner(self) -> int | None:
        """The winner (None: a draw)."""
        return self.final.winner

    @property
    def result(self) -> Result:
        """How the game ended."""
        return self.final.result

    @property
    def scores(self) -> Sequence[int]:
        """The match's points."""
        return self.final.scores

    @property
    def called(self) -> Sequence[bool]:
        """Nobody is calling: the game is over."""
        return (False, False)

    @property
    def over(self) -> bool:
        """True: the game has ended."""
        return True

    @property
    def info(self) -> Mode:
        """The mode's record."""
        return self.final.info

    @property
    def is_match(self) -> bool:
        """True for a match scored to a target."""
        return self.final.is_match

    def fits(self, card: int, onto: int) -> bool:
        """As the game's rules say."""
        return self.final.fits(card, onto)

    def action_for(self, player: int, column: int | None, pile: int | None) -> Action | None:
        """Nothing can be done any more."""
        return None

    # the last table
    @property
    def piles(self) -> Sequence[Sequence[int | None]]:
        """The spit piles as they were, with the last card played on top."""
        piles: list[list[int | None]] = [list(p) for p in self.before.piles]
        if self.played is not None:
            piles[self.played.pile].append(self.played.card)
        return piles

    def columns(self, player: int) -> list[tuple[int | None, int]]:
        """Each place of ``player`` as it was; the last card played has left its place."""
        columns = self.before.columns(player)
        played = self.played
        if played is not None and played.player == player:
            columns[played.source] = (None, 0)  # ``end_table``: it was the last of its place
        return columns

    def reserve_size(self, player: int) -> int:
        """The cards a player still held face down."""
        return self.before.reserve_size(player)

    def pile_in_use(self, pile: int) -> bool:
        """As in the last round."""
        return self.before.pile_in_use(pile)

    def side_pile_sizes(self) -> tuple[int, int] | None:
        """As they were."""
        return self.before.side_pile_sizes()

    def centre_face_down(self) -> bool:
        """No card waits to be turned up."""
        return False


def end_table(game: GameView) -> GameView | None:
    """The last table of a finished game whose last action gathered the cards off it
    (a won Spit game), else None (the game's own position shows it all)."""
    if not isinstance(game, Game) or not game.over or not game.actions:
        return None
    before = new_game_from_save(game.to_json())
    for action in game.actions[:-1]:  # (``step``: the same position, no events built)
        if not before.step(action):
            raise ValueError(f"the game's own action {action} was refused on replay")
    events = before.copy().apply(game.actions[-1])
    if not any(isinstance(e, PileTaken) for e in events) and _on_board(game) >= _on_board(before):
        return None  # the last action took no card off the table (a V2 choice may: below)
    played = next((e for e in events if isinstance(e, CardPlayed)), None)
    if played is not None and before.columns(played.player)[played.source][1]:
        # a card turned up under it (a stalemate at the round limit came next): show
        # the table as it stood just before that last play, every card in its place
        played = None
    return EndTable(game, before, played)


def _on_board(game: AnyGame) -> int:
    """The cards a position shows on the board: both players' and the piles."""
    piles = sum(len(pile) for pile in game.piles)
    return cards_left(game, 0) + cards_left(game, 1) + piles


def cards_left(table: GameView, player: int) -> int:
    """The cards ``player`` still held on the last table (face up, under, face down)."""
    columns = table.columns(player)
    held = sum((top is not None) + under for top, under in columns)
    return held + table.reserve_size(player)


def result_lines(table: GameView, names: tuple[str, str], clock: str) -> list[str]:
    """What a finished game's box says first: who won, then the score (a match's
    points and its target, else the cards each player was left with) and the time."""
    from spit.play.status import result_text

    lines = [result_text(table, names)]
    if table.is_match:
        a, b = table.scores
        target = table.config.target_score
        lines.append(f"Score: {names[0]} {a}, {names[1]} {b} (the match is to {target})")
    else:
        left = [cards_left(table, p) for p in (0, 1)]
        lines.append(f"Left on the table: {names[0]} {left[0]} cards, {names[1]} {left[1]}")
    rounds = f", {table.round_no} rounds" if table.round_no > 1 else ""
    lines.append(f"Game time {clock}{rounds}")
    return lines
