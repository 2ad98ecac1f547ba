"""Allow ``python -m spit``; ``main`` is the ``spit`` console script too."""

import gc
from typing import NoReturn


def main() -> NoReturn:
    """Run the ``spit`` command (``spit.cli.entry``), its modules loaded without the
    cyclic collector.

    What the program loads lives as long as it does, so the collector's passes
    over it while it loaded (some 100 of them, 35 ms of a ``spit play``'s 350 ms
    to its first board) found nothing to free. ``spit.cli.main`` freezes them
    and turns the collector back on before a command runs (the app turns it off
    again until its first frame: ``spit.tui.launch.run``).
    """
    gc.disable()
    from spit.cli import entry

    entry()


if __name__ == "__main__":
    main()
