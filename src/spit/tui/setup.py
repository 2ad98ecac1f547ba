"""The setup screen before a game: the game, the opponent, the rules, the names.

Opened from the title menu (and after the tutorial's last lesson). Everything
is said in words, one line each; the choices are remembered in the settings
file for next time (``game.mode``, ``game.opponent``, the game's own settings
in ``[rules.<mode>]``, which its schema declares, the names) and the first
field a player sees is the Start button, so Enter plays the game chosen last.
What the choices mean (``GameChoice``, ``choice_from``, ``settings_with``) has
no Textual and is tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from spit.bots import LEVELS
from spit.bots import MODES as BOT_MODES
from spit.engine import all_modes, get_mode, mode_names
from spit.engine.errors import ConfigError
from spit.engine.modes import Mode
from spit.engine.schema import MAX_TARGET, Setting, SettingValue
from spit.store.settings import MAX_NAME, OPPONENTS, PERSON
from spit.store.settings import Settings as UserSettings
from spit.tui import MENUS_CSS_PATH
from spit.tui.checkbox import StateCheckbox
from spit.tui.dealer import AppSettings, SaveSettings, write_settings
from spit.tui.messages import PlayRequested, SettingsChanged

#: The opponents in words (``OPPONENTS`` is their list).
OPPONENT_WORDS: dict[str, str] = {
    PERSON: "a person at this keyboard (the right-hand keys)",
    "easy": "the computer, easy: slow, plays any card it sees",
    "medium": "the computer, medium: quicker, turns up hidden cards first",
    "hard": "the computer, hard: quick, keeps piles open",
    "expert": "the computer, expert: fastest, thinks a move ahead",
    "match-me": "match me: a computer as fast as you, from your games",
}
assert tuple(OPPONENT_WORDS) == OPPONENTS


class SetupError(ValueError):
    """A choice that cannot be played; the message says which and why."""


def opponents_for(mode: str) -> tuple[str, ...]:
    """The opponents ``mode`` can be played against (a computer only where it has one)."""
    return OPPONENTS if mode in BOT_MODES else (PERSON,)


def _match_flag(mode: Mode) -> Setting | None:
    """The setting of the rule a match needs (Spit's scoring), shown as the match field."""
    return None if mode.match_variant is None else mode.variant_setting(mode.match_variant)


def rule_settings(mode: Mode) -> tuple[Setting, ...]:
    """The settings the setup offers as its rules (the match has its own field)."""
    hidden = (mode.target, _match_flag(mode))
    return tuple(s for s in mode.settings if s not in hidden)


def rule_variants(mode: Mode) -> tuple[str, ...]:
    """The optional rules the setup offers as boxes to tick, by id."""
    return tuple(s.variant for s in rule_settings(mode) if s.variant is not None)


@dataclass(frozen=True)
class GameChoice:
    """What the setup chose: ``mode``, ``opponent`` (one of ``OPPONENTS``), the
    values of its ``rules`` (``rule_settings``: by key, in their order), the
    match ``target`` (0: a single game) and the ``names``."""

    mode: str
    opponent: str
    rules: tuple[tuple[str, SettingValue], ...]
    target: int
    names: tuple[str, str]

    def opponents(self) -> dict[int, str]:
        """The computer players by player number (none against a person)."""
        return {} if self.opponent == PERSON else {1: self.opponent}

    @property
    def variants(self) -> tuple[str, ...]:
        """The optional rules ticked, by id."""
        info = get_mode(self.mode)
        on = {key for key, value in self.rules if value is True}
        return tuple(s.variant for s in rule_settings(info) if s.variant and s.key in on)


def rules_with(
    mode: str, ticked: tuple[str, ...] = (), **values: SettingValue
) -> tuple[tuple[str, SettingValue], ...]:
    """A choice's ``rules``: ``mode``'s defaults, the rules ``ticked`` (ids) on, ``values``."""
    info = get_mode(mode)
    out: list[tuple[str, SettingValue]] = []
    for s in rule_settings(info):
        value = values.get(s.key, s.default)
        out.append((s.key, True if s.variant in ticked else value))
    return tuple(out)


def choice_from(
    user: UserSettings, mode: str | None = None, opponent: str | None = None
) -> GameChoice:
    """The setup's first values: the settings file's (``mode``, ``opponent``: instead)."""
    name = mode or user.mode
    info = get_mode(name if name in mode_names() else mode_names()[0])
    values = user.rules_of(info.name)
    target = 0 if info.target is None else int(values[info.target.key])
    match = _match_flag(info)
    if match is not None and not values[match.key]:
        target = 0
    against = opponent or user.opponent
    return GameChoice(
        info.name,
        against if against in opponents_for(info.name) else PERSON,
        tuple((s.key, values[s.key]) for s in rule_settings(info)),
        target,
        user.names,
    )


def check_name(text: str, what: str) -> str:
    """A player's name as typed, or SetupError saying what is wrong with it."""
    name = text.strip()
    if not name:
        raise SetupError(f"{what}: give a name")
    if not name.isprintable():
        raise SetupError(f"{what}: a name cannot hold control characters (such as tab)")
    if len(name) > MAX_NAME:
        raise SetupError(f"{what}: a name has at most {MAX_NAME} characters")
    return name


def check_target(text: str) -> int:
    """The match target as typed (0: a single game), or SetupError."""
    try:
        target = int(text.strip() or "0")
    except ValueError:
        raise SetupError(f"Match: {text.strip()!r} is not a whole number") from None
    if not 0 <= target <= MAX_TARGET:
        raise SetupError(f"Match: give 0 (a single game) or up to {MAX_TARGET} points")
    return target


def check_rule(setting: Setting, text: str) -> SettingValue:
    """A rule's value as typed, or SetupError saying what it takes."""
    try:
        return setting.parse(text)
    except ConfigError as exc:
        raise SetupError(str(exc)) from None


def settings_with(user: UserSettings, choice: GameChoice) -> UserSettings:
    """``user`` with the setup's ``choice`` in it (what the settings file keeps).

    Raises SetupError for names that are equal (a game between two people
    with one name would be counted as one person's win and loss).
    """
    if choice.opponent == PERSON and choice.names[0].casefold() == choice.names[1].casefold():
        raise SetupError("The two players need different names")
    info = get_mode(choice.mode)
    values: dict[str, SettingValue] = dict(choice.rules)
    match = _match_flag(info)
    if info.target is not None:
        if match is None:
            values[info.target.key] = choice.target
        else:  # 0: a single game, and the target is kept for next time
            values[match.key] = choice.target > 0
            if choice.target > 0:
                values[info.target.key] = choice.target
    for key, value in values.items():
        setting = info.setting(key)
        if setting is None:
            raise SetupError(f"{info.title} has no rule {key!r}")
        try:
            setting.check(value)
        except ConfigError as exc:
            raise SetupError(str(exc)) from None
    changes: dict[str, object] = {
        "mode": info.name,
        "opponent": choice.opponent,
        "names": choice.names,
    }
    if choice.opponent in LEVELS:
        changes["bot_level"] = choice.opponent
    return user.with_rules(info.name, **values).with_changes(**changes)


def match_words(mode: Mode) -> str:
    """What the match field means for ``mode``, in one line."""
    if mode.match_variant is not None:
        return "points, lowest total wins (0: one game)"
    return "points to win (0: one game)"


class SetupScreen(Screen[None]):
    """Choose a game and start it: Enter on Start (first in focus) plays it."""

    CSS_PATH = MENUS_CSS_PATH
    BINDINGS = [Binding("escape", "back", "Back")]  # noqa: RUF012

    def __init__(
        self,
        settings: AppSettings,
        save: SaveSettings,
        mode: str | None = None,
        opponent: str | None = None,
    ) -> None:
        """``mode``, ``opponent``: chosen first instead of the settings' last choice."""
        super().__init__()
        self.settings = settings
        self.save = save
        self.choice = choice_from(settings.user, mode, opponent)
        #: the settings file could not be written: the next Start plays without it
        self._unsaved = False

    def compose(self) -> ComposeResult:
        choice = self.choice
        with Vertical(id="setup-box"):
            yield Static(
                "[b]New game[/b]: Tab moves, Enter on Start plays, Esc goes back", classes="hint"
            )
            with Horizontal(classes="setup-row"):
                yield Label("Game", classes="setup-label")
                yield Select(
                    [(mode.title, mode.name) for mode in all_modes()],
                    value=choice.mode,
                    allow_blank=False,
                    id="setup-mode",
                    compact=True,
                )
            with Horizontal(classes="setup-row"):
                yield Label("Opponent", classes="setup-label")
                yield Select(
                    [(OPPONENT_WORDS[o], o) for o in opponents_for(choice.mode)],
                    value=choice.opponent,
                    allow_blank=False,
                    id="setup-opponent",
                    compact=True,
                )
            yield Label("Rules (space ticks one; none: the standard rules)", classes="setup-head")
            yield Vertical(id="setup-variants")
            with Horizontal(classes="setup-row", id="setup-match"):
                yield Label("Match to", classes="setup-label")
                yield Input(str(choice.target), id="setup-target", compact=True)
                yield Label("", id="setup-target-hint", classes="setup-hint")
            for p in (0, 1):
                with Horizontal(classes="setup-row", id=f"setup-player{p + 1}"):
                    yield Label(f"Player {p + 1}'s name", classes="setup-label")
                    yield Input(choice.names[p], id=f"setup-name{p + 1}", compact=True)
                    yield Label(("left-hand keys", "right-hand keys")[p], classes="setup-hint")
            with Horizontal(id="setup-buttons"):
                yield Button("Start", id="setup-start", compact=True)
                yield Button("Back", id="setup-back", compact=True)
            yield Static("", id="setup-message")

    async def on_mount(self) -> None:
        await self.show_rules(self.choice)
        self.show_second_name()
        self.query_one("#setup-start", Button).focus()

    def show_second_name(self) -> None:
        """Player 2's name only for a person at this keyboard: a computer opponent
        goes by its own name on the board."""
        self.query_one("#setup-player2").display = self.read_opponent() == PERSON

    async def show_rules(self, choice: GameChoice) -> None:
        """The rules of ``choice.mode`` as its schema declares them: a box to tick for
        each flag, a field for a number or a choice, each with its line in words
        (each widget's ``name``: the setting's key)."""
        info = get_mode(choice.mode)
        values = dict(choice.rules)
        box = self.query_one("#setup-variants", Vertical)
        await box.remove_children()
        rows: list[Checkbox | Static | Horizontal] = []
        for s in rule_settings(info):
            value = values.get(s.key, s.default)
            if s.kind == "flag":
                rows.append(StateCheckbox(s.label, bool(value), name=s.key, compact=True))
                rows.append(Static(Text(s.line), classes="setup-rule"))
                continue
            field: Input | Select[str]
            if s.kind == "number":
                field = Input(str(value), name=s.key, compact=True)
            else:
                options = list(zip(s.choice_words, s.choices, strict=True))
                field = Select(
                    options, value=str(value), allow_blank=False, name=s.key, compact=True
                )
            label = Label(s.label[:1].upper() + s.label[1:], classes="setup-label")
            hint = Label(s.line, classes="setup-hint")
            rows.append(Horizontal(label, field, hint, classes="setup-row"))
        await box.mount_all(rows)
        self.query_one("#setup-match").display = info.target is not None
        self.query_one("#setup-target-hint", Label).update(match_words(info))

    async def on_select_changed(self, event: Select.Changed) -> None:
        value = event.value
        if event.select.id == "setup-mode" and isinstance(value, str) and value != self.choice.mode:
            self.choice = choice_from(self.settings.user, value, self.read_opponent())
            opponent = self.query_one("#setup-opponent", Select)
            opponent.set_options([(OPPONENT_WORDS[o], o) for o in opponents_for(value)])
            opponent.value = self.choice.opponent
            self.query_one("#setup-target", Input).value = str(self.choice.target)
            await self.show_rules(self.choice)
        self.show_second_name()

    def rules_shown(self, mode: str) -> tuple[tuple[str, SettingValue], ...]:
        """The rules as the screen shows them, by key; SetupError for a bad field."""
        box = self.query_one("#setup-variants", Vertical)
        fields: dict[str, str] = {}
        for box_ in box.query(Checkbox):
            if box_.name is not None:
                fields[box_.name] = "true" if box_.value else "false"
        for field in box.query(Input):
            if field.name is not None:
                fields[field.name] = field.value
        for select in box.query(Select):
            if select.name is not None:
                fields[select.name] = str(select.value)
        out: list[tuple[str, SettingValue]] = []
        for s in rule_settings(get_mode(mode)):
            out.append((s.key, check_rule(s, fields[s.key]) if s.key in fields else s.default))
        return tuple(out)

    def read_opponent(self) -> str:
        value = self.query_one("#setup-opponent", Select).value
        return value if isinstance(value, str) else PERSON

    def read(self) -> GameChoice:
        """The choice on screen; SetupError naming the first field that cannot be used."""
        mode = self.query_one("#setup-mode", Select).value
        assert isinstance(mode, str)
        rules = self.rules_shown(mode)
        opponent = self.read_opponent()
        first = check_name(self.query_one("#setup-name1", Input).value, "Player 1")
        typed = self.query_one("#setup-name2", Input).value
        try:
            second = check_name(typed, "Player 2")
        except SetupError:
            if opponent == PERSON:
                raise
            second = self.choice.names[1]  # (not shown against a computer: kept as it was)
        target = check_target(self.query_one("#setup-target", Input).value)
        return GameChoice(mode, opponent, rules, target, (first, second))

    def say(self, text: str, error: bool = False) -> None:
        self.query_one("#setup-message", Static).update(
            Text(text, style="bold red" if error else "green")
        )

    def action_start(self) -> None:
        """Remember the choice in the settings file, then play it."""
        try:
            choice = self.read()
            user = settings_with(self.settings.user, choice)
        except SetupError as exc:
            self.say(f"Not started: {exc}", error=True)
            return
        if user != self.settings.user and not self._unsaved:
            path, problem = write_settings(self.save, user)
            if path is None:
                self._unsaved = True
                self.say(f"Not remembered: {problem}. Start again to play anyway.", error=True)
                return
        self.post_message(SettingsChanged(user))
        self.post_message(PlayRequested(choice.mode, choice.opponents(), replace=True))

    def action_back(self) -> None:
        """Back without playing (nothing is saved)."""
        self.app.pop_screen()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "setup-start":
            self.action_start()
        elif event.button.id == "setup-back":
            self.action_back()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.action_start()
