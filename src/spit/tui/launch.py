"""Opening the app from the command line: the settings file, then the command's options.

The settings file gives the defaults (names, keys, variants, timing,
targets); options given on the command line win over it. Its warnings are
shown on screen before anything else.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Mapping

from spit.engine import get_mode, mode_names
from spit.engine.schema import SettingValue
from spit.store.settings import load_settings
from spit.tui.app import SpitApp
from spit.tui.dealer import (
    AppDependencies,
    AppSettings,
    Opening,
    keymap_from_user,
    settings_from_user,
)


def configured_app(
    opening: Opening | None = None,
    variants: tuple[str, ...] | None = None,
    seed: int | None = None,
    deps: AppDependencies | None = None,
    ascii_only: bool = False,
    reduce_motion: bool = False,
    rules: Mapping[str, SettingValue] | None = None,
) -> SpitApp:
    """The app with the settings file applied, then the command-line choices.

    ``opening``: what to open first (default: the title menu). ``variants``
    replaces the file's optional rules of the game opened (the first mode's
    for the menu) when given; ``rules`` sets some of its settings by key
    (``Mode.settings``): its match target also turns on the rule its matches
    need (Spit's scoring). ``deps``: the app's dependencies (tests).
    ``ascii_only``: suits as S H D C and boxes in ASCII (``--ascii``);
    ``reduce_motion``: no effects on the board (``--reduce-motion``, or the
    settings file's). Raises ConfigError for a setting the mode does not have.
    """
    opening = opening or Opening()
    user, warnings = load_settings()
    game = settings_from_user(user, seed=seed)
    mode = opening.mode if opening.mode in mode_names() else mode_names()[0]
    if variants is not None:
        game.set_variants(mode, variants)
    target = get_mode(mode).target
    for key, value in (rules or {}).items():
        if target is not None and key == target.key and isinstance(value, int):
            game.set_target(mode, value)
        else:
            game.choose(mode, **{key: value})
    keymap, problem = keymap_from_user(user)
    if problem:
        warnings.append(problem)
    settings = AppSettings(user, game, keymap, user.names, warnings, ascii_only, reduce_motion)
    return SpitApp(settings, opening, deps)


#: The exit code when there is no terminal to draw on (as for a usage error).
EXIT_NO_TERMINAL = 2


#: The commands that print and need no terminal, as the message without one names them.
NO_TERMINAL_NEEDED = (
    "spit rules",
    "stats",
    "sim",
    "tournament",
    "coach",
    "replay --verify",
    "resume --list",
)


def terminal_problem() -> str | None:
    """Why the app cannot run here (input or output is not a terminal), or None."""
    streams = (("input", sys.stdin), ("output", sys.stdout), ("error output", sys.stderr))
    for name, stream in streams:
        try:
            ok = stream is not None and stream.isatty()
        except (ValueError, OSError):  # closed or detached
            ok = False
        if not ok:
            return (
                f"spit needs a terminal to play in, and its {name} is not one "
                "(redirected or piped). Run it in a terminal window; "
                f"{', '.join(NO_TERMINAL_NEEDED)} need none."
            )
    return None


def run(app: SpitApp) -> int:
    """Run the app in this terminal; its exit code (2, with a message, without a terminal)."""
    problem = terminal_problem()
    if problem is not None:
        print(f"spit: {problem}", file=sys.stderr)
        return EXIT_NO_TERMINAL
    # (Textual's frame rate is set by ``spit.cli`` before Textual is imported: by
    # the time this module is loaded, Textual has read it.)
    # Everything loaded so far (modules, the app) lives as long as the program: the
    # cyclic collector need not go over it again on every full collection, which
    # otherwise stops the game for tens of milliseconds now and then. What the app
    # builds to show its first screen (Textual's DOM and styles, the first board)
    # lives as long: the app freezes that too once the first frame is shown, and
    # until then the collector is off (its passes over what start-up builds, all
    # of it kept, found nothing to free: some 15 ms of the way to the first board).
    gc.freeze()
    gc.disable()
    app.freeze_when_ready = True
    try:
        app.run()
    finally:
        gc.enable()
        gc.unfreeze()
    app.finish_writes()
    return app.return_code or 0


def _ascii(args: argparse.Namespace) -> bool:
    """Whether the command asked for ASCII only (``--ascii``)."""
    return bool(getattr(args, "ascii", False))


def _motion(args: argparse.Namespace) -> bool:
    """Whether the command asked for no effects on the board (``--reduce-motion``)."""
    return bool(getattr(args, "reduce_motion", False))


def launch_replay(args: argparse.Namespace) -> int:
    """``spit replay FILE``: the viewer on the replay the command loaded (``args.at``:
    opened paused at that time; ``args.note``: what the news line says there)."""
    at, note = getattr(args, "at", None), getattr(args, "note", None)
    opening = Opening(replay=args.replay, replay_at=at, replay_note=note)
    return run(configured_app(opening, ascii_only=_ascii(args), reduce_motion=_motion(args)))


def launch_resume(args: argparse.Namespace) -> int:
    """``spit resume``: carry on with the saved match the command loaded."""
    opening = Opening(resumed=args.replay)
    return run(configured_app(opening, ascii_only=_ascii(args), reduce_motion=_motion(args)))


def launch_host(args: argparse.Namespace) -> int:
    """``spit host``: host a game and play it here (the join line shows on the board)."""
    from spit.tui.netscreens import HostScreen

    _net_log()
    opening = Opening(screen=lambda dealer: HostScreen(args, dealer))
    return run(configured_app(opening, ascii_only=_ascii(args), reduce_motion=_motion(args)))


def launch_join(args: argparse.Namespace) -> int:
    """``spit join HOST[:PORT] CODE``: connect at once and show the board."""
    from spit.tui.netscreens import JoinScreen

    _net_log()
    opening = Opening(
        screen=lambda dealer: JoinScreen(
            dealer,
            args.address,
            args.code,
            args.watch,
            auto=True,
            name=getattr(args, "name", ""),
            client_key=getattr(args, "client_key", None),
        )
    )
    return run(configured_app(opening, ascii_only=_ascii(args), reduce_motion=_motion(args)))


def launch_online(args: argparse.Namespace) -> int:
    """``spit online HOST``: the server's lobby, and its matches on the network board."""
    from spit.tui.online import LobbyScreen

    _net_log()
    opening = Opening(
        screen=lambda dealer: LobbyScreen(
            dealer,
            args.host,
            args.port,
            key=args.client_key,
            known=args.known,
            name=args.name,
            pin=args.pin,
            door_token=args.door_token,
            bot_after=args.bot_after,
        )
    )
    return run(configured_app(opening, ascii_only=_ascii(args)))


def _net_log() -> None:
    """The network's log lines go to a file in the data directory (the screen is the game's)."""
    import logging

    from spit.store.paths import data_dir, private_file

    try:
        private_file(data_dir() / "network.log")  # peers' addresses: this user's only
        handler: logging.Handler = logging.FileHandler(data_dir() / "network.log")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    logger = logging.getLogger("spit.net")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
