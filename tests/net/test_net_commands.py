"""``spit host`` and ``spit join`` on the command line: bad input gets one clear line."""

from __future__ import annotations

from pathlib import Path

import pytest

from spit.cli import main


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["join", "host:port", "abcde-fghjk-mnpq-rstv", "--bot", "easy"], "bad port"),
        (["join", "127.0.0.1:7788", "abc", "--bot", "easy"], "join code has 18 letters"),
        (["join", "127.0.0.1:7788", "abcde-fghjk-mnpq-rstv", "--bot", "wizard"], "unknown level"),
        (["join", "127.0.0.1:1", "abcde-fghjk-mnpq-rstv", "--bot", "easy"], "cannot reach"),
        (
            ["host", "--headless", "--mode", "speed", "--variant", "V1"],
            "Speed takes long-deal, alternating-colours",
        ),
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


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The screens' launchers replaced: what they would have been given."""
    import spit.cli as cli

    seen: list[object] = []

    def record(args: object) -> int:
        seen.append(args)
        return 0

    monkeypatch.setattr(cli, "_launch_host", record)
    monkeypatch.setattr(cli, "_launch_join", record)
    return seen


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["host", "--mode", "speed", "--variant", "V1"],
            "Speed takes long-deal, alternating-colours",
        ),
        (["host", "--variant", "V9"], "unknown variant"),
        (["host", "--allow-key", "/nonexistent/key.pub"], "cannot read the key file"),
        (["join", "127.0.0.1:7788", "abcde-fghjk-mnpq-rstv", "--key", "/nonexistent"], "key"),
    ],
)
def test_the_screen_commands_check_their_options_first(
    argv: list[str], said: str, launched: list[object], capsys: pytest.CaptureFixture[str]
) -> None:
    """Hosting or joining on a screen refuses what the headless commands refuse."""
    assert main(argv) == 2
    assert said in capsys.readouterr().err
    assert launched == []


def test_the_host_screen_gets_parsed_variants_and_the_allowed_keys(
    launched: list[object], tmp_path: Path
) -> None:
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    path = f"{tmp_path}/guest.pub"
    key.write_public_key(path)
    assert main(["host", "--variant", "v1,V3", "--allow-key", path]) == 0
    (args,) = launched
    assert args.variant == ["V1", "V3"]  # type: ignore[attr-defined]
    assert [k.public_data for k in args.allowed_keys] == [key.public_data]  # type: ignore[attr-defined]


def test_the_join_screen_gets_the_key(launched: list[object], tmp_path: Path) -> None:
    import asyncssh

    key = asyncssh.generate_private_key("ssh-ed25519")
    path = f"{tmp_path}/guest"
    key.write_private_key(path)
    assert main(["join", "127.0.0.1:7788", "abcde-fghjk-mnpq-rstv", "--key", path]) == 0
    (args,) = launched
    assert args.client_key.public_data == key.public_data  # type: ignore[attr-defined]
