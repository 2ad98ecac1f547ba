"""Allow ``python -m spit``."""

from spit.cli import main

raise SystemExit(main())
