"""The ``spit`` command."""

from __future__ import annotations

import argparse
import sys

from spit import __version__


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``spit`` console script and ``python -m spit``."""
    parser = argparse.ArgumentParser(prog="spit", description="Spit, the real-time card game.")
    parser.add_argument("--version", action="version", version=f"spit {__version__}")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
