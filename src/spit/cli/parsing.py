"""The parser every sub-command gets, and the type of the sub-command list."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

from spit.engine.config import VARIANT_FIELDS


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


#: the variants each game's ``--variant`` takes
GAME_VARIANTS = {"spit": tuple(VARIANT_FIELDS), "speed": ("V3",)}


def parse_variants(values: list[str] | None, mode: str = "spit") -> tuple[str, ...]:
    """``--variant V1 --variant v3,V4`` -> ('V1', 'V3', 'V4'), checked for ``mode``."""
    valid = GAME_VARIANTS.get(mode, GAME_VARIANTS["spit"])
    out: list[str] = []
    for value in values or []:
        for part in value.split(","):
            name = part.strip().upper()
            if not name:
                continue
            if name not in valid:
                known = "unknown" if name not in GAME_VARIANTS["spit"] else f"{mode} has no"
                raise argparse.ArgumentTypeError(
                    f"{known} variant {part.strip()!r}; {mode.capitalize()} takes "
                    f"{', '.join(valid)}"
                )
            if name not in out:
                out.append(name)
    return tuple(out)
