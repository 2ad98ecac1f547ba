"""The host key, join codes, and the guard that slows and limits wrong codes.

A join code is ``fffff-fffff-ssss-ssss``: ten characters of the host key's
SHA-256 fingerprint (50 bits) and an eight-character random secret (40 bits).
The guest checks the key the server shows against the first part, so a man in
the middle (who does not hold the host's private key) is refused before the
guest sends anything; the host checks the secret, the guest's password.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from spit.store.paths import data_dir, private_dir

log = logging.getLogger("spit.net")

HOST_KEY_NAME = "host_key"
#: Crockford's base-32 alphabet: no I, L, O, U to misread.
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
FP_CHARS = 10
SECRET_CHARS = 8


class CodeError(ValueError):
    """A join code that cannot be right (typo, wrong length)."""


def host_key_path() -> Path:
    """Where the host keeps its SSH host key (in the data directory)."""
    return data_dir() / HOST_KEY_NAME


def load_or_make_host_key(path: Path | None = None) -> asyncssh.SSHKey:
    """The host's private key, generated (Ed25519, mode 0600) on first use."""
    path = path or host_key_path()
    if path.exists():
        try:
            return asyncssh.read_private_key(str(path))
        except (asyncssh.KeyImportError, OSError) as exc:
            raise OSError(
                f"cannot read the host key {path}: {exc}; remove it to make a new one"
            ) from None
    private_dir(path.parent)
    key = asyncssh.generate_private_key("ssh-ed25519")
    data = key.export_private_key()
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    log.info("made a new host key %s", path)
    return key


def _b32(data: bytes, n: int) -> str:
    bits = int.from_bytes(data, "big")
    total = len(data) * 8
    return "".join(ALPHABET[(bits >> (total - 5 * (i + 1))) & 31] for i in range(n))


def key_fingerprint(key: asyncssh.SSHKey) -> str:
    """The short fingerprint of a (public) key that join codes carry."""
    return _b32(hashlib.sha256(key.public_data).digest(), FP_CHARS)


def make_code(key: asyncssh.SSHKey) -> str:
    """A fresh join code for the host holding ``key``."""
    secret = "".join(secrets.choice(ALPHABET) for _ in range(SECRET_CHARS))
    fp = key_fingerprint(key)
    return f"{fp[:5]}-{fp[5:]}-{secret[:4]}-{secret[4:]}"


def split_code(code: str) -> tuple[str, str]:
    """(fingerprint part, secret) of a typed code; CodeError if it cannot be one."""
    text = code.strip().lower().replace("-", "").replace(" ", "")
    text = text.replace("o", "0").replace("i", "1").replace("l", "1")
    if len(text) != FP_CHARS + SECRET_CHARS or any(c not in ALPHABET for c in text):
        raise CodeError(
            f"a join code has {FP_CHARS + SECRET_CHARS} letters and digits "
            "(like abcde-fghjk-mnpq-rstv); check the one the host gave you"
        )
    return text[:FP_CHARS], text[FP_CHARS:]


def same_secret(a: str, b: str) -> bool:
    """Compare two secrets in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


@dataclass(slots=True)
class AuthGuard:
    """Counts wrong codes per address: each is slowed, too many lock the address.

    The n-th wrong code from an address waits ``base_delay * 2**(n-1)``
    seconds (at most ``max_delay``) before it is answered; after
    ``max_failures`` within ``lockout`` seconds the address is *locked* until
    ``lockout`` seconds have passed: the host then answers every code from it
    after ``max_delay`` and lets only a right one in (a tunnel's guests all
    share one address: a stranger's wrong codes must not lock them out).
    """

    base_delay: float = 0.5
    max_delay: float = 8.0
    max_failures: int = 5
    lockout: float = 300.0
    _failures: dict[str, list[float]] = field(default_factory=dict)

    def locked(self, address: str, now: float | None = None) -> bool:
        """True if ``address`` has had too many wrong codes lately."""
        now = time.monotonic() if now is None else now
        recent = [t for t in self._failures.get(address, []) if now - t < self.lockout]
        self._failures[address] = recent
        return len(recent) >= self.max_failures

    def fail(self, address: str, now: float | None = None) -> float:
        """Count a wrong code; return how long to wait before answering."""
        now = time.monotonic() if now is None else now
        failures = self._failures.setdefault(address, [])
        failures.append(now)
        return float(min(self.max_delay, self.base_delay * 2 ** (len(failures) - 1)))

    def failures(self, address: str) -> int:
        """Wrong codes counted for ``address``."""
        return len(self._failures.get(address, []))
