"""The ``spit`` command."""

from __future__ import annotations

import argparse
import sys

from spit import __version__, persist_commands


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``spit`` console script and ``python -m spit``."""
    parser = argparse.ArgumentParser(prog="spit", description="Spit, the real-time card game.")
    parser.add_argument("--version", action="version", version=f"spit {__version__}")
    subparsers = parser.add_subparsers(dest="command")
    persist_commands.register(subparsers)
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        return 0
    return handler(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
