"""Checking (and fixing) many files: cache lookups, a process pool, fixes written safely.

The engine (:mod:`xlalens.analyzers.api`) checks one source text; this module feeds it files. Files
whose diagnostics are cached are answered without touching the engine. The rest go to a
:class:`~concurrent.futures.ProcessPoolExecutor` in chunks (``jobs=1``, or a single file, runs in
this process). Whatever goes wrong with one file becomes one diagnostic for that file and the run
goes on: a file that cannot be decoded gets ``E902``, an exception inside the engine gets ``E900``
("internal error ... please report").
"""

from __future__ import annotations

import difflib
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from types import ModuleType

from xlalens.analyzers.core import stages
from xlalens.analyzers.core.codes import INTERNAL_ERROR, IO_ERROR
from xlalens.analyzers.core.diagnostics import Diagnostic, Position, Range, Severity
from xlalens.analyzers.core.fixes import applicable
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.engine import pipeline, registry
from xlalens.analyzers.inputs.fileio import (
    SourceFile,
    SourceReadError,
    SourceWriteError,
    decode_source,
    match_newlines,
    read_source,
    sha256_hex,
    write_source,
)
from xlalens.analyzers.project.cache import Cache

PROGRESS_THRESHOLD = 50
"""Runs with fewer files to check than this show no progress bar."""
_MAX_DETAIL = 300
"""An exception's text is cut here in an E900 message (a RecursionError's can be long)."""
_GRACE_S = 30.0
"""A worker gets this much longer than the engine's own time limit before it is killed: the engine
stops a check stuck in Python code by itself, with a better message."""


class Mode(Enum):
    """What to do with each file."""

    CHECK = "check"
    FIX = "fix"  # apply fixes and write the file
    DIFF = "diff"  # compute the fixed text and a diff, write nothing


@dataclass(frozen=True)
class FileResult:
    """The outcome for one file.

    Attributes:
        path: The file, as given to :func:`check_paths`.
        diagnostics: What remains after fixing (everything, when not fixing).
        fixed: Diagnostics whose fixes were applied (or would be, with ``--diff``).
        diff: A unified diff of the fixes (``--diff`` only; ``None`` when nothing changes).
        source: The fixed text, for stdin in fix mode.
        digest: SHA-256 of the file's current bytes when ``diagnostics`` may be cached for them.
        cached: Whether the diagnostics came from the cache.
    """

    path: str
    diagnostics: tuple[Diagnostic, ...]
    fixed: tuple[Diagnostic, ...] = ()
    diff: str | None = None
    source: str | None = None
    digest: str | None = None
    cached: bool = False


@dataclass
class RunResult:
    """The outcome of a run, one :class:`FileResult` per file in the order given."""

    files: list[FileResult] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """All remaining diagnostics, sorted."""
        return sorted((d for f in self.files for d in f.diagnostics), key=Diagnostic.sort_key)

    @property
    def fixed(self) -> int:
        """How many diagnostics were fixed (or would be, with ``--diff``)."""
        return sum(len(f.fixed) for f in self.files)

    @property
    def diffs(self) -> list[str]:
        """The non-empty diffs, in file order."""
        return [f.diff for f in self.files if f.diff]

    @property
    def cache_hits(self) -> int:
        """How many files were answered from the cache."""
        return sum(1 for f in self.files if f.cached)


@dataclass(frozen=True)
class _Job:
    path: str
    display: str
    settings: Settings
    mode: Mode
    unsafe: bool


def _engine() -> ModuleType:
    # Looked up through sys.modules each time, so tests can stand in a fake engine.
    return importlib.import_module("xlalens.analyzers.api")


def _file_diagnostic(code: str, path: str, message: str, line: int = 1) -> Diagnostic:
    start = Position(line, 0)
    return Diagnostic(code, message, path, Range(start, start), severity=Severity.ERROR)


def _internal_error(path: str, error: BaseException, stage: str | None = None) -> FileResult:
    # The traceback's last frame says where it broke; the user pastes this into a bug report.
    where = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    location = f" at {Path(where[0].filename).name}:{where[0].lineno}" if where else ""
    detail = str(error)
    if len(detail) > _MAX_DETAIL:
        detail = detail[:_MAX_DETAIL] + "..."
    return _failed(path, stage or stages.current(), f"{type(error).__name__}: {detail}{location}")


def _failed(path: str, stage: str, what: str) -> FileResult:
    message = (
        f"internal error while checking this file ({stage}): {what}; "
        "please report this xlalens bug together with the file"
    )
    return FileResult(path, (_file_diagnostic(INTERNAL_ERROR, path, message),))


def unified_diff(before: str, after: str, display: str) -> str:
    """A unified diff from ``before`` to ``after`` with ``display`` as both file names."""
    lines = difflib.unified_diff(
        before.splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile=display,
        tofile=display,
    )
    # A last line without a newline would run into the next file's header.
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def process_source(
    source: SourceFile, settings: Settings, mode: Mode, unsafe: bool, display: str, *, write: bool
) -> FileResult:
    """Check or fix one decoded source; writes fixes back when ``mode`` is FIX and ``write`` is set.

    Exceptions from the engine propagate; :func:`_run_job` turns them into internal errors.
    """
    api = _engine()
    path = source.path
    if mode is Mode.CHECK:
        diagnostics = api.check_source(source.text, path, settings)
        return FileResult(path, tuple(diagnostics), digest=source.digest)
    result = api.fix_source(source.text, path, settings, unsafe=unsafe)
    text = match_newlines(source.text, result.source)
    if text == source.text:
        return FileResult(path, tuple(result.remaining), digest=source.digest)
    fixed = tuple(result.fixed)
    if mode is Mode.DIFF:
        return FileResult(path, tuple(result.remaining), fixed, diff=unified_diff(source.text, text, display))
    if not write:
        return FileResult(path, tuple(result.remaining), fixed, source=text)
    stages.enter(stages.WRITING)
    try:
        data = write_source(source, text)
    except SourceWriteError as error:
        return FileResult(path, (_file_diagnostic(IO_ERROR, path, str(error)),))
    return FileResult(path, tuple(result.remaining), fixed, digest=sha256_hex(data))


def _run_job(job: _Job) -> FileResult:
    stages.enter(stages.READING)
    try:
        source = read_source(job.path)
    except SourceReadError as error:
        return FileResult(job.path, (_file_diagnostic(IO_ERROR, job.path, str(error), error.line),))
    try:
        return process_source(source, job.settings, job.mode, job.unsafe, job.display, write=True)
    except Exception as error:
        return _internal_error(job.path, error)


def check_stdin(
    data: bytes,
    path: str,
    settings: Settings,
    *,
    fix: bool = False,
    unsafe: bool = False,
    diff: bool = False,
) -> FileResult:
    """Check source bytes read from stdin as if they were the file ``path``; never writes.

    In fix mode the result's ``source`` holds the fixed text (the whole input when nothing changed).
    """
    mode = Mode.DIFF if diff else Mode.FIX if fix else Mode.CHECK
    try:
        source = decode_source(data, path)
    except SourceReadError as error:
        return FileResult(path, (_file_diagnostic(IO_ERROR, path, str(error), error.line),))
    try:
        result = process_source(source, settings, mode, unsafe, path, write=False)
    except Exception as error:
        return _internal_error(path, error)
    if mode is Mode.FIX and result.source is None:
        result = FileResult(result.path, result.diagnostics, result.fixed, source=source.text)
    return result


def default_jobs() -> int:
    """The number of CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


@contextmanager
def _progress_bar(total: int, enabled: bool | None) -> Iterator[Callable[[int], None]]:
    show = enabled if enabled is not None else total >= PROGRESS_THRESHOLD and sys.stderr.isatty()
    if not show:
        yield lambda _: None
        return
    from rich.console import Console  # imported only when a bar is shown: rich is slow to import
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("Checking", total=total)
        yield lambda done: bar.advance(task, done)


def _dispatch(jobs: Sequence[_Job], workers: int, progress: bool | None) -> Iterator[FileResult]:
    if workers <= 1 or len(jobs) <= 1:
        with _progress_bar(len(jobs), progress) as advance:
            for job in jobs:
                yield _run_job(job)
                advance(1)
        return
    from xlalens.analyzers.project.workers import Supervisor  # multiprocessing is slow to import

    _engine()  # import once here, so forked workers start with the engine loaded
    registry.all_rules()  # and with the rules, which the engine would import on each worker's first check
    supervisor = Supervisor(_run_job, _job_failed, min(workers, len(jobs)), _time_limit() + _GRACE_S)
    # The bar starts only now: its refresh thread must not exist when the workers are forked.
    with _progress_bar(len(jobs), progress) as advance:
        for result in supervisor.run(jobs):
            yield result
            advance(1)


def _time_limit() -> float:
    return pipeline.TIME_LIMIT_S


def _job_failed(job: _Job, stage: str, what: str) -> FileResult:
    return _failed(job.path, stage, what)


def check_paths(
    paths: Sequence[str | os.PathLike[str]],
    settings: Settings | Callable[[str], Settings],
    *,
    jobs: int | None = None,
    cache: Cache | None = None,
    fix: bool = False,
    unsafe: bool = False,
    diff: bool = False,
    progress: bool | None = None,
    display: Callable[[str], str] = str,
) -> RunResult:
    """Check the files at ``paths`` (already discovered), fixing them with ``fix``.

    Args:
        paths: The files, in the order results should come back.
        settings: The settings for every file, or a function giving each file's settings.
        jobs: Worker processes; ``None`` uses every CPU, ``1`` runs in this process.
        cache: Where to look diagnostics up and store them; ``None`` disables caching.
        fix: Apply applicable fixes and write the files.
        unsafe: Apply unsafe fixes too.
        diff: Compute the fixes' diffs instead of writing (wins over ``fix``).
        progress: Show a progress bar on stderr; ``None`` shows one for long runs on a terminal.
        display: Turns a path into the name diffs show.
    """
    settings_for = settings if callable(settings) else (lambda _: settings)
    mode = Mode.DIFF if diff else Mode.FIX if fix else Mode.CHECK
    results: dict[str, FileResult] = {}
    pending: list[_Job] = []
    names = [os.fspath(p) for p in paths]
    for name in names:
        file_settings = settings_for(name)
        cached = cache.lookup(name, file_settings) if cache is not None else None
        # A cached file needs the engine again only if a fix would change it.
        if cached is not None and not (mode is not Mode.CHECK and any(applicable(d.fix, unsafe) for d in cached)):
            results[name] = FileResult(name, tuple(cached), cached=True)
            continue
        pending.append(_Job(name, display(name), file_settings, mode, unsafe))
    for result in _dispatch(pending, default_jobs() if jobs is None else jobs, progress):
        results[result.path] = result
        if cache is not None and result.digest is not None and mode is not Mode.DIFF:
            cache.store(result.path, settings_for(result.path), result.digest, result.diagnostics)
    if cache is not None:
        cache.save()
    return RunResult([results[name] for name in names])
