"""Allow ``python -m spit``."""

from spit.cli import entry

entry()
