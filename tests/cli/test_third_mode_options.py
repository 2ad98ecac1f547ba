"""The command line's options for a game's settings come from its schema: a third
mode's own setting (tests/support/duel.py) is an option with no change to ``src/``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.support.duel import DUEL

from spit import cli
from spit.engine import register_mode
from spit.engine.modes import unregister_mode
from spit.tui.app import SpitApp


@pytest.fixture(autouse=True)
def duel() -> Iterator[None]:
    register_mode(DUEL)
    yield
    unregister_mode("duel")


def test_duel_setting_is_an_option_of_watch(
    launched: list[SpitApp], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.main(["watch", "--help"])
    assert "--hand N" in capsys.readouterr().out
    assert cli.main(["watch", "--mode", "duel", "--hand", "4"]) == 0
    assert launched[0].settings.game.rules_of("duel") == {"hand": 4}
    with pytest.raises(SystemExit) as refused:
        cli.main(["watch", "--mode", "duel", "--hand", "7"])
    assert refused.value.code == 2
    assert "cards in hand: must be a whole number from 3 to 5" in capsys.readouterr().err
    assert cli.main(["watch", "--mode", "spit", "--hand", "4"]) == 2  # not Spit's
    assert "Spit has no option --hand" in capsys.readouterr().err
    assert len(launched) == 1
