"""Game.action_for: what a player's control means in each phase, decided by the engine."""

from __future__ import annotations

import pytest

from spit.engine import Kind, Phase, SpeedGame, SpitGame, call, choose, move, play, slap


@pytest.mark.parametrize("phase", [Phase.OPENING, Phase.STALEMATE])
def test_in_a_spit_opening_or_stalemate_every_control_calls(phase: Phase) -> None:
    game = SpitGame(seed=1)
    game.phase = phase
    for column, pile in [(2, 0), (4, 1), (3, None), (None, None)]:
        assert game.action_for(1, column, pile) == call(1)


def test_in_play_controls_play_move_and_call() -> None:
    game = SpitGame(seed=1)
    game.phase = Phase.PLAY
    assert game.action_for(0, 2, 0) == play(0, 2, 0)
    assert game.action_for(1, 4, 1) == play(1, 4, 1)
    assert game.action_for(0, 3, None) == move(0, 3)
    assert game.action_for(1, None, None) == call(1)  # check() says why no spit is due


def test_slap_and_choose_take_a_pile_and_nothing_else() -> None:
    game = SpitGame(seed=1)
    game.phase = Phase.SLAP
    assert game.action_for(0, 3, 0) == slap(0, 0) and game.action_for(1, 0, 1) == slap(1, 1)
    assert game.action_for(0, 0, None) is None and game.action_for(0, None, None) is None
    game.phase = Phase.CHOOSE
    assert game.action_for(1, 2, 1) == choose(1, 1)
    assert game.action_for(1, 2, None) is None


def test_speed_has_no_moves_and_waits_in_a_stalemate() -> None:
    game = SpeedGame(seed=1)
    assert game.action_for(0, 2, None) == call(0)  # the opening: any key is "ready"
    game.phase = Phase.PLAY
    assert game.action_for(0, 2, 1) == play(0, 2, 1)
    assert game.action_for(0, 2, None) is None
    assert Kind.MOVE not in game.player_kinds()
    game.phase = Phase.STALEMATE
    assert game.action_for(1, 0, 0) is None and game.action_for(1, None, None) is None


def test_nothing_means_anything_once_the_game_is_over() -> None:
    for game in (SpitGame(seed=1), SpeedGame(seed=1)):
        game.phase = Phase.GAME_OVER
        assert game.action_for(0, 1, 0) is None and game.action_for(0, None, None) is None


def test_every_phase_has_its_kinds_in_every_mode() -> None:
    for cls in (SpitGame, SpeedGame):
        assert set(cls.PLAYER_KINDS) == set(Phase)
