"""The ``spit`` command."""

from __future__ import annotations

import argparse
import sys

from spit import __version__, persist_commands
from spit.sim_cli import add_sim_parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``spit`` console script and ``python -m spit``."""
    parser = argparse.ArgumentParser(prog="spit", description="Spit, the real-time card game.")
    parser.add_argument("--version", action="version", version=f"spit {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_sim_parser(commands)
    persist_commands.register(commands)
    args = parser.parse_args(argv)
    handler = getattr(args, "func", None) or getattr(args, "handler", None)
    if handler is None:
        return 0
    return handler(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
