"""Worker processes that check one file at a time, watched so that no file can take the run down.

Each worker takes a file, checks it and sends its result back. The supervisor knows which file
every worker holds, so when a worker dies (a crash in native code, a kill for memory) or stops
answering, exactly that file gets an ``E900`` naming the stage it was in (each worker copies its
stage into memory the supervisor reads), the worker is replaced, and the files that were still
waiting go on to the other workers as before.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from xlalens.analyzers.core import stages

_Job = TypeVar("_Job")
_Result = TypeVar("_Result")

_STAGE_BYTES = 120


def _serve(conn: Connection, stage: Any, work: Callable[[Any], Any]) -> None:
    """A worker's loop: check each job it is sent until it is sent ``None``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the supervisor's to handle

    def record(name: str) -> None:
        stage.value = name.encode("utf-8", "replace")[: _STAGE_BYTES - 1]

    stages.listen(record)
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return
        stages.enter(stages.READING)
        conn.send(work(job))


class _Worker:
    def __init__(self, context: Any, work: Callable[[Any], Any]) -> None:
        self.stage = context.RawArray("c", _STAGE_BYTES)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, self.stage, work), daemon=True)
        self.process.start()
        child.close()
        self.job: Any = None
        self.since = 0.0

    def give(self, job: Any) -> None:
        self.job = job
        self.since = time.monotonic()
        self.conn.send(job)

    def last_stage(self) -> str:
        return bytes(self.stage.value).decode("utf-8", "replace") or stages.READING

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                self.process.kill()
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _exit_description(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            return f"the worker process checking it died from {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"the worker process checking it died from signal {-exitcode}"
    return f"the worker process checking it exited with status {exitcode}"


class Supervisor(Generic[_Job, _Result]):
    """Runs ``work`` on each job in up to ``workers`` processes, one job per process at a time.

    Args:
        work: Checks one job; it runs in the workers, so it must be importable by name.
        failed: Builds the result for a job whose worker died or ran past ``time_limit``, from the
            job, the stage it was in and what happened.
        workers: How many processes run at once.
        time_limit: Seconds a job may take before its worker is killed.
    """

    def __init__(
        self,
        work: Callable[[_Job], _Result],
        failed: Callable[[_Job, str, str], _Result],
        workers: int,
        time_limit: float,
    ) -> None:
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context("fork" if "fork" in methods else None)
        self._work = work
        self._failed = failed
        self._workers = workers
        self._time_limit = time_limit

    def run(self, jobs: Sequence[_Job]) -> Iterator[_Result]:
        """Each job's result, in the order they finish."""
        waiting = deque(jobs)
        idle: list[_Worker] = []
        busy: list[_Worker] = []
        try:
            while waiting or busy:
                while waiting and len(busy) < self._workers:
                    worker = idle.pop() if idle else _Worker(self._context, self._work)
                    worker.give(waiting.popleft())
                    busy.append(worker)
                yield from self._collect(busy, idle)
        finally:
            for worker in (*busy, *idle):
                worker.stop(kill=worker in busy)

    def _collect(self, busy: list[_Worker], idle: list[_Worker]) -> Iterator[_Result]:
        now = time.monotonic()
        deadline = min(worker.since for worker in busy) + self._time_limit
        ready = set(wait([*(w.conn for w in busy), *(w.process.sentinel for w in busy)], max(deadline - now, 0.0)))
        now = time.monotonic()
        for worker in list(busy):
            result = None
            if worker.conn in ready:
                try:
                    result = worker.conn.recv()
                except (EOFError, OSError):
                    result = None
            if result is not None:
                busy.remove(worker)
                idle.append(worker)
                yield result
                continue
            died = worker.process.sentinel in ready or worker.conn in ready
            late = now - worker.since >= self._time_limit
            if not died and not late:
                continue
            busy.remove(worker)
            stage = worker.last_stage()
            worker.stop(kill=True)
            if died:
                worker.process.join()
                what = _exit_description(worker.process.exitcode)
            else:
                what = f"it ran longer than {self._time_limit:g} s and its worker process was stopped"
            yield self._failed(worker.job, stage, what)
