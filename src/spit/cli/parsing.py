"""The parser every sub-command gets, and the type of the sub-command list."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias


class CommandParser(argparse.ArgumentParser):
    """A sub-command's parser. ``one_line_errors``: a bad option is one line, no usage block."""

    def __init__(self, *args: Any, one_line_errors: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.one_line_errors = one_line_errors

    def error(self, message: str) -> NoReturn:
        """Say what is wrong and exit with status 2."""
        if self.one_line_errors:
            print(f"{self.prog}: error: {message}", file=sys.stderr)
            raise SystemExit(2)
        super().error(message)


if TYPE_CHECKING:
    #: what ``add_subparsers`` returns, typed (not subscriptable at run time)
    Subparsers: TypeAlias = argparse._SubParsersAction[CommandParser]
