"""One background thread that does the slow writes (files, fsync, SQLite), in order.

The game runs on the UI's event loop; a save may fsync a file or wait up to
a second for another program's lock on the results database. ``Writer``
takes such jobs off the loop: ``submit`` queues a job and returns at once,
one thread runs the jobs in the order they came, and ``flush`` waits for
them (at exit, in tests). A job that raises is logged, never re-raised:
jobs report their own problems (``spit.store.archive``).

``settle``: a job starts no sooner than this long after it was submitted.
The app's writer waits a little (``UI_SETTLE``), so that a save made due by
a key press starts after that key's frame is on the screen: the save's own
Python work (turning the game into JSON) would otherwise take the
interpreter's lock from the event loop while the frame is being made.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

log = logging.getLogger("spit.store")

#: a job; what it returns is not used
Job = Callable[[], object]

#: the app's writer: how long a job waits after its submit before it starts (a key's
#: frame is on the screen within some 5-15 ms of the key)
UI_SETTLE = 0.025


class Writer:
    """Runs submitted jobs one by one on its own thread (started on the first job)."""

    def __init__(self, name: str = "spit-writer", settle: float = 0.0) -> None:
        self.name = name
        self.settle = settle
        #: each job with the time it was submitted (None: stop)
        self._jobs: queue.Queue[tuple[Job, float] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, job: Job) -> None:
        """Queue ``job``; it runs after every job submitted before it. Never blocks."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the writer is closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        self._jobs.put((job, time.monotonic()))

    @property
    def idle(self) -> bool:
        """True when no job is queued or running."""
        return self._jobs.unfinished_tasks == 0

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every job submitted so far has run; False if ``timeout`` passed first."""
        done = threading.Event()
        with self._lock:
            if self._thread is None:
                return True
        self._jobs.put((done.set, 0.0))  # (a flush need not settle)
        return done.wait(timeout)

    def close(self, timeout: float | None = None) -> bool:
        """Run what is queued, then stop the thread; False if ``timeout`` passed first."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is None:
            return True
        self._jobs.put(None)
        thread.join(timeout)
        return not thread.is_alive()

    def _run(self) -> None:
        while True:
            item = self._jobs.get()
            try:
                if item is None:
                    return
                job, submitted = item
                wait = submitted + self.settle - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                job()
            except Exception:
                log.exception("a background write failed")
            finally:
                self._jobs.task_done()
