"""Where spit keeps its files, and how it writes them without ever losing one.

The config file lives in the user's config directory and the data (results
database, replays, the unfinished games) in the user's data directory, as
``platformdirs`` gives them for this system. Two environment variables
override them: ``SPIT_CONFIG`` (the path of the config file itself) and
``SPIT_DATA_DIR`` (the data directory).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

import platformdirs

APP_NAME = "spit"
CONFIG_ENV = "SPIT_CONFIG"
DATA_ENV = "SPIT_DATA_DIR"
CONFIG_NAME = "config.toml"
DATABASE_NAME = "results.sqlite3"
REPLAY_DIR_NAME = "replays"
MATCH_NAME = "match-in-progress.json"
SAVED_DIR_NAME = "saved"
#: games, seeds and results are the player's own: files 0600 in folders 0700
PRIVATE_FILE = 0o600
PRIVATE_DIR = 0o700


def config_path() -> Path:
    """The config file: ``$SPIT_CONFIG`` or ``<user config dir>/spit/config.toml``."""
    override = os.environ.get(CONFIG_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / CONFIG_NAME


def data_dir() -> Path:
    """The data directory: ``$SPIT_DATA_DIR`` or the user data dir for spit."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def database_path() -> Path:
    """The SQLite results database."""
    return data_dir() / DATABASE_NAME


def replay_dir() -> Path:
    """The folder of saved replays."""
    return data_dir() / REPLAY_DIR_NAME


def match_path() -> Path:
    """The one saved match of older versions of spit (still listed and resumable)."""
    return data_dir() / MATCH_NAME


def saved_dir() -> Path:
    """The folder of unfinished games, one JSON file each."""
    return data_dir() / SAVED_DIR_NAME


def _kind(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISREG(mode):
        return "a file"
    return "a special file"


def not_a_regular_file(path: Path) -> str | None:
    """Why ``path`` cannot be read or replaced as a file ("it is a named pipe..."), or None.

    A missing file gives None. Opening a FIFO would wait forever for a writer,
    so spit looks before it opens.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    return f"it is {_kind(mode)}, not a regular file"


def data_dir_problem() -> str | None:
    """Why the data directory cannot hold spit's files (it is a file...), or None."""
    folder = data_dir()
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"the data folder {folder} cannot be used ({exc.strerror or exc})"
    if stat.S_ISDIR(mode):
        return None
    where = f" (set by {DATA_ENV})" if os.environ.get(DATA_ENV) else ""
    return f"the data folder {folder}{where} is {_kind(mode)}, not a folder"


def private_dir(folder: Path) -> None:
    """Make ``folder`` (and its parents) if needed, and make it and every folder
    between it and the data directory readable by this user only (0700).

    A save holds the seed, from which anyone could rebuild the opponent's
    hidden cards; on a shared machine (an SSH tunnel's host) other users must
    not read it. Raises OSError if the folder cannot be made.
    """
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    except FileExistsError:  # a file stands where the folder should be
        raise OSError(f"{folder} is a file, not a folder") from None
    top = data_dir()
    chain = [folder, *folder.parents]
    mine = chain[: chain.index(top) + 1] if top in chain else [folder]
    for step in mine:
        _tighten(step, PRIVATE_DIR)


def private_file(path: Path) -> None:
    """Create ``path`` empty if it is missing, readable by this user only (0600);
    tighten it if it exists with wider permissions. Its folder is made private."""
    path = Path(path)
    problem = not_a_regular_file(path)
    if problem is not None:  # opening a FIFO to write would wait for ever
        raise OSError(f"{path}: {problem}")
    private_dir(path.parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, PRIVATE_FILE))
    _tighten(path, PRIVATE_FILE)


def _tighten(path: Path, mode: int) -> None:
    """Drop the group's and others' permissions of a path this user owns (best effort:
    not on Windows, never someone else's folder, a shared one such as ``/tmp``
    (sticky) or the home folder, should ``SPIT_DATA_DIR`` name one)."""
    with contextlib.suppress(OSError, AttributeError, RuntimeError):
        info = os.stat(path)
        if info.st_uid != os.getuid() or not stat.S_IMODE(info.st_mode) & 0o077:
            return
        if info.st_mode & stat.S_ISVTX or Path(path).resolve() == Path.home().resolve():
            return
        os.chmod(path, mode)


def atomic_write(path: Path, data: bytes | str, private: bool = True) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves either the old or the new file.

    Writes a temporary file in the same directory, flushes it to disk, then
    renames it over ``path`` (``os.replace`` is atomic on one file system).
    Creates the parent directory if needed. Raises OSError on failure, after
    removing the temporary file; the previous file is then untouched.
    ``private`` (games, replays, results): the file is 0600 in a 0700 folder;
    otherwise (the settings) a new file is 0644 and an old one keeps its mode.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    path = Path(path)
    problem = not_a_regular_file(path)
    if problem is not None:  # never replace a pipe or a device with a file
        raise OSError(f"{path}: {problem}")
    if private:
        private_dir(path.parent)
        mode = PRIVATE_FILE
    else:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file stands where the folder should be
            raise OSError(f"{path.parent} is a file, not a folder") from None
        try:
            mode = path.stat().st_mode & 0o777  # keep the old file's permissions
        except OSError:
            mode = 0o644
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with contextlib.suppress(OSError, AttributeError):  # no fchmod on Windows
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make the rename itself durable where the system allows it (not on Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def read_capped(path: Path, limit: int) -> bytes:
    """Read at most ``limit`` bytes of ``path``; raise ValueError if it is larger
    or is not a regular file (a FIFO would block the read for ever)."""
    problem = not_a_regular_file(path)
    if problem is not None:
        raise ValueError(problem)
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"file is larger than {limit // 1_000_000} MB")
    return data
