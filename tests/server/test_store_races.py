"""Two server nodes on one PostgreSQL race on the writes that must happen once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from tests.support.services import drop_schema, fresh_schema, postgres_url

from spit.server.postgres_store import PostgresStore
from spit.server.schema import LATEST
from spit.server.store import MatchRecord, MovedElsewhere, NameTaken, Side

NOW = "2026-12-01T12:00:00+00:00"


Nodes = tuple[PostgresStore, PostgresStore]


@pytest.fixture
async def nodes() -> AsyncIterator[Nodes]:
    """Two stores (two nodes' connection pools) on the same schema, both migrating at once."""
    schema = fresh_schema()
    a = PostgresStore(postgres_url(), schema=schema, max_size=4)
    b = PostgresStore(postgres_url(), schema=schema, max_size=4)
    await asyncio.gather(a.open(), b.open())
    yield a, b
    await a.close()
    await b.close()
    await drop_schema(a)


async def test_two_nodes_migrating_at_once_leave_one_schema(nodes: Nodes) -> None:
    a, b = nodes
    assert await a.schema_version() == await b.schema_version() == LATEST


async def test_a_name_claimed_on_two_nodes_at_once_goes_to_one(nodes: Nodes) -> None:
    a, b = nodes
    results = await asyncio.gather(
        *(store.create_account("Ann", f"SHA256:{i}", NOW) for i in range(10) for store in (a, b)),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    assert len(made) == 1
    assert all(isinstance(r, NameTaken) for r in results if isinstance(r, BaseException))


async def test_ratings_moved_on_two_nodes_at_once_count_every_game(nodes: Nodes) -> None:
    a, b = nodes
    ann = await a.create_account("Ann", "SHA256:a", NOW)
    bob = await a.create_account("Bob", "SHA256:b", NOW)

    def match(winner: int) -> MatchRecord:
        return MatchRecord(
            "spit", (Side(ann.id, "Ann"), Side(bob.id, "Bob")), winner, True, NOW, NOW, "{}"
        )

    await asyncio.gather(*(store.record_match(match(1)) for _ in range(8) for store in (a, b)))
    ra, rb = await a.rating(ann.id, "spit"), await b.rating(bob.id, "spit")
    assert ra.games == rb.games == 16  # no update was lost to a race
    # and the numbers are those of 16 games played one after another
    from spit.store.glicko import Rating, Result, rate

    x, y = Rating(), Rating()
    for _ in range(16):
        x, y = (rate(x, [Result(y.rating, y.rd, 1.0)]), rate(y, [Result(x.rating, x.rd, 0.0)]))
    assert ra.rating.rating == pytest.approx(x.rating)
    assert rb.rating.rd == pytest.approx(y.rd)


async def test_one_daily_attempt_even_from_two_nodes(nodes: Nodes) -> None:
    a, b = nodes
    ann = await a.create_account("Ann", "SHA256:a", NOW)
    started = await asyncio.gather(
        *(
            store.start_daily("2026-12-01", "spit", ann.id, NOW)
            for _ in range(6)
            for store in (a, b)
        )
    )
    assert started.count(True) == 1


async def test_a_dead_nodes_match_taken_by_two_nodes_at_once_goes_to_one(nodes: Nodes) -> None:
    a, b = nodes
    assert await a.keep_checkpoint("m1", "dead/1", '{"v": 1}', NOW)
    taken = await asyncio.gather(
        a.take_checkpoint("m1", "dead/1", "north/2"), b.take_checkpoint("m1", "dead/1", "south/3")
    )
    assert sorted(t is None for t in taken) == [False, True]
    winner = "north/2" if taken[0] is not None else "south/3"
    assert (await a.checkpoint_owners()) == {"m1": winner}
    # the old owner, cut off but still running, can no longer write over it or end it
    assert not await b.keep_checkpoint("m1", "dead/1", '{"v": 2}', NOW)
    record = MatchRecord("spit", (Side(None, "A"), Side(None, "B")), 1, False, NOW, NOW, "{}")
    with pytest.raises(MovedElsewhere):
        await a.record_match(record, checkpoint=("m1", "dead/1"))
    # the new owner ends it: the result is kept and the checkpoint gone, in one step
    await b.record_match(record, checkpoint=("m1", winner))
    assert await a.checkpoint_owners() == {}


async def test_a_round_of_checkpoints_never_brings_back_a_match_that_ended(nodes: Nodes) -> None:
    """A node's round captured a match's checkpoint just before the match ended; its
    result (which drops the checkpoint) is kept first: the round's late write must not
    leave a checkpoint behind (another node would resume a finished match), nor count
    the match as taken over; a match another node owns is refused."""
    a, b = nodes
    assert await a.keep_checkpoint("m1", "north/1", '{"v": 1}', NOW)
    assert await a.keep_checkpoint("m2", "north/1", '{"v": 1}', NOW)
    assert await b.keep_checkpoint("m3", "south/2", '{"v": 1}', NOW)
    record = MatchRecord("spit", (Side(None, "A"), Side(None, "B")), 1, False, NOW, NOW, "{}")
    await a.record_match(record, checkpoint=("m1", "north/1"))
    rows = [("m1", '{"v": 2}'), ("m2", '{"v": 2}'), ("m3", '{"v": 2}')]
    assert await a.keep_checkpoints("north/1", rows, NOW) == ["m3"]
    assert await a.checkpoint_owners() == {"m2": "north/1", "m3": "south/2"}
    assert await a.take_checkpoint("m2", "north/1", "east/3") == '{"v": 2}'
    assert await b.take_checkpoint("m3", "south/2", "east/3") == '{"v": 1}'
