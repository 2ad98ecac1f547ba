"""No rule id (R7, V3, P1b, H2...) in any text a player reads.

RULES.md's ids belong in code, tests, docs/rules.md and ``--verbose`` output.
These tests read what the screens show (driven by Pilot, read back from the
screen's own screenshot) and what the commands print, and fail on any
``\\b[RVPH][0-9]+\\b``.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from tests.support import FakeClock
from tests.support.commands import every_command
from tests.support.pilot import running
from textual.pilot import Pilot
from tui_helpers import make_app, region, screen_of, screen_text

from spit import cli
from spit.engine import IllegalAction, SpeedConfig, SpitConfig, get_mode, mode_names
from spit.engine.actions import Kind
from spit.play.tutorial import LESSONS
from spit.tui.app import SpitApp
from spit.tui.screens import GameScreen

#: What a rule id looks like (P1b's "b" does not stop the word boundary before it).
RULE_ID = re.compile(r"\b[RVPH][0-9]+[a-z]?\b")


def ids_in(text: str) -> list[str]:
    """The rule ids in ``text``, each with a little of its line around it."""
    return [
        text[max(0, m.start() - 30) : m.end() + 30].replace("\n", " ")
        for m in RULE_ID.finditer(text)
    ]


def test_the_pattern_finds_ids_and_nothing_else() -> None:
    assert ids_in("variants P1b V3") and ids_in("to spit (H2)") and ids_in("R12, R13")
    assert not ids_in("Player 1 played 5H on the left pile; 2H 10C; ctrl+s; F1 help")


class Seen:
    """Everything a test saw, by where it saw it."""

    def __init__(self) -> None:
        self.hits: list[str] = []

    def read(self, where: str, text: str) -> None:
        self.hits += [f"{where}: …{hit}…" for hit in ids_in(text)]

    async def look(self, where: str, app: SpitApp, pilot: Pilot[None]) -> None:
        await pilot.pause()
        self.read(where, screen_text(app))

    def check(self) -> None:
        assert not self.hits, "rule ids a player reads:\n" + "\n".join(self.hits)


# ---------------------------------------------------------------- the screens

BIG = (160, 60)


async def test_no_rule_id_on_the_title_settings_help_rules_and_keys(clock: FakeClock) -> None:
    seen = Seen()
    app = make_app(clock, start=None)
    async with running(app, size=BIG) as pilot:
        await seen.look("title", app, pilot)
        from spit.tui.dialogs import SettingsScreen
        from spit.tui.screens import DocScreen, HelpScreen

        screen = app.screen
        app.push_screen(SettingsScreen(app.settings, app.deps.save_settings))
        await seen.look("settings", app, pilot)
        app.pop_screen()
        from spit.play.keys import KeyMap
        from spit.play.texts import SPIT_RULES, keys_text

        app.push_screen(HelpScreen(KeyMap.default()))
        await seen.look("help", app, pilot)
        app.pop_screen()
        app.push_screen(DocScreen(SPIT_RULES))
        await seen.look("rules", app, pilot)
        app.pop_screen()
        app.push_screen(DocScreen(keys_text(KeyMap.default())))
        await seen.look("keys", app, pilot)
        app.pop_screen()
        from spit.tui.remap import KeysScreen

        app.push_screen(KeysScreen(app.settings, app.deps.save_settings))
        await seen.look("remapping keys", app, pilot)
        app.pop_screen()
        title = app.screen
        title.choose_host()  # the host's choices (nothing is opened until one is chosen)
        await seen.look("host a game", app, pilot)
        await pilot.press("escape")
        title.choose_watch("speed")
        await seen.look("watch: the levels", app, pilot)
        await pilot.press("escape")
        assert screen is not None
    seen.check()


@pytest.mark.parametrize(
    ("mode", "variants", "long_deal", "target"),
    [
        ("spit", ("V1", "V2", "V3"), False, None),
        ("spit", (), False, 50),
        ("speed", ("V3",), True, 5),
    ],
)
async def test_no_rule_id_on_the_board_through_a_game(
    clock: FakeClock, mode: str, variants: tuple[str, ...], long_deal: bool, target: int | None
) -> None:
    """The board from the opening through random keys of both players to the next round."""
    seen = Seen()
    app = make_app(clock, start=mode)
    app.settings.game.set_variants(mode, (*variants, *(("P1b",) if long_deal else ())))
    if target is not None:
        app.settings.game.set_target(mode, target)
    keys = [*"qwertasdfgzxcvbyuiophjkl;nm,./10"]
    rng = random.Random(5)
    async with running(app) as pilot:
        screen_of(app).new_game()
        dealt = screen_of(app).session.game.config
        assert set(variants) <= set(dealt.variants) and dealt.match == (target is not None)
        assert getattr(dealt, "long_deal", False) == long_deal
        await seen.look("board", app, pilot)
        for step in range(120):
            await pilot.press(rng.choice(keys))
            clock.advance(rng.choice((0.05, 0.3, 1.0, 4.0)))
            if isinstance(app.screen, GameScreen):
                app.screen.run_tick()
            if step % 6 == 0:
                await seen.look(f"board after {step} keys", app, pilot)
                if isinstance(app.screen, GameScreen):
                    seen.read("flash", region(app, "flash"))
                    seen.read("news", region(app, "news"))
    seen.check()


@pytest.mark.parametrize("config", [SpitConfig(), SpitConfig(choose_pile=True, scoring=True)])
async def test_no_rule_id_from_the_slap_through_the_next_rounds(
    clock: FakeClock, config: SpitConfig
) -> None:
    """The slap (or the choice), the between-rounds box, the next round's calls."""
    from tui_helpers import to_slap

    from spit.engine import SpitGame

    seen = Seen()
    app = make_app(clock, lambda: to_slap(SpitGame(config, seed=11)))
    rng = random.Random(8)
    async with running(app) as pilot:
        await seen.look("the slap", app, pilot)
        for step in range(60):
            await pilot.press(rng.choice([*"qwertasdfgzyuiophjkln10", "enter"]))
            clock.advance(rng.choice((0.1, 1.0, 4.0)))
            if isinstance(app.screen, GameScreen):
                app.screen.run_tick()
            if step % 5 == 0:
                await seen.look(f"after the slap, {step} keys", app, pilot)
    seen.check()


async def test_no_rule_id_at_the_end_of_a_game_in_stats_and_replays(clock: FakeClock) -> None:
    """The game-over board and its box, the statistics, the replay list and viewer."""
    from test_persist_app import end_round_by_stall, last_stall_of_round, one_card
    from tui_helpers import written

    from spit.tui.library import ReplaysScreen, StatsScreen

    seen = Seen()
    app = make_app(clock, one_card, names=("Ann", "Bob"))
    async with running(app, size=BIG) as pilot:
        clock.advance(1.0)
        await pilot.press("0")
        clock.advance(0.5)
        await pilot.press("a")  # Ann wins
        await written(app, pilot)
        await seen.look("game over", app, pilot)
        app.push_screen(StatsScreen("Ann"))
        await seen.look("statistics", app, pilot)
        app.pop_screen()
        app.push_screen(ReplaysScreen())
        await seen.look("replays", app, pilot)
        await pilot.press("enter")  # watch the first
        await seen.look("replay viewer", app, pilot)
    seen.read("spit stats", run_command(["stats", "--no-charts"]))
    from spit.engine import SpitConfig, SpitGame, call
    from spit.store.paths import saved_dir
    from spit.store.replays import PlayerInfo, new_meta
    from spit.store.resume import save_game
    from spit.tui.saved import SavedGamesScreen

    waiting = SpitGame(SpitConfig.from_variants(["V1", "V2", "V4"]), seed=3)
    waiting.apply(call(0))
    meta = new_meta((PlayerInfo("Ann"), PlayerInfo("Gus", remote=True)))
    save_game(waiting, [0.5], meta, saved_dir() / "waiting.json")
    seen.read("spit resume --list", run_command(["resume", "--list"]))
    seen.read("spit replay", run_command(["replay"]))
    listing = make_app(clock, start=None)
    async with running(listing, size=BIG) as pilot:
        listing.push_screen(SavedGamesScreen())
        await seen.look("resume a game", listing, pilot)
    match = make_app(clock, lambda: last_stall_of_round(target=1))
    async with running(match, size=BIG) as pilot:
        await end_round_by_stall(match, clock, pilot)
        await seen.look("the match's end", match, pilot)
    seen.check()


async def test_no_rule_id_in_the_tutorial(clock: FakeClock) -> None:
    from spit.play.keys import KeyMap
    from spit.play.tutorial import keys_for
    from spit.tui.tutorial import TutorialScreen

    keymap = KeyMap.default()
    seen = Seen()
    app = make_app(clock, start="tutorial")
    async with running(app) as pilot:
        for i, lesson in enumerate(LESSONS):
            screen = app.screen
            assert isinstance(screen, TutorialScreen)
            await seen.look(f"lesson {i + 1}", app, pilot)
            await pilot.press("z" if i else "m")  # a wrong key: its explanation
            await seen.look(f"lesson {i + 1}, a wrong key", app, pilot)
            assert screen.session is not None
            right = keys_for(sorted(lesson.expected)[0], screen.session.game, keymap)[0]
            await pilot.press(right)
            await seen.look(f"lesson {i + 1} done", app, pilot)
            await pilot.press("enter")
            await pilot.pause()
    seen.check()


def test_no_rule_id_in_the_engines_refusals() -> None:
    """Every reason the engine gives for a refused action, in random games of every mode."""
    seen = Seen()
    rng = random.Random(3)
    configs = {
        "spit": [SpitConfig.from_variants(list(ids)) for ids in ((), ("V1", "V2"), ("V3", "V4"))],
        "speed": [SpeedConfig(), SpeedConfig(long_deal=True, alternating_colours=True)],
    }
    from spit.engine.actions import Action

    for name in mode_names():
        mode = get_mode(name)
        for config in configs.get(name, [mode.config()]):
            for seed in range(4):
                game = mode.new_game(config, seed)
                for _ in range(400):
                    if game.phase.value == "game_over":
                        break
                    player = rng.choice((0, 1, 2))
                    kind = rng.choice(list(Kind))
                    action = Action(kind, player, rng.randrange(6), rng.randrange(3))
                    try:
                        game.apply(action)
                    except IllegalAction as exc:
                        seen.read(f"{name} refusal", str(exc))
                    legal = game.legal_actions(rng.choice((0, 1)))
                    if legal:
                        game.apply(rng.choice(legal))
    seen.check()


# ---------------------------------------------------------------- the commands


def run_command(argv: list[str]) -> str:
    """What ``spit ARGV`` prints, on both streams."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err), contextlib.suppress(SystemExit):
        cli.main(argv)
    return out.getvalue() + err.getvalue()


def test_no_rule_id_in_any_help() -> None:
    assert {"play", "speed", "sim", "tournament", "host", "coach"} <= set(every_command())
    seen = Seen()
    seen.read("spit --help", run_command(["--help"]))
    for command in every_command():
        seen.read(f"spit {command} --help", run_command([command, "--help"]))
    seen.check()


def test_no_rule_id_in_rules_sim_tournament_and_the_listings(isolated_dirs: Path) -> None:
    seen = Seen()
    for argv in (
        ["rules"],
        ["rules", "--ascii"],
        ["sim", "--games", "2", "--seed", "1", "--variant", "four-stocks"],
        ["sim", "--games", "2", "--mode", "speed", "--variant", "long-deal"],
        ["tournament", "--levels", "easy,medium", "--games", "1", "--jobs", "1"],
        ["stats", "--no-charts"],
        ["replay"],
        ["resume", "--list"],
        ["play", "--variant", "nine"],
        ["speed", "--variant", "four-stocks"],
    ):
        seen.read("spit " + " ".join(argv), run_command(argv))
    seen.check()


def test_every_variant_has_words() -> None:
    from spit.engine.rule_words import VARIANT_WORDS

    for name in mode_names():
        for vid in get_mode(name).variants:
            assert vid in VARIANT_WORDS
            assert not ids_in(VARIANT_WORDS[vid].label + VARIANT_WORDS[vid].line)


# ---------------------------------------------------------------- the docs

ROOT = Path(__file__).resolve().parents[2]

#: The docs a player reads, each up to the heading where its part for contributors
#: (or its reference of file formats, whose values are ids) begins; None: all of it.
#: docs/rules.md cites the ids on purpose; architecture, engine, realtime, bots and
#: performance are the contributors' own.
PLAYER_DOCS: dict[str, str | None] = {
    "README.md": "## For contributors",
    "docs/playing.md": None,
    "docs/network.md": "## The protocol",
    "docs/server.md": None,
    "docs/files.md": "## Results: ",
}

#: The board's own marks for a pile that went to player 1 or 2 ("▼ to P1", "✗ P2"):
#: a player's number, not Speed's rules P1 and P2.
BOARD_MARKS = re.compile(r"(▼ to|✗) P[12]\b")


def players_part(path: str) -> str:
    """The part of the doc at ``path`` that players read."""
    text = (ROOT / path).read_text(encoding="utf-8")
    end = PLAYER_DOCS[path]
    if end is not None:
        assert end in text, f"{path} has no heading {end!r} any more: update PLAYER_DOCS"
        text = text[: text.index(end)]
    return BOARD_MARKS.sub("", text)


def test_the_board_marks_are_not_taken_for_ids_but_an_id_beside_them_is() -> None:
    assert not ids_in(BOARD_MARKS.sub("", "says where it went (`▼ to P1`), marks it (`✗ P2`)"))
    assert ids_in(BOARD_MARKS.sub("", "a pile (`✗ P1`) as P1 deals it"))


@pytest.mark.parametrize("path", sorted(PLAYER_DOCS))
def test_no_rule_id_in_the_docs_players_read(path: str) -> None:
    seen = Seen()
    seen.read(path, players_part(path))
    seen.check()
