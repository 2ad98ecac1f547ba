"""What server nodes share live: who each node is, who is online there, its live matches.

``Bus`` is the interface; ``LocalBus`` is a single node's (in the process,
nothing to install) and ``RedisBus`` shares it between nodes on Redis or
Valkey (the ``redis`` client's asyncio API; both servers speak it), chosen
with ``spit server --bus redis://…``.

Each node publishes a snapshot of itself every second or so (``publish``):
its address, whether it is draining, the names online there and its live
matches. A snapshot lives a few seconds unless renewed, so a node that dies
drops out of every lobby by itself. ``everyone`` reads the snapshots of all
live nodes.
"""

from __future__ import annotations

import json
import time
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


class Bus(Protocol):
    """What a node shares with the other nodes."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def publish(self, snapshot: NodeSnapshot) -> None: ...
    async def withdraw(self, node: str) -> None: ...
    async def everyone(self) -> list[NodeSnapshot]: ...


class LocalBus:
    """A single node's bus: the snapshots live in this process."""

    def __init__(self) -> None:
        self._snapshots: dict[str, tuple[NodeSnapshot, float]] = {}

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

    async def publish(self, snapshot: NodeSnapshot) -> None:
        """Keep ``snapshot`` for ``SNAPSHOT_TTL`` seconds, and list the node."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.set(self._key(snapshot.node), snapshot.to_json(), px=int(SNAPSHOT_TTL * 1000))
        pipe.sadd(f"{self.prefix}nodes", snapshot.node)
        await pipe.execute()

    async def withdraw(self, node: str) -> None:
        """The node is leaving: drop its snapshot now."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(self._key(node))
        pipe.srem(f"{self.prefix}nodes", node)
        await pipe.execute()

    async def everyone(self) -> list[NodeSnapshot]:
        """Every live node's snapshot (the listed nodes whose snapshot has not expired)."""
        nodes = sorted(
            n.decode() if isinstance(n, bytes) else str(n)
            for n in await self._redis.smembers(f"{self.prefix}nodes")
        )
        if not nodes:
            return []
        texts = await self._redis.mget([self._key(n) for n in nodes])
        out: list[NodeSnapshot] = []
        gone: list[str] = []
        for node, text in zip(nodes, texts, strict=True):
            snapshot = NodeSnapshot.from_json(text) if text is not None else None
            if snapshot is None:
                gone.append(node)
            else:
                out.append(snapshot)
        if gone:
            await self._redis.srem(f"{self.prefix}nodes", *gone)
        return out


def open_bus(url: str | None, prefix: str = "spit:") -> Bus:
    """The bus a URL names: ``redis://…`` / ``rediss://…`` / ``valkey://…``, or None: local."""
    if url is None:
        return LocalBus()
    if url.startswith("valkey://"):
        url = "redis://" + url.removeprefix("valkey://")
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"not a Redis URL: {url[:60]!r} (redis://HOST:PORT/DB)")
    return RedisBus(url, prefix)
