"""The server's SQLite store: accounts by key, names, ratings, matches, daily attempts, bans."""

from __future__ import annotations

import asyncio
import sqlite3
import stat
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tests.support.services import drop_schema, fresh_schema, postgres_url

from spit.server.postgres_store import PostgresStore
from spit.server.schema import LATEST, MIGRATIONS
from spit.server.sqlite_store import SqliteStore
from spit.server.store import (
    KeyTaken,
    MatchRecord,
    NameRefused,
    NameTaken,
    RatingRules,
    Side,
    SqlStore,
)

NOW = "2026-12-01T12:00:00+00:00"


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    """The same tests on both back ends: a SQLite file, and a PostgreSQL schema of their own."""
    s: SqlStore
    if request.param == "sqlite":
        s = SqliteStore(tmp_path / "server" / "spit-server.db")
    else:
        s = PostgresStore(postgres_url(), schema=fresh_schema())
    await s.open()
    yield s
    await s.close()
    if isinstance(s, PostgresStore):
        await drop_schema(s)


def _match(
    a: tuple[int | None, str],
    b: tuple[int | None, str],
    winner: int | None,
    rated: bool = True,
    bot: str | None = None,
    ended: str = NOW,
    mode: str = "spit",
) -> MatchRecord:
    return MatchRecord(
        mode=mode,
        sides=(Side(a[0], a[1]), Side(b[0], b[1], bot)),
        winner=winner,
        rated=rated,
        started=ended,
        ended=ended,
        replay='{"replay": true}',
    )


async def test_a_new_database_gets_every_migration(store: SqlStore) -> None:
    assert await store.schema_version() == LATEST == MIGRATIONS[-1].version


async def test_the_database_is_private_to_its_owner_and_in_wal_mode(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "server" / "spit-server.db")
    await store.open()
    mode = await store.call(lambda db: db.execute("PRAGMA journal_mode").fetchone()[0])
    assert mode == "wal"  # readers never wait for the writer
    await store.close()
    path = tmp_path / "server" / "spit-server.db"
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_reopening_keeps_accounts_and_ratings(tmp_path: Path) -> None:
    path = tmp_path / "db" / "s.db"
    first = SqliteStore(path)
    await first.open()
    ann = await first.create_account("Ann", "SHA256:ann", NOW)
    bob = await first.create_account("Bob", "SHA256:bob", NOW)
    await first.record_match(_match((ann.id, "Ann"), (bob.id, "Bob"), winner=1))
    before = await first.rating(ann.id, "spit")
    await first.close()
    again = SqliteStore(path)
    await again.open()
    assert await again.account_for_key("SHA256:ann") == ann
    assert await again.rating(ann.id, "spit") == before
    assert await again.schema_version() == LATEST
    await again.close()


async def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "db" / "s.db"
    path.parent.mkdir()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (?)", (LATEST + 1,))
    db.commit()
    db.close()
    store = SqliteStore(path)
    with pytest.raises(Exception, match="newer spit"):
        await store.open()
    await store.close()


async def test_a_key_is_an_account(store: SqlStore) -> None:
    assert await store.account_for_key("SHA256:x") is None
    ann = await store.create_account("Ann", "SHA256:x", NOW)
    assert await store.account_for_key("SHA256:x") == ann
    assert await store.account_named("aNN") == ann


async def test_a_name_is_taken_once_whatever_its_case(store: SqlStore) -> None:
    await store.create_account("Ann", "SHA256:1", NOW)
    with pytest.raises(NameTaken, match="taken"):
        await store.create_account("ANN", "SHA256:2", NOW)
    assert await store.account_for_key("SHA256:2") is None


async def test_a_bad_name_is_refused_before_anything_is_written(store: SqlStore) -> None:
    with pytest.raises(NameRefused):
        await store.create_account("[red]x", "SHA256:1", NOW)
    assert await store.account_for_key("SHA256:1") is None


async def test_a_key_belongs_to_one_account_only(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:1", NOW)
    with pytest.raises(KeyTaken):
        await store.create_account("Bob", "SHA256:1", NOW)
    assert await store.account_named("Bob") is None  # the whole sign-up was undone
    bob = await store.create_account("Bob", "SHA256:2", NOW)
    with pytest.raises(KeyTaken):
        await store.link_key(bob.id, "SHA256:1", NOW)
    assert await store.keys_of(ann.id) == ["SHA256:1"]


async def test_linked_keys_sign_in_to_the_same_account(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:laptop", NOW)
    await store.link_key(ann.id, "SHA256:desktop", NOW)
    assert await store.account_for_key("SHA256:desktop") == ann
    assert sorted(await store.keys_of(ann.id)) == ["SHA256:desktop", "SHA256:laptop"]


async def test_two_racing_sign_ups_for_one_name_give_one_account(store: SqlStore) -> None:
    results = await asyncio.gather(
        *(store.create_account("Ann", f"SHA256:{i}", NOW) for i in range(8)),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    assert len(made) == 1
    assert all(isinstance(r, NameTaken) for r in results if isinstance(r, BaseException))


async def test_a_rated_win_moves_both_ratings_once(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    bob = await store.create_account("Bob", "SHA256:b", NOW)
    match_id = await store.record_match(_match((ann.id, "Ann"), (bob.id, "Bob"), winner=1))
    a, b = await store.rating(ann.id, "spit"), await store.rating(bob.id, "spit")
    assert a.rating.rating > 1500 > b.rating.rating
    assert a.games == b.games == 1 and a.last_game == NOW
    assert (await store.rating(ann.id, "speed")).games == 0
    assert await store.replay_of(match_id, ann.id) == '{"replay": true}'


async def test_an_unrated_match_is_kept_but_moves_no_rating(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    bob = await store.create_account("Bob", "SHA256:b", NOW)
    await store.record_match(_match((ann.id, "Ann"), (bob.id, "Bob"), winner=1, rated=False))
    assert (await store.rating(ann.id, "spit")).games == 0
    assert [m.names for m in await store.matches_of(bob.id)] == [("Ann", "Bob")]


async def test_a_computer_level_is_a_fixed_anchor(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    await store.record_match(_match((ann.id, "Ann"), (None, "hard"), winner=1, bot="hard"))
    after = await store.rating(ann.id, "spit")
    # beating a 2037-rated anchor from 1500 ± 350 is a big step up
    assert after.rating.rating > 1700 and after.games == 1


async def test_a_replay_is_given_only_to_its_players(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    bob = await store.create_account("Bob", "SHA256:b", NOW)
    eve = await store.create_account("Eve", "SHA256:e", NOW)
    match_id = await store.record_match(_match((ann.id, "Ann"), (bob.id, "Bob"), winner=2))
    assert await store.replay_of(match_id, bob.id) is not None
    assert await store.replay_of(match_id, eve.id) is None


async def test_provisional_ratings_are_marked(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    rating = await store.rating(ann.id, "spit")
    assert rating.shown(RatingRules()) == "1500?"


async def test_the_leaderboard_shows_only_settled_active_ratings(store: SqlStore) -> None:
    rules = RatingRules(board_rd=75, board_min_games=10, board_recent_days=7)
    ids = [(await store.create_account(n, f"SHA256:{n}", NOW)).id for n in ("Ann", "Bob", "Cyd")]
    for i in range(45):  # Ann and Bob play a lot (an RD near 70), Cyd once
        winner = 1 if i % 3 else 2
        await store.record_match(_match((ids[0], "Ann"), (ids[1], "Bob"), winner))
    await store.record_match(_match((ids[2], "Cyd"), (None, "easy"), winner=1, bot="easy"))
    board = await store.leaderboard("spit", NOW, rules)
    assert [s.name for s in board] == ["Ann", "Bob"]
    assert all(s.rating.rating.rd <= 75 and s.rating.games >= 10 for s in board)
    assert board[0].rating.shown(rules).isdigit()
    later = "2026-12-09T12:00:01+00:00"  # eight days on: nobody has played this week
    assert await store.leaderboard("spit", later, rules) == []
    assert await store.leaderboard("speed", NOW, rules) == []


async def test_one_daily_attempt_per_player_per_day(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    day = "2026-12-01"
    starts = await asyncio.gather(*(store.start_daily(day, "spit", ann.id, NOW) for _ in range(5)))
    assert starts.count(True) == 1
    assert await store.start_daily(day, "speed", ann.id, NOW)  # another mode is another challenge
    assert await store.start_daily("2026-12-02", "spit", ann.id, NOW)


async def test_the_daily_board_ranks_wins_first_then_time(store: SqlStore) -> None:
    day = "2026-12-01"
    for name, won, secs in (("Ann", False, 40.0), ("Bob", True, 95.0), ("Cyd", True, 80.0)):
        acc = await store.create_account(name, f"SHA256:{name}", NOW)
        await store.start_daily(day, "spit", acc.id, NOW)
        await store.finish_daily(day, "spit", acc.id, won, secs)
        await store.finish_daily(day, "spit", acc.id, not won, 1.0)  # only the first ending counts
    board = await store.daily_board(day, "spit")
    assert [(e.name, e.won, e.seconds) for e in board] == [
        ("Cyd", True, 80.0),
        ("Bob", True, 95.0),
        ("Ann", False, 40.0),
    ]


async def test_a_streak_counts_days_in_a_row(store: SqlStore) -> None:
    ann = await store.create_account("Ann", "SHA256:a", NOW)
    for day in ("2026-11-27", "2026-11-29", "2026-11-30", "2026-12-01"):
        await store.start_daily(day, "spit", ann.id, NOW)
        await store.finish_daily(day, "spit", ann.id, True, 60.0)
    assert await store.streak("spit", ann.id, "2026-12-01") == 3
    assert await store.streak("spit", ann.id, "2026-12-02") == 3  # today's not played yet
    assert await store.streak("spit", ann.id, "2026-12-03") == 0
    assert await store.streak("speed", ann.id, "2026-12-01") == 0


async def test_bans_by_key_and_address(store: SqlStore) -> None:
    await store.ban("key", "SHA256:bad", "flooding", NOW)
    await store.ban("address", "127.0.0.9", "abuse", NOW)
    assert await store.banned("key", "SHA256:bad") == "flooding"
    assert await store.banned("address", "127.0.0.9") == "abuse"
    assert await store.banned("key", "SHA256:good") is None
    assert await store.unban("key", "SHA256:bad")
    assert not await store.unban("key", "SHA256:bad")
    assert await store.banned("key", "SHA256:bad") is None


async def test_a_waves_checkpoints_are_written_together_but_never_over_another_owner(
    store: SqlStore,
) -> None:
    assert await store.keep_checkpoint("m3", "south/2", '{"v": 1}', NOW)
    rows = [("m1", '{"v": 1}'), ("m2", '{"v": 1}'), ("m3", '{"v": 9}')]
    assert await store.put_checkpoints("north/1", rows, NOW) == ["m3"]
    assert await store.checkpoint_owners() == {"m1": "north/1", "m2": "north/1", "m3": "south/2"}
    # written again (brought up to date) by their owner; m3 still the other node's
    assert await store.put_checkpoints("north/1", [("m1", '{"v": 2}')], NOW) == []
    assert await store.take_checkpoint("m1", "north/1", "east/3") == '{"v": 2}'
    assert await store.take_checkpoint("m3", "south/2", "east/3") == '{"v": 1}'
    assert await store.put_checkpoints("north/1", [], NOW) == []


async def test_a_failed_transaction_is_undone_and_the_store_goes_on(store: SqlStore) -> None:
    await store.create_account("Ann", "SHA256:a", NOW)
    with pytest.raises(KeyTaken):  # the account row went in before the key broke the rule
        await store.create_account("Bob", "SHA256:a", NOW)
    assert await store.account_named("Bob") is None
    async with store.transaction(write=False):
        pass  # a transaction with no statement: nothing to begin or end
    assert (await store.account_for_key("SHA256:a")) is not None


async def test_a_transaction_cancelled_mid_statement_leaves_the_store_usable(
    tmp_path: Path,
) -> None:
    """The SQLite store begins a transaction in the job of its first statement: a
    caller cancelled while that job runs must not leave the transaction open."""
    store = SqliteStore(tmp_path / "s.db")
    await store.open()
    try:
        started = asyncio.Event()
        loop = asyncio.get_running_loop()

        async def slow() -> None:
            async with store.transaction() as tx:
                await tx.one(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n"
                    " WHERE i < 3000000) SELECT count(*) FROM n"
                )

        task = asyncio.create_task(slow())
        loop.call_later(0.05, started.set)
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        account = await asyncio.wait_for(store.create_account("Ann", "SHA256:a", NOW), 10)
        assert await store.account_for_key("SHA256:a") == account
    finally:
        await store.close()
