"""``spit host`` and ``spit join`` on the command line: bad input gets one clear line."""

from __future__ import annotations

import pytest

from spit.cli import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["join", "host:port", "abcde-fghjk-mnpq-rstv", "--bot", "easy"], "bad port"),
        (["join", "127.0.0.1:7788", "abc", "--bot", "easy"], "join code has 18 letters"),
        (["join", "127.0.0.1:7788", "abcde-fghjk-mnpq-rstv", "--bot", "wizard"], "unknown level"),
        (["join", "127.0.0.1:1", "abcde-fghjk-mnpq-rstv", "--bot", "easy"], "cannot reach"),
        (["host", "--headless", "--mode", "speed", "--variant", "V1"], "for Spit"),
    ],
)
def test_bad_network_commands_say_why(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_bad_window_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["host", "--window", "5000"])
    assert "0 to 1000 milliseconds" in capsys.readouterr().err
