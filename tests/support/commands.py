"""The names of every ``spit`` sub-command, as the command line registers them."""

from __future__ import annotations

import argparse

from spit import cli


class _Names:
    """Stands in for argparse's sub-parsers to learn every command's name."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def add_parser(self, name: str, **_: object) -> argparse.ArgumentParser:
        self.names.append(name)
        return argparse.ArgumentParser()


def every_command() -> list[str]:
    """Every sub-command's name, in the order ``spit --help`` lists them."""
    names = _Names()
    for add in cli.COMMANDS:
        add(names)  # type: ignore[arg-type]
    return names.names
