"""What server nodes share live: who each node is, who is online there, its live matches.

``Bus`` is the interface; ``LocalBus`` is a single node's (in the process,
nothing to install) and ``RedisBus`` shares it between nodes on Redis or
Valkey (the ``redis`` client's asyncio API; both servers speak it), chosen
with ``spit server --bus redis://…``.

Each node publishes a snapshot of itself every second or so (``publish``):
its address, its host key's fingerprint, whether it is draining, the names
online there and its live matches. A snapshot lives a few seconds unless
renewed, so a node that dies drops out of every lobby by itself.
``everyone`` reads the snapshots of all live nodes.

Pairing across nodes goes through the bus too: every node puts its players'
quick-pair requests in one shared queue (``enqueue``); one node at a time
holds the lead (``lead``, a lease renewed each wave) and runs the waves over
the whole queue; a pair is taken out of the queue in one atomic step
(``claim``: both or neither), so no player is ever in two matches whichever
nodes decide. The node chosen to host the match is told through its inbox
(``post`` / ``take``), and so are the nodes whose players must hear of it.
``set_seat`` keeps, for each player in a match, where that match is, so a
player who signs in again anywhere is sent back to it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

#: Seconds a node's snapshot lives unless the node publishes again.
SNAPSHOT_TTL = 6.0


@dataclass(frozen=True, slots=True)
class NodeSnapshot:
    """One node as the others see it."""

    node: str  #: the node's id
    address: str  #: where players reach it (HOST:PORT)
    draining: bool = False
    #: the node's host-key fingerprint (as ``spit.net.codes.key_fingerprint``; clients check it)
    key: str = ""
    #: the node process (a restarted node is a new one): checkpoints name their owner so
    owner: str = ""
    online: tuple[str, ...] = ()
    #: live matches: {"id", "mode", "names"}
    matches: tuple[dict[str, Any], ...] = ()
    at: float = field(default_factory=time.time)

    def to_json(self) -> str:
        """The snapshot as one JSON text."""
        data = asdict(self)
        data["online"] = list(self.online)
        data["matches"] = list(self.matches)
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> NodeSnapshot | None:
        """A snapshot read back (None if it is not one: a bus is shared, so check it)."""
        try:
            data = json.loads(text)
            return cls(
                node=str(data["node"])[:64],
                address=str(data["address"])[:300],
                draining=bool(data["draining"]),
                key=str(data.get("key", ""))[:100],
                owner=str(data.get("owner", ""))[:100],
                online=tuple(str(n)[:40] for n in data["online"][:2000]),
                matches=tuple(
                    {
                        "id": str(m["id"])[:20],
                        "mode": str(m["mode"])[:10],
                        "names": [str(n)[:40] for n in m["names"][:2]],
                        "node": str(data["node"])[:64],
                    }
                    for m in data["matches"][:2000]
                ),
                at=float(data["at"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A quick-pair request in the shared queue."""

    player: str  #: the player's id ("a<account>" or a guest's)
    node: str  #: the node the player's lobby is on
    pool: str  #: the mode (and variants)
    rating: float
    rd: float
    since: float  #: wall-clock time (time.time()) the player joined the queue
    bot_after: float | None = None
    name: str = ""
    account: int | None = None
    #: round trips the player's client measured to nodes, ms (node id -> ms)
    delays: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> str:
        """The entry as one JSON text."""
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | bytes) -> QueueEntry | None:
        """An entry read back (None if it is not one)."""
        try:
            data = json.loads(text)
            bot_after = data["bot_after"]
            account = data["account"]
            return cls(
                player=str(data["player"])[:80],
                node=str(data["node"])[:64],
                pool=str(data["pool"])[:20],
                rating=float(data["rating"]),
                rd=float(data["rd"]),
                since=float(data["since"]),
                bot_after=None if bot_after is None else float(bot_after),
                name=str(data["name"])[:40],
                account=None if account is None else int(account),
                delays={str(k)[:64]: float(v) for k, v in list(dict(data["delays"]).items())[:50]},
            )
        except (ValueError, KeyError, TypeError):
            return None


class Bus(Protocol):
    """What a node shares with the other nodes."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def publish(self, snapshot: NodeSnapshot) -> None: ...
    async def withdraw(self, node: str) -> None: ...
    async def everyone(self) -> list[NodeSnapshot]: ...
    async def enqueue(self, entry: QueueEntry) -> None: ...
    async def dequeue(self, player: str) -> None: ...
    async def queued(self) -> list[QueueEntry]: ...
    async def claim(self, players: Sequence[str]) -> bool: ...
    async def lead(self, node: str, seconds: float) -> bool: ...
    async def post(self, node: str, message: dict[str, Any]) -> None: ...
    async def take(self, node: str) -> list[dict[str, Any]]: ...
    async def set_seat(self, player: str, notice: dict[str, Any] | None) -> None: ...
    async def seat_of(self, player: str) -> dict[str, Any] | None: ...
    async def put_room(self, code: str, room: dict[str, Any]) -> None: ...
    async def take_room(self, code: str) -> dict[str, Any] | None: ...
    async def drop_room(self, code: str) -> None: ...
    async def keep_tail(self, match: str, owner: str, seq: int, entry: dict[str, Any]) -> None: ...
    async def tail(self, match: str, owner: str) -> list[dict[str, Any]]: ...
    async def drop_tail(
        self, match: str, owner: str, seqs: Sequence[int] | None = None
    ) -> None: ...


class LocalBus:
    """A single node's bus: the snapshots live in this process."""

    def __init__(self) -> None:
        self._snapshots: dict[str, tuple[NodeSnapshot, float]] = {}
        self._queue: dict[str, QueueEntry] = {}
        self._leader: tuple[str, float] | None = None
        self._inboxes: dict[str, list[dict[str, Any]]] = {}
        self._seats: dict[str, dict[str, Any]] = {}
        self._rooms: dict[str, dict[str, Any]] = {}
        self._tails: dict[tuple[str, str], dict[int, str]] = {}

    async def open(self) -> None:
        """Nothing to connect to."""

    async def close(self) -> None:
        """Nothing to disconnect."""

    async def publish(self, snapshot: NodeSnapshot) -> None:
        """Keep ``snapshot`` for ``SNAPSHOT_TTL`` seconds."""
        self._snapshots[snapshot.node] = (snapshot, time.monotonic() + SNAPSHOT_TTL)

    async def withdraw(self, node: str) -> None:
        """The node is leaving: drop its snapshot now."""
        self._snapshots.pop(node, None)

    async def everyone(self) -> list[NodeSnapshot]:
        """Every live node's snapshot."""
        now = time.monotonic()
        for node in [n for n, (_, until) in self._snapshots.items() if until < now]:
            del self._snapshots[node]
        return [snapshot for snapshot, _ in self._snapshots.values()]

    async def enqueue(self, entry: QueueEntry) -> None:
        """Put (or replace) ``entry`` in the queue."""
        self._queue[entry.player] = entry

    async def dequeue(self, player: str) -> None:
        """Take ``player`` out of the queue (if there)."""
        self._queue.pop(player, None)

    async def queued(self) -> list[QueueEntry]:
        """Everyone in the queue."""
        return list(self._queue.values())

    async def claim(self, players: Sequence[str]) -> bool:
        """Take all of ``players`` out of the queue, or none of them if one is gone."""
        if not all(p in self._queue for p in players):
            return False
        for p in players:
            del self._queue[p]
        return True

    async def lead(self, node: str, seconds: float) -> bool:
        """Hold (or renew) the lead for ``seconds``; False if another node holds it."""
        now = time.monotonic()
        if self._leader is None or self._leader[0] == node or self._leader[1] < now:
            self._leader = (node, now + seconds)
            return True
        return False

    async def post(self, node: str, message: dict[str, Any]) -> None:
        """Leave ``message`` in ``node``'s inbox."""
        self._inboxes.setdefault(node, []).append(message)

    async def take(self, node: str) -> list[dict[str, Any]]:
        """Everything in ``node``'s inbox, oldest first (and empty it)."""
        return self._inboxes.pop(node, [])

    async def set_seat(self, player: str, notice: dict[str, Any] | None) -> None:
        """Keep (or with None forget) where ``player``'s match is."""
        if notice is None:
            self._seats.pop(player, None)
        else:
            self._seats[player] = notice

    async def seat_of(self, player: str) -> dict[str, Any] | None:
        """Where ``player``'s match is, if they are in one."""
        return self._seats.get(player)

    async def put_room(self, code: str, room: dict[str, Any]) -> None:
        """Open a private room under ``code`` (its owner and mode)."""
        self._rooms[code] = room

    async def take_room(self, code: str) -> dict[str, Any] | None:
        """The room ``code``, taken (a second taker gets None)."""
        return self._rooms.pop(code, None)

    async def drop_room(self, code: str) -> None:
        """Close the room ``code``."""
        self._rooms.pop(code, None)

    async def keep_tail(self, match: str, owner: str, seq: int, entry: dict[str, Any]) -> None:
        """Keep entry ``seq`` of the tail ``owner`` writes for ``match`` (what the game
        gained since its checkpoint: ``spit.net.resume``)."""
        self._tails.setdefault((match, owner), {})[seq] = json.dumps(entry)

    async def tail(self, match: str, owner: str) -> list[dict[str, Any]]:
        """Every entry of ``owner``'s tail of ``match`` (in no particular order)."""
        kept = self._tails.get((match, owner), {})
        return [e for e in map(_json_object, kept.values()) if e is not None]

    async def drop_tail(self, match: str, owner: str, seqs: Sequence[int] | None = None) -> None:
        """Forget entries ``seqs`` of the tail (a checkpoint holds them now), or all of it."""
        if seqs is None:
            self._tails.pop((match, owner), None)
            return
        kept = self._tails.get((match, owner), {})
        for seq in seqs:
            kept.pop(seq, None)


#: Take every given player out of the queue hash, or none (KEYS[1] the hash; ARGV the ids).
_CLAIM = """
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then return 0 end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1
"""

#: Take or renew the lead (KEYS[1] the lease; ARGV[1] the node, ARGV[2] milliseconds).
_LEAD = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', tonumber(ARGV[2]))
  return 1
end
return 0
"""

#: Seconds a player's seat notice lives on Redis at most (a match never runs longer).
SEAT_TTL = 6 * 3600


def _json_object(text: Any) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


class RedisBus:
    """Snapshots on Redis or Valkey, under ``prefix`` (several servers can share one Redis)."""

    def __init__(self, url: str, prefix: str = "spit:") -> None:
        self.url = url
        self.prefix = prefix
        self._redis: Any = None

    async def open(self) -> None:
        """Connect (and check the server answers)."""
        try:
            import redis.asyncio as redis
        except ImportError:
            raise OSError(
                "the Redis bus needs the redis client: pip install 'spit[cluster]'"
            ) from None
        self._redis = redis.from_url(self.url, socket_timeout=5, socket_connect_timeout=5)
        try:
            await self._redis.ping()
        except Exception as exc:
            raise OSError(f"cannot reach Redis at {self.url}: {exc}") from None

    async def close(self) -> None:
        """Disconnect."""
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None

    def _key(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    @property
    def _r(self) -> Any:
        """The connection (ConnectionError once closed: callers treat it as unreachable)."""
        if self._redis is None:
            raise ConnectionError("the bus is closed")
        return self._redis

    async def publish(self, snapshot: NodeSnapshot) -> None:
        """Keep ``snapshot`` for ``SNAPSHOT_TTL`` seconds, and list the node."""
        pipe = self._r.pipeline(transaction=True)
        pipe.set(self._key(snapshot.node), snapshot.to_json(), px=int(SNAPSHOT_TTL * 1000))
        pipe.sadd(f"{self.prefix}nodes", snapshot.node)
        await pipe.execute()

    async def withdraw(self, node: str) -> None:
        """The node is leaving: drop its snapshot now."""
        pipe = self._r.pipeline(transaction=True)
        pipe.delete(self._key(node))
        pipe.srem(f"{self.prefix}nodes", node)
        await pipe.execute()

    async def everyone(self) -> list[NodeSnapshot]:
        """Every live node's snapshot (the listed nodes whose snapshot has not expired)."""
        nodes = sorted(
            n.decode() if isinstance(n, bytes) else str(n)
            for n in await self._r.smembers(f"{self.prefix}nodes")
        )
        if not nodes:
            return []
        texts = await self._r.mget([self._key(n) for n in nodes])
        out: list[NodeSnapshot] = []
        gone: list[str] = []
        for node, text in zip(nodes, texts, strict=True):
            snapshot = NodeSnapshot.from_json(text) if text is not None else None
            if snapshot is None:
                gone.append(node)
            else:
                out.append(snapshot)
        if gone:
            await self._r.srem(f"{self.prefix}nodes", *gone)
        return out

    async def enqueue(self, entry: QueueEntry) -> None:
        """Put (or replace) ``entry`` in the queue."""
        await self._r.hset(f"{self.prefix}queue", entry.player, entry.to_json())

    async def dequeue(self, player: str) -> None:
        """Take ``player`` out of the queue (if there)."""
        await self._r.hdel(f"{self.prefix}queue", player)

    async def queued(self) -> list[QueueEntry]:
        """Everyone in the queue (entries that do not read back are dropped)."""
        raw = await self._r.hgetall(f"{self.prefix}queue")
        out: list[QueueEntry] = []
        for text in raw.values():
            entry = QueueEntry.from_json(text)
            if entry is not None:
                out.append(entry)
        return out

    async def claim(self, players: Sequence[str]) -> bool:
        """Take all of ``players`` out of the queue, or none (one atomic script)."""
        if not players:
            return True
        done = await self._r.eval(_CLAIM, 1, f"{self.prefix}queue", *players)
        return bool(int(done))

    async def lead(self, node: str, seconds: float) -> bool:
        """Hold (or renew) the lead for ``seconds``; False if another node holds it."""
        done = await self._r.eval(_LEAD, 1, f"{self.prefix}leader", node, int(seconds * 1000))
        return bool(int(done))

    async def post(self, node: str, message: dict[str, Any]) -> None:
        """Leave ``message`` in ``node``'s inbox."""
        key = f"{self.prefix}inbox:{node}"
        pipe = self._r.pipeline(transaction=True)
        pipe.rpush(key, json.dumps(message, separators=(",", ":")))
        pipe.expire(key, 3600)
        await pipe.execute()

    async def take(self, node: str) -> list[dict[str, Any]]:
        """Everything in ``node``'s inbox, oldest first (and empty it, atomically)."""
        key = f"{self.prefix}inbox:{node}"
        pipe = self._r.pipeline(transaction=True)
        pipe.lrange(key, 0, 999)
        pipe.ltrim(key, 1000, -1)
        texts, _ = await pipe.execute()
        return [m for m in map(_json_object, texts) if m is not None]

    async def set_seat(self, player: str, notice: dict[str, Any] | None) -> None:
        """Keep (or with None forget) where ``player``'s match is."""
        key = f"{self.prefix}seat:{player}"
        if notice is None:
            await self._r.delete(key)
        else:
            await self._r.set(key, json.dumps(notice, separators=(",", ":")), ex=SEAT_TTL)

    async def seat_of(self, player: str) -> dict[str, Any] | None:
        """Where ``player``'s match is, if they are in one."""
        text = await self._r.get(f"{self.prefix}seat:{player}")
        return None if text is None else _json_object(text)

    async def put_room(self, code: str, room: dict[str, Any]) -> None:
        """Open a private room under ``code`` (it lasts a day unless taken or closed)."""
        text = json.dumps(room, separators=(",", ":"))
        await self._r.set(f"{self.prefix}room:{code}", text, ex=24 * 3600)

    async def take_room(self, code: str) -> dict[str, Any] | None:
        """The room ``code``, taken in one atomic step (a second taker gets None)."""
        text = await self._r.getdel(f"{self.prefix}room:{code}")
        return None if text is None else _json_object(text)

    async def drop_room(self, code: str) -> None:
        """Close the room ``code``."""
        await self._r.delete(f"{self.prefix}room:{code}")

    def _tail_key(self, match: str, owner: str) -> str:
        return f"{self.prefix}tail:{match}:{owner}"

    async def keep_tail(self, match: str, owner: str, seq: int, entry: dict[str, Any]) -> None:
        """Keep entry ``seq`` of the tail ``owner`` writes for ``match`` (what the game
        gained since its checkpoint: ``spit.net.resume``); the tail lasts as a match can."""
        key = self._tail_key(match, owner)
        pipe = self._r.pipeline(transaction=False)
        pipe.hset(key, str(seq), json.dumps(entry, separators=(",", ":")))
        pipe.expire(key, SEAT_TTL)
        await pipe.execute()

    async def tail(self, match: str, owner: str) -> list[dict[str, Any]]:
        """Every entry of ``owner``'s tail of ``match`` (in no particular order)."""
        raw = await self._r.hgetall(self._tail_key(match, owner))
        return [e for e in map(_json_object, raw.values()) if e is not None]

    async def drop_tail(self, match: str, owner: str, seqs: Sequence[int] | None = None) -> None:
        """Forget entries ``seqs`` of the tail (a checkpoint holds them now), or all of it."""
        key = self._tail_key(match, owner)
        if seqs is None:
            await self._r.delete(key)
        elif seqs:
            await self._r.hdel(key, *map(str, seqs))


def open_bus(url: str | None, prefix: str = "spit:") -> Bus:
    """The bus a URL names: ``redis://…`` / ``rediss://…`` / ``valkey://…``, or None: local."""
    if url is None:
        return LocalBus()
    if url.startswith("valkey://"):
        url = "redis://" + url.removeprefix("valkey://")
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"not a Redis URL: {url[:60]!r} (redis://HOST:PORT/DB)")
    return RedisBus(url, prefix)
