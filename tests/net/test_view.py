"""The guest's view: a RemoteSession fed by a host's match (fake clock, no sockets)."""

from __future__ import annotations

from typing import Any

from tests.support import FakeClock
from tests.support.net import race_position

from spit.bots.sim import new_game
from spit.engine import Action, Kind, Phase
from spit.net import protocol as proto
from spit.net.match import Match
from spit.net.stamping import Stamper
from spit.net.view import HIDDEN, RemoteSession
from spit.play.keys import Row


class ViewLink:
    """Delivers the host's messages to a RemoteSession, as the client would."""

    def __init__(self, view: RemoteSession) -> None:
        self.view = view

    def send(self, data: bytes) -> None:
        self.view.receive(proto.decode(data, proto.HOST_TO_GUEST, proto.MAX_HOST_LINE))


def hand(view: RemoteSession, player: int) -> list[int | None]:
    """The cards a guest's board shows in ``player``'s hand (HIDDEN: face down)."""
    return [top for top, _ in view.game.columns(player)]


def seated(game: Any, clock: FakeClock) -> tuple[Match, RemoteSession, RemoteSession]:
    match = Match(game, clock=clock, window=0.05)
    views = []
    for seat in (0, 1):
        sent: list[tuple[Action, float]] = []

        def send(action: Action, at: float, seat: int = seat, sent: list = sent) -> int:
            sent.append((action, at))
            match.receive_action(
                seat, {"id": len(sent), "a": action.to_json(), "at": at}, clock.now
            )
            return len(sent)

        view = RemoteSession(send, clock=clock)
        match.attach(seat, ViewLink(view), Stamper.local(), clock.now)
        views.append(view)
    return match, views[0], views[1]


def test_speed_opponents_hand_is_face_down_and_own_hand_shown() -> None:
    clock = FakeClock()
    game = new_game("speed", (), 5)
    _, v0, v1 = seated(game, clock)
    assert v0.seat == 0 and v1.seat == 1 and v0.started
    assert hand(v0, 0) == game.hands[0]
    assert hand(v0, 1) == [HIDDEN] * 5
    assert hand(v1, 0) == [HIDDEN] * 5
    assert v0.game.reserve_size(1) == len(game.draw[1])


def test_a_press_shows_at_once_then_a_refused_play_snaps_back_with_the_reason() -> None:
    clock = FakeClock()
    game, mine, theirs = race_position("speed")
    match, v0, v1 = seated(game, clock)
    clock.now += 0.1
    match.tick(clock.now)
    card = game.hands[1][theirs.source]
    before = hand(v1, 1)
    # seat 1 loses the race: seat 0's card was pressed first
    v0.press(v0.keymap.key(0, Row(mine.target), mine.source), at=clock.now)
    clock.now += 0.01
    v1.press(v1.keymap.key(1, Row(theirs.target), theirs.source), at=clock.now)
    # pending: the card has left its slot for the pile before any verdict
    assert hand(v1, 1)[theirs.source] is None
    assert v1.game.piles[theirs.target][-1] == card
    clock.now += 0.2
    match.tick(clock.now)
    v1.tick(clock.now)
    assert hand(v1, 1) == before  # snapped back
    assert v1.flash is not None and v1.flash.player == 1
    assert "too late" in v1.flash.text and "Player 1" in v1.flash.text
    v0.tick(clock.now)
    assert v0.game.piles[mine.target][-1] == game.piles[mine.target][-1]
    assert "Player 1 played" in v0.news


def test_a_spit_race_lost_over_the_network_reads_as_it_does_locally() -> None:
    """Issue 21 defect 10: a guest who lost a Spit race was told "10♠ is not one rank
    above or below Q♣"; at one keyboard it reads "too late, Player 1 put ... first"."""
    clock = FakeClock()
    game, mine, theirs = race_position("spit")
    match, v0, v1 = seated(game, clock)
    clock.now += 0.1
    match.tick(clock.now)
    v0.press(v0.keymap.key(0, Row(mine.target), mine.source), at=clock.now)
    clock.now += 0.01
    v1.press(v1.keymap.key(1, Row(theirs.target), theirs.source), at=clock.now)
    clock.now += 0.2
    match.tick(clock.now)
    v1.tick(clock.now)
    assert v1.flash is not None and v1.flash.player == 1
    pile = "left" if mine.target == 0 else "right"
    assert v1.flash.text.startswith("Player 2: too late, Player 1 put ")
    assert v1.flash.text.endswith(f" on the {pile} pile first")


def test_both_players_keys_play_for_the_guests_seat() -> None:
    clock = FakeClock()
    game = new_game("spit", (), 6)
    match, v0, _ = seated(game, clock)
    v0.press(v0.keymap.calls[1], at=clock.now)  # player 2's call key, at seat 1's keyboard
    clock.now += 0.1
    match.tick(clock.now)
    assert game.called[0] and not game.called[1]


def test_a_spectator_cannot_press_and_sees_no_hand() -> None:
    clock = FakeClock()
    game = new_game("speed", (), 7)
    match, _, _ = seated(game, clock)
    watcher = RemoteSession(None, clock=clock)
    match.attach_watcher(ViewLink(watcher))
    assert watcher.seat is None
    assert hand(watcher, 0) == [HIDDEN] * 5 and hand(watcher, 1) == [HIDDEN] * 5
    watcher.press(watcher.keymap.calls[0], at=clock.now)
    assert watcher.flash is not None and "watching" in watcher.flash.text


def test_a_drop_shows_the_rejoin_countdown_and_the_choice() -> None:
    clock = FakeClock()
    game = new_game("spit", (), 8)
    match = Match(game, clock=clock, window=0.05, rejoin_timeout=60)
    view = RemoteSession(lambda a, at: 1, clock=clock)
    match.attach(0, ViewLink(view), Stamper.local(), clock.now)
    match.attach(1, ViewLink(RemoteSession(None, clock=clock)), Stamper.local(), clock.now)
    match.drop(1, clock.now)
    assert "Player 2 lost the connection: waiting 60 s" in view.status(clock.now)
    clock.now += 45.2
    assert "waiting 15 s" in view.status(clock.now)
    clock.now += 15
    match.tick(clock.now)
    assert view.choice == 1 and "Enter lets the computer" in view.status(clock.now)


def test_the_rejoin_countdown_asks_for_a_repaint_each_second() -> None:
    """The board repaints only when the session's version moves: the countdown must move it."""
    clock = FakeClock()
    game = new_game("spit", (), 8)
    match = Match(game, clock=clock, window=0.05, rejoin_timeout=60)
    view = RemoteSession(lambda a, at: 1, clock=clock)
    match.attach(0, ViewLink(view), Stamper.local(), clock.now)
    match.attach(1, ViewLink(RemoteSession(None, clock=clock)), Stamper.local(), clock.now)
    match.drop(1, clock.now)
    view.tick(clock.now)
    before = view.version
    clock.now += 1.5
    assert view.tick(clock.now)
    assert view.version > before and "waiting 59 s" in view.status(clock.now)
    same = view.version
    clock.now += 0.2
    view.tick(clock.now)
    assert view.version == same  # the same second: nothing new to show


def welcome(**fields: Any) -> dict[str, Any]:
    """The host's welcome to seat 0 of a game of Spit between A and B, both there."""
    msg: dict[str, Any] = {
        "t": "welcome",
        "seat": 0,
        "mode": "spit",
        "config": {"v": 1, "rules": {}},
        "names": ["A", "B"],
        "window": 0.05,
        "seats": [True, True],
    }
    return {**msg, **fields}


def test_the_game_over_message_ends_the_view() -> None:
    clock = FakeClock()
    view = RemoteSession(None, clock=clock)
    view.receive(welcome())
    view.receive({"t": "over", "winner": 1, "result": "R20", "text": "B wins the game!"})
    assert view.game.phase is Phase.GAME_OVER and view.game.over
    assert view.status(clock.now).startswith("B wins the game!")


def test_when_both_players_are_gone_the_match_is_saved() -> None:
    clock = FakeClock()
    saved: list[str] = []

    def save() -> str:
        saved.append("saved")
        return "the match was saved on the host"

    match = Match(
        new_game("spit", (), 9), clock=clock, window=0.05, rejoin_timeout=30, on_save=save
    )
    for seat in (0, 1):
        match.attach(seat, ViewLink(RemoteSession(None, clock=clock)), Stamper.local(), clock.now)
    match.drop(0, clock.now)
    match.drop(1, clock.now)
    clock.now += 29
    match.tick(clock.now)
    assert not saved and not match.finished
    clock.now += 2
    match.tick(clock.now)
    assert saved == ["saved"] and match.finished


def test_the_footer_of_a_network_board_offers_no_pause_and_no_save() -> None:
    """Space cannot pause a network game and a guest saves nothing: the footer says so."""
    from spit.tui.widgets.board import board_texts

    clock = FakeClock()
    _, v0, _ = seated(new_game("spit", (), 3), clock)
    footer = board_texts(v0, clock.now)["footer"].plain
    assert "pause" not in footer and "save" not in footer
    assert "Esc" in footer and "ctrl+q" in footer


def test_seat_two_sees_their_own_cards_at_the_bottom_with_the_keys_they_use() -> None:
    from spit.tui.widgets.board import board_texts

    clock = FakeClock()
    game = new_game("speed", (), 5)
    match, v0, v1 = seated(game, clock)
    for view in (v0, v1):
        texts = board_texts(view, clock.now)
        # own hand face up at the bottom, the opponent's face down at the top
        assert "░" not in texts["p1-cards"].plain and "░" in texts["p2-cards"].plain
        assert view.name(view.bottom_player) in texts["p1-info"].plain
        assert view.name(1 - view.bottom_player) in texts["p2-info"].plain
        # the keys on the own cards are player 1's (either set plays for the seat)
        own_keys = f"{v1.keymap.key(0, Row.LEFT, 0)} {v1.keymap.key(0, Row.RIGHT, 0)}"
        assert own_keys in texts["p1-cards"].plain
        assert f"call key {v1.keymap.calls[0]}" in texts["p1-info"].plain
        assert "call key" not in texts["p2-info"].plain
    assert v1.bottom_player == 1 and v0.bottom_player == 0
    watcher = RemoteSession(None, clock=clock)
    match.attach_watcher(ViewLink(watcher))
    texts = board_texts(watcher, clock.now)
    assert watcher.bottom_player == 0
    assert watcher.names[0] in texts["p1-info"].plain


def _move_position() -> tuple[Any, Action]:
    """A Spit game in play where player 1 may move a card to an empty slot (R10)."""
    from spit.engine import call

    for seed in range(500):
        game = new_game("spit", (), seed)
        game.apply(call(0))
        game.apply(call(1))
        for _ in range(60):
            if game.phase is not Phase.PLAY:
                break
            moves = [a for a in game.legal_actions(0) if a.kind is Kind.MOVE]
            if moves:
                return game, moves[0]
            plays = [a for a in game.legal_actions(0) if a.kind is Kind.PLAY]
            if not plays:
                break
            game.apply(plays[0])
    raise AssertionError("no move position found")


def test_a_call_shows_at_once_as_pending_then_the_verdict() -> None:
    clock = FakeClock()
    game = new_game("spit", (), 6)
    match, v0, _ = seated(game, clock)
    assert not v0.game.called[0]
    v0.press(v0.keymap.calls[0], at=clock.now)
    # before any verdict: shown as called, and marked pending
    assert v0.game.called[0]
    assert "pending: spit!" in v0.status(clock.now)
    clock.now += 0.1
    match.tick(clock.now)
    v0.tick(clock.now)
    assert game.called[0] and v0.game.called[0]
    assert "pending" not in v0.status(clock.now)


def test_a_move_to_an_empty_slot_shows_at_once_as_pending() -> None:
    clock = FakeClock()
    game, move = _move_position()
    match, v0, _ = seated(game, clock)
    card = game.stocks[0][move.source][-1]
    empty = next(i for i, pile in enumerate(game.stocks[0]) if not pile)
    v0.press(v0.keymap.key(0, Row.MOVE, move.source), at=clock.now)
    assert v0.game.columns(0)[empty][0] == card
    assert "pending: move" in v0.status(clock.now)
    clock.now += 0.1
    match.tick(clock.now)
    v0.tick(clock.now)
    assert game.stocks[0][empty][-1] == card and v0.game.columns(0)[empty][0] == card
    assert "pending" not in v0.status(clock.now)


def test_a_refused_call_snaps_back_with_the_reason() -> None:
    clock = FakeClock()
    game, _, _ = race_position("spit")
    match, v0, _ = seated(game, clock)
    # in play a call is refused (there are moves): pressed, shown pending, then undone
    v0.link.submit(Action(Kind.CALL, 0), clock.now)
    assert v0.game.called[0] and "pending" in v0.status(clock.now)
    clock.now += 0.1
    match.tick(clock.now)
    v0.tick(clock.now)
    assert not v0.game.called[0]
    assert "pending" not in v0.status(clock.now)
    assert v0.flash is not None


def test_a_slap_is_marked_pending_until_its_verdict() -> None:
    clock = FakeClock()
    game, _, _ = race_position("spit")
    match, v0, _ = seated(game, clock)
    v0.link.submit(Action(Kind.SLAP, 0, 0, 1), clock.now)  # not a slap phase: refused
    assert "[pending: slap the right pile]" in v0.status(clock.now)
    clock.now += 0.1
    match.tick(clock.now)
    v0.tick(clock.now)
    assert "pending" not in v0.status(clock.now)
    assert v0.flash is not None


def test_after_a_network_game_the_words_say_what_enter_does() -> None:
    """Enter leaves the board after a network game (the host deals any new game):
    neither the status line nor a key's hint may promise to play again."""
    clock = FakeClock()
    view = RemoteSession(lambda action, at: 1, clock=clock)
    welcome = {"seat": 0, "mode": "spit", "config": {"v": 1, "rules": {}}, "names": ["A", "B"]}
    view.receive({"t": "welcome", **welcome, "window": 0.05, "seats": [True, True]})
    view.receive({"t": "resumed", "names": ["A", "B"]})
    view.receive({"t": "over", "winner": 1, "result": "R20", "text": "B wins the game!"})
    assert view.press("a", clock.now)
    assert view.flash is not None
    for text in (view.flash.text, view.status(clock.now)):
        assert "Enter or Esc leaves this board" in text and "again" not in text


def test_a_spectator_is_not_asked_to_choose_for_the_players() -> None:
    clock = FakeClock()
    watcher = RemoteSession(None, clock=clock)
    welcome = {"seat": None, "mode": "spit", "config": {"v": 1, "rules": {}}, "names": ["A", "B"]}
    watcher.receive({"t": "welcome", **welcome, "window": 0.05, "seats": [True, True]})
    watcher.receive({"t": "choose", "seat": 1, "options": ["bot", "save"]})
    assert watcher.choice is None  # no box: only a player decides
    assert watcher.status(clock.now) == "B did not come back: the other player chooses"


def test_a_press_that_cannot_fit_is_not_shown_on_the_pile() -> None:
    """The guest shows a pending play only where the host's engine allows it (R7):
    a card that does not fit stays in its slot until the verdict refuses it."""
    clock = FakeClock()
    game, _, _ = race_position("spit")
    match, v0, _ = seated(game, clock)
    legal = set(game.legal_actions(0))
    s, t = next(
        (s, t)
        for s in range(5)
        for t in (0, 1)
        if game.stocks[0][s] and Action(Kind.PLAY, 0, s, t) not in legal
    )
    columns, piles = v0.game.columns(0), [list(p) for p in v0.game.piles]
    v0.press(v0.keymap.key(0, Row(t), s), at=clock.now)
    assert "pending: card" in v0.status(clock.now)
    assert v0.game.columns(0) == columns and v0.game.piles == piles
    clock.now += 0.1
    match.tick(clock.now)
    v0.tick(clock.now)
    assert v0.flash is not None and v0.game.columns(0) == columns


def test_a_guests_game_clock_is_the_hosts_from_the_games_start() -> None:
    """The board's clock counts the game's time as the host has it: not from when the
    guest's screen opened (before the other player joined), paused while a player is
    away, the same for a screen that opens late (a spectator), stopped at the end."""
    from spit.tui.widgets.board import board_keys

    clock = FakeClock()
    game = new_game("spit", (), 8)
    match = Match(game, clock=clock, window=0.05, rejoin_timeout=60)
    first = RemoteSession(lambda a, at: 1, clock=clock)  # the screen opens, and waits
    match.attach(0, ViewLink(first), Stamper.local(), clock.now)
    clock.now += 30.0  # the other player joins half a minute later: the game starts
    match.attach(1, ViewLink(RemoteSession(None, clock=clock)), Stamper.local(), clock.now)
    assert first.started and first.game_time(clock.now) < 0.1
    clock.now += 12.0
    match.tick(clock.now)
    assert abs(first.game_time(clock.now) - 12.0) < 0.1
    assert board_keys(first, clock.now)["topbar"].clock == "0:12"
    late = RemoteSession(None, clock=clock)  # a spectator's screen opens now
    match.attach_watcher(ViewLink(late))
    assert abs(late.game_time(clock.now) - 12.0) < 0.1
    match.drop(1, clock.now)  # paused while player 2 is away
    clock.now += 20.0
    assert abs(first.game_time(clock.now) - 12.0) < 0.1
    assert abs(late.game_time(clock.now) - 12.0) < 0.1
    rejoined = RemoteSession(lambda a, at: 1, clock=clock)  # player 2 comes back
    match.attach(1, ViewLink(rejoined), Stamper.local(), clock.now)
    clock.now += 3.0
    for view in (first, late, rejoined):
        assert abs(view.game_time(clock.now) - 15.0) < 0.1
    host_clock = match.arbiter.played(clock.now)
    assert abs(host_clock - 15.0) < 0.1


def test_a_guests_game_clock_stops_at_the_hosts_end() -> None:
    clock = FakeClock()
    view = RemoteSession(None, clock=clock)
    view.receive(welcome(played=40.0))
    clock.now += 5.0
    assert view.game_time(clock.now) == 45.0
    view.receive({"t": "over", "winner": 0, "result": "R20", "text": "A wins", "played": 46.5})
    clock.now += 60.0
    assert view.game_time(clock.now) == 46.5
