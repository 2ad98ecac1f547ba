"""The ``spit`` command: a title menu by default, or a sub-command.

Each sub-command is registered by a small ``_add_<name>`` function that
builds its parser and sets ``handler``; add new ones to ``COMMANDS``.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import os
import sys
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, NoReturn

from spit import __version__
from spit.bots import DEFAULT_LEVEL
from spit.cli import net as net_commands
from spit.cli import persist as persist_commands
from spit.cli import server as server_commands
from spit.cli.coach import add_coach_parser
from spit.cli.parsing import CommandParser
from spit.cli.sim import add_sim_parser
from spit.cli.tournament import add_tournament_parser
from spit.cli.variants import parse_variants, variant_help
from spit.engine import mode_names

if TYPE_CHECKING:
    from spit.cli.parsing import Subparsers

Handler = Callable[[argparse.Namespace], int]


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError("the seed must be from 0 to 2**64-1")
    return value


#: The prefix of the namespace's name for a mode's setting (``rule_target``).
RULE_DEST = "rule_"


def _add_game_options(
    parser: argparse.ArgumentParser, modes: tuple[str, ...] | None = None
) -> None:
    modes = modes or mode_names()[:1]
    parser.add_argument(
        "--seed",
        type=_seed,
        default=argparse.SUPPRESS,
        help="deal from this seed (a whole number)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=argparse.SUPPRESS,
        metavar="NAME",
        help=variant_help(modes),
    )
    _add_rule_options(parser, modes)


class _Typed(str):
    """An option's text checked later, by the setting of the game it is for (a key
    several games share with different ranges, such as ``--target``)."""

    __slots__ = ()


def _add_rule_options(parser: argparse.ArgumentParser, modes: tuple[str, ...]) -> None:
    """An option for each setting the modes' schemas declare (``Mode.settings``):
    ``--four-stocks``, ``--target N``...; a setting of only some of them, or
    different in each, says whose."""
    from spit.engine import get_mode
    from spit.engine.errors import ConfigError
    from spit.engine.schema import Setting

    infos = [get_mode(m) for m in modes]
    owners: dict[str, list[tuple[str, Setting]]] = {}
    for info in infos:
        for setting in info.settings:
            owners.setdefault(setting.key, []).append((info.title, setting))
    for key, found in owners.items():
        setting = found[0][1]
        same = all(s == setting for _, s in found)
        if same:
            whose = "" if len(found) == len(infos) else ", ".join(t for t, _ in found) + ": "
            words = whose + setting.line
        else:
            words = "; ".join(f"{title}: {s.line}" for title, s in found)
        dest = RULE_DEST + key
        if setting.kind == "flag" and same:
            parser.add_argument(
                setting.option,
                action="store_true",
                dest=dest,
                default=argparse.SUPPRESS,
                help=words,
            )
            continue

        def parse(text: str, setting: Setting = setting) -> object:
            try:
                return setting.parse(text)
            except ConfigError as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None

        kinds = {s.kind for _, s in found}
        metavar = "N" if kinds == {"number"} else "|".join(setting.choices) or "VALUE"
        parser.add_argument(
            setting.option,
            type=parse if same else _Typed,
            metavar=metavar,
            dest=dest,
            default=argparse.SUPPRESS,
            help=words,
        )


def _level(text: str) -> str:
    from spit.bots import LEVELS

    level = text.strip().lower()
    if level in LEVELS or level == "match-me":
        return level
    if level.startswith("me:") and text.strip()[3:].strip():
        name = text.strip()[3:].strip()[:37]
        if any(unicodedata.category(c) == "Cc" for c in name):
            raise argparse.ArgumentTypeError(f"a name cannot hold control characters: {name!r}")
        return "me:" + name
    raise argparse.ArgumentTypeError(
        f"unknown level {text!r}; choose from {', '.join(LEVELS)}, match-me or me:NAME"
    )


def _tui() -> None:
    # Textual repaints at most TEXTUAL_FPS times a second (default 60); a card game
    # wants the key's effect on screen sooner. Idle costs nothing either way. After
    # any frame, Textual's next one waits for its frame timer (one to two periods): at
    # 1000 a key pressed just after a wake-up's frame (the clock, an effect's end)
    # waits 1-2 ms for its own, not 4-8 ms as at 240. Textual's animations keep
    # their own 60 frames a second, and frames are made only when something changed.
    # Set before Textual is imported.
    os.environ.setdefault("TEXTUAL_FPS", "1000")
    # Textual and the app load and build the first screen without the cyclic
    # collector: all of it lives as long as the app, and its passes over it freed
    # nothing (some 30 ms of the way to the first board). ``launch.run`` freezes
    # it, ``SpitApp.on_ready`` turns the collector on after the first frame, and
    # ``main`` after the command in any case.
    gc.disable()


def _run_tui(
    args: argparse.Namespace, start: str | None, opponents: dict[int, str] | None = None
) -> int:
    _tui()
    from spit.engine import get_mode
    from spit.tui.launch import configured_app, run

    mode = start if start in mode_names() else mode_names()[0]
    given = getattr(args, "variant", None)
    try:
        variants = None if given is None else parse_variants(given, mode)
    except argparse.ArgumentTypeError as exc:
        print(f"spit: {exc}", file=sys.stderr)
        return 2
    rules = {
        name.removeprefix(RULE_DEST): value
        for name, value in vars(args).items()
        if name.startswith(RULE_DEST)
    }
    info = get_mode(mode)
    for key, value in rules.items():
        setting = info.setting(key)
        if setting is None:
            print(f"spit: {info.title} has no option --{key.replace('_', '-')}", file=sys.stderr)
            return 2
        if isinstance(value, _Typed):  # checked by this game's setting
            from spit.engine.errors import ConfigError

            try:
                rules[key] = setting.parse(value)
            except ConfigError as exc:
                print(f"spit: {setting.option}: {exc}", file=sys.stderr)
                return 2
    from spit.tui.dealer import Opening

    app = configured_app(
        Opening(start, opponents or {}),
        variants=variants,
        rules=rules,
        seed=getattr(args, "seed", None),
        ascii_only=bool(getattr(args, "ascii", False)),
        reduce_motion=bool(getattr(args, "reduce_motion", False)),
    )
    return run(app)


def _launch_replay(args: argparse.Namespace) -> int:
    _tui()
    from spit.tui.launch import launch_replay

    return launch_replay(args)


def _launch_resume(args: argparse.Namespace) -> int:
    _tui()
    from spit.tui.launch import launch_resume

    return launch_resume(args)


def _add_persist(sub: Subparsers) -> None:
    persist_commands.register(sub, {"replay": _launch_replay, "resume": _launch_resume})


def _add_coach(sub: Subparsers) -> None:
    add_coach_parser(sub, launch=_launch_replay)  # --at N opens the replay viewer there


def _launch_host(args: argparse.Namespace) -> int:
    _tui()
    from spit.tui.launch import launch_host

    return launch_host(args)


def _launch_join(args: argparse.Namespace) -> int:
    _tui()
    from spit.tui.launch import launch_join

    return launch_join(args)


def _add_net(sub: Subparsers) -> None:
    net_commands.register(sub, {"host": _launch_host, "join": _launch_join})


def _launch_online(args: argparse.Namespace) -> int:
    _tui()
    from spit.tui.launch import launch_online

    return launch_online(args)


def _add_server(sub: Subparsers) -> None:
    server_commands.register(sub, {"online": _launch_online})


def _cmd_menu(args: argparse.Namespace) -> int:
    return _run_tui(args, None)


def _vs(args: argparse.Namespace) -> dict[int, str] | None:
    level = getattr(args, "vs", None)
    return {1: level} if level else None


def _cmd_play(args: argparse.Namespace) -> int:
    return _run_tui(args, "spit", _vs(args))


def _cmd_speed(args: argparse.Namespace) -> int:
    return _run_tui(args, "speed", _vs(args))


def _cmd_watch(args: argparse.Namespace) -> int:
    return _run_tui(args, args.mode, {0: args.p1, 1: args.p2})


def _add_vs(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--vs",
        type=_level,
        metavar="LEVEL",
        help="play against the computer: easy, medium, hard, expert, or match-me / me:NAME "
        "(as fast as you, or NAME, in your saved games); you are player 1",
    )


def _add_play(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "play",
        help="play Spit, two players at one keyboard",
        description="Play Spit: five stocks each, two spit piles, everyone at once. Two "
        "players at one keyboard, or against the computer (--vs).",
    )
    _add_game_options(parser, ("spit",))
    _add_vs(parser)
    parser.set_defaults(handler=_cmd_play)


def _add_speed(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "speed",
        help="play Speed, two players at one keyboard",
        description="Play Speed: a hidden hand of five, a draw pile, side piles that turn "
        "when both are stuck. Two players at one keyboard, or against the computer (--vs).",
    )
    _add_game_options(parser, ("speed",))
    _add_vs(parser)
    parser.set_defaults(handler=_cmd_speed)


def _add_watch(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "watch",
        help="watch two computer players play each other",
        description="Watch two computer players play each other (nothing is kept to resume).",
    )
    _add_game_options(parser, mode_names())
    parser.add_argument(
        "--p1",
        type=_level,
        default=DEFAULT_LEVEL,
        metavar="LEVEL",
        help="level of player 1 (bottom)",
    )
    parser.add_argument(
        "--p2", type=_level, default=DEFAULT_LEVEL, metavar="LEVEL", help="level of player 2 (top)"
    )
    parser.add_argument(
        "--mode", choices=mode_names(), default="spit", help="the game (default spit)"
    )
    parser.set_defaults(handler=_cmd_watch)


def _cmd_rules(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.markdown import Markdown

    from spit.play.keys import KeyMap
    from spit.play.texts import SPIT_RULES, keys_text, plain_markdown, to_ascii

    page = SPIT_RULES + "\n" + keys_text(KeyMap.default())
    if args.ascii:  # plain text: headings underlined, tables in columns, ASCII only
        print(to_ascii(plain_markdown(page)), end="")
        return 0
    Console().print(Markdown(page))
    return 0


def _cmd_tutorial(args: argparse.Namespace) -> int:
    from spit.tui.messages import TUTORIAL

    return _run_tui(args, TUTORIAL)


def _add_tutorial(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "tutorial",
        help="learn the rules by playing short lessons",
        description="Learn the rules by playing short lessons, then a game against the computer.",
    )
    parser.set_defaults(handler=_cmd_tutorial)


def _add_rules(sub: Subparsers) -> None:
    parser = sub.add_parser(
        "rules",
        help="print the rules and the default keys",
        description="Print the rules of Spit and Speed, their variants and the default keys.",
    )
    parser.set_defaults(handler=_cmd_rules)


#: Sub-command registrars, in the order --help lists them.
COMMANDS: list[Callable[[Subparsers], object]] = [
    _add_play,
    _add_speed,
    _add_watch,
    _add_rules,
    _add_tutorial,
    add_sim_parser,
    add_tournament_parser,
    _add_persist,
    _add_net,
    _add_server,
    _add_coach,
]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="spit",
        description="Spit and Speed, the real-time card games, for two people at one keyboard. "
        "Without a command: the title menu.",
    )
    parser.add_argument("--version", action="version", version=f"spit {__version__}")
    parser.add_argument("--ascii", action="store_true", help=ASCII_HELP)
    parser.add_argument("--reduce-motion", action="store_true", help=MOTION_HELP)
    _add_game_options(parser)
    parser.set_defaults(handler=_cmd_menu)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND", parser_class=CommandParser)
    for add in COMMANDS:
        add(sub)
    for command in sub.choices.values():  # also after the command: spit rules --ascii
        command.add_argument(
            "--ascii", action="store_true", default=argparse.SUPPRESS, help=ASCII_HELP
        )
        command.add_argument(
            "--reduce-motion", action="store_true", default=argparse.SUPPRESS, help=MOTION_HELP
        )
    return parser


MOTION_HELP = "no brief highlights on the board (a played card's slot and pile, a slap)"
ASCII_HELP = "show suits as S H D C and draw with plain ASCII (automatic where ♠ cannot be shown)"
#: The exit code after the reader of our output went away (128 + SIGPIPE), as shells use.
EXIT_BROKEN_PIPE = 141


def _plain_stdout() -> bool:
    """True when standard output cannot show the suits: switch to ASCII.

    Whatever else cannot be encoded is then written as ``?``, never a traceback.
    """
    from spit.play.texts import can_encode, locale_takes_unicode

    stream = sys.stdout
    if not locale_takes_unicode(os.environ):
        return True  # the terminal expects ASCII, whatever Python made of the locale
    if can_encode(getattr(stream, "encoding", None)):
        return False
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(ValueError, OSError):
            reconfigure(errors="replace")
    return True


def _drop_stdout() -> None:
    """The pipe we wrote to is closed: send what is left nowhere, so that
    Python's own flush at exit does not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``spit`` console script and ``python -m spit``."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not gc.isenabled():  # off while the modules loaded (``spit.__main__.main``):
            # they live as long as the program; the collector's first pass would
            # otherwise go over all of them as its young generation (15 ms)
            gc.freeze()
            gc.enable()
        args.ascii = _plain_stdout() or bool(getattr(args, "ascii", False))
        handler: Handler = getattr(args, "func", None) or args.handler
        try:
            code = handler(args)
        finally:
            gc.enable()  # (an app's start-up turns it off: ``_tui``)
        sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _drop_stdout()
        return EXIT_BROKEN_PIPE


def entry() -> NoReturn:
    """The ``spit`` command and ``python -m spit``: run ``main``, then leave at once.

    Whatever the program built is frozen out of the cyclic collector first:
    the interpreter's last collections would otherwise go over all of it
    again, which after a long session of games, help pages and screens took
    over a second, with the game gone and the terminal showing nothing.
    The collector is on again by then, whatever ``main`` did (``spit.__main__``
    turns it off while the modules load).
    """
    try:
        code = main()
    finally:
        gc.enable()
    gc.freeze()
    raise SystemExit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
