"""Checking open documents: debounced per document, off the event loop, never publishing stale results.

Every check runs on one worker thread, so the event loop keeps answering hovers and code actions
while a large file is analyzed, and checks never compete with each other for the interpreter. A
check is for one ``(version, settings generation)`` of a document; its result is kept only if the
document still has that version and the settings have not changed since, so an old version's
diagnostics are never published over a newer one's. A check queued behind a newer edit is
skipped before it starts.

While a document does not parse (mid-edit), the result shows the syntax error plus the last
good diagnostics on the lines before both the first edited line and the error, whose text and
positions are unchanged; everything after is dropped rather than shown at stale positions.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import unquote

from lsprotocol import types
from pygls import uris
from xlalens.analyzers.annotate import Annotation, annotate_source
from xlalens.analyzers.api import check_source
from xlalens.analyzers.core.codes import SYNTAX_ERROR
from xlalens.analyzers.core.diagnostics import Diagnostic
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.server.diagnostics import ConversionContext, to_lsp_diagnostics
from xlalens.server.settings import ClientSettings

if TYPE_CHECKING:
    from pygls.workspace import Workspace
    from xlalens.server.settings import SettingsStore

logger = logging.getLogger(__name__)

T = TypeVar("T")

_RETRIES = 3  # an on-demand check follows a document being edited this many times before giving up


@dataclass(frozen=True)
class DocumentSnapshot:
    """One version of an open document, as the check sees it."""

    uri: str
    version: int | None
    text: str
    path: str | None


@dataclass(frozen=True)
class LintResult:
    """The diagnostics of one version of one document.

    Attributes:
        uri: The document.
        version: The version checked.
        generation: The settings generation checked with.
        source: The text checked.
        settings: The engine settings used.
        diagnostics: The engine's diagnostics (with the last good ones kept while a syntax error lasts).
        lsp_diagnostics: The same, converted for the client.
        result_id: Identifies this result for pull diagnostics.
        failed: Whether the analyzer raised (a bug): the result then has no diagnostics.
    """

    uri: str
    version: int | None
    generation: int
    source: SourceText
    settings: Settings
    diagnostics: tuple[Diagnostic, ...]
    lsp_diagnostics: tuple[types.Diagnostic, ...]
    result_id: str
    failed: bool = False

    @property
    def parses(self) -> bool:
        """Whether the checked text parsed (and was checked)."""
        return not self.failed and not any(d.code == SYNTAX_ERROR for d in self.diagnostics)


def _last_line(diagnostic: Diagnostic) -> int:
    lines = [diagnostic.range.end.line, diagnostic.noqa_line]
    lines += [r.range.end.line for r in diagnostic.related]
    if diagnostic.fix is not None:
        lines += [edit.range.end.line for edit in diagnostic.fix.edits]
    return max(lines)


def _first_changed_line(old: SourceText, new: SourceText) -> int:
    for number, (before, after) in enumerate(zip(old.lines, new.lines, strict=False), start=1):
        if before != after:
            return number
    return min(len(old.lines), len(new.lines)) + 1


def keep_last_good(diagnostics: list[Diagnostic], source: SourceText, last_good: LintResult | None) -> list[Diagnostic]:
    """While ``source`` does not parse, add the last good diagnostics that are still exact.

    Kept are those entirely (range, fix, noqa line, related locations) on lines before the first
    line that differs from the last good text and before the syntax error.
    """
    errors = [d for d in diagnostics if d.code == SYNTAX_ERROR]
    if not errors or last_good is None:
        return diagnostics
    limit = min(_first_changed_line(last_good.source, source), *(d.line for d in errors))
    kept = [d for d in last_good.diagnostics if d.code != SYNTAX_ERROR and _last_line(d) < limit]
    return sorted([*kept, *diagnostics], key=Diagnostic.sort_key)


class LinterHost(Protocol):
    """What the linter uses of the language server (``XlalensLanguageServer`` provides it)."""

    settings: SettingsStore
    settings_ready: asyncio.Event

    @property
    def workspace(self) -> Workspace: ...

    @property
    def position_encoding(self) -> str: ...

    @property
    def client_shows_related_information(self) -> bool: ...

    def publish(self, result: LintResult) -> None: ...

    def tell(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None: ...

    def report_configuration_errors(self) -> None: ...


class DocumentLinter:
    """Checks the server's open documents and keeps the latest result of each.

    Args:
        server: The language server whose workspace, settings and client this serves.
        check: The engine entry point (``check_source``), replaceable in tests.
    """

    def __init__(
        self,
        server: LinterHost,
        check: Callable[[str, str, Settings], list[Diagnostic]] = check_source,
    ) -> None:
        self._server = server
        self._check = check
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="xlalens-check")
        self._results: dict[str, LintResult] = {}
        self._last_good: dict[str, LintResult] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._inflight: dict[tuple[str, int | None, int], asyncio.Future[LintResult | None]] = {}
        # Read by the worker thread to skip checks that a newer edit made pointless.
        self._latest_versions: dict[str, int | None] = {}
        self._annotations: dict[str, tuple[int | None, list[Annotation]]] = {}
        self._result_ids = itertools.count(1)

    # -- document lifecycle --------------------------------------------------------------------

    def snapshot(self, uri: str) -> DocumentSnapshot | None:
        """The open document ``uri`` as it is now, or ``None`` when it is not open."""
        document = self._server.workspace.text_documents.get(unquote(uri))
        if document is None:
            return None
        path = uris.to_fs_path(uri) if uri.startswith("file:") else None
        return DocumentSnapshot(uri, document.version, document.source, path)

    def changed(self, uri: str, delay: float | None) -> None:
        """Note a new version of ``uri``; check it after ``delay`` seconds of quiet (not at all if ``None``)."""
        document = self._server.workspace.text_documents.get(unquote(uri))
        self._latest_versions[uri] = document.version if document is not None else None
        if delay is not None:
            self.schedule(uri, delay)

    def schedule(self, uri: str, delay: float) -> None:
        """Check ``uri`` after ``delay`` seconds, replacing any check still waiting for it."""
        pending = self._tasks.pop(uri, None)
        if pending is not None:
            pending.cancel()
        task = asyncio.get_running_loop().create_task(self._check_later(uri, delay))
        self._tasks[uri] = task
        task.add_done_callback(lambda done: self._forget_task(uri, done))

    def _forget_task(self, uri: str, task: asyncio.Task[None]) -> None:
        if self._tasks.get(uri) is task:
            del self._tasks[uri]
        if not task.cancelled() and task.exception() is not None:
            logger.error("checking %s failed", uri, exc_info=task.exception())

    def closed(self, uri: str) -> None:
        """Drop everything known about ``uri``."""
        pending = self._tasks.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._results.pop(uri, None)
        self._last_good.pop(uri, None)
        self._latest_versions.pop(uri, None)
        self._annotations.pop(uri, None)

    def open_uris(self) -> list[str]:
        """The documents checked so far that are still open."""
        return [uri for uri in self._latest_versions if self.snapshot(uri) is not None]

    def shutdown(self) -> None:
        """Cancel waiting checks and stop the worker thread."""
        for task in self._tasks.values():
            task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- results ---------------------------------------------------------------------------------

    def fresh_result(self, uri: str) -> LintResult | None:
        """The stored result if it is for the document's current version and settings."""
        result = self._results.get(uri)
        snapshot = self.snapshot(uri)
        if result is None or snapshot is None:
            return None
        if result.version != snapshot.version or result.generation != self._server.settings.generation:
            return None
        return result

    async def current(self, uri: str) -> LintResult | None:
        """The result for the document as it is now, checking it if needed (no debounce).

        Follows the document while it is being edited, a few times; ``None`` when it is not open.
        """
        await self._server.settings_ready.wait()
        for _ in range(_RETRIES):
            result = await self._check_current(uri)
            if result is not None:
                return result
            if self.snapshot(uri) is None:
                return None
        return self._results.get(uri)

    async def settled(self, uri: str, patience: float) -> LintResult | None:
        """The result for the document as it is now if it comes within ``patience`` seconds, else the last one.

        A hover must not wait for the check of a huge document: it is answered from the last
        finished analysis (or not at all before the first), while the check goes on.
        """
        check = asyncio.ensure_future(self.current(uri))
        try:
            return await asyncio.wait_for(asyncio.shield(check), patience)
        except TimeoutError:
            return self._results.get(uri)

    async def settled_annotations(self, uri: str, patience: float) -> tuple[DocumentSnapshot, list[Annotation]] | None:
        """:meth:`annotations` if they come within ``patience`` seconds (they queue behind checks), else ``None``."""
        found = asyncio.ensure_future(self.annotations(uri))
        try:
            return await asyncio.wait_for(asyncio.shield(found), patience)
        except TimeoutError:
            return None

    async def _check_later(self, uri: str, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        await self._server.settings_ready.wait()
        result = await self._check_current(uri)
        if result is not None:
            self._server.publish(result)

    async def _check_current(self, uri: str) -> LintResult | None:
        """Check the current version once; ``None`` if the document changed meanwhile."""
        snapshot = self.snapshot(uri)
        if snapshot is None:
            return None
        fresh = self.fresh_result(uri)
        if fresh is not None:
            return fresh
        self._latest_versions.setdefault(uri, snapshot.version)
        generation = self._server.settings.generation
        key = (uri, snapshot.version, generation)
        future = self._inflight.get(key)
        if future is None:
            settings = self._server.settings.for_path(snapshot.path)
            self._server.report_configuration_errors()
            last_good = self._last_good.get(uri)
            if last_good is not None and last_good.generation != generation:
                last_good = None  # found with other settings: not the diagnostics these would give
            future = asyncio.get_running_loop().run_in_executor(
                self._executor,
                self._compute,
                snapshot,
                generation,
                settings,
                self._server.settings.client,
                last_good,
            )
            self._inflight[key] = future
            future.add_done_callback(lambda _: self._inflight.pop(key, None))
        # Shielded: a cancelled debounce must not cancel the check another request waits for.
        result = await asyncio.shield(future)
        fresh = self.fresh_result(uri)
        if fresh is not None:  # stored by another request that waited for the same check
            return fresh
        current = self.snapshot(uri)
        if result is None or current is None or current.version != result.version:
            return None
        if result.generation != self._server.settings.generation:
            return None
        self._results[uri] = result
        if result.parses:
            self._last_good[uri] = result
        if result.failed:
            self._server.tell(f"could not check {uri}: the analyzer failed; the server log has the details")
        return result

    def _compute(
        self,
        snapshot: DocumentSnapshot,
        generation: int,
        settings: Settings,
        client: ClientSettings,
        last_good: LintResult | None,
    ) -> LintResult | None:
        """Runs on the worker thread: check one snapshot and convert the result."""
        if self._latest_versions.get(snapshot.uri, snapshot.version) != snapshot.version:
            return None
        source = SourceText(snapshot.text)
        failed = False
        try:
            diagnostics = self._check(snapshot.text, snapshot.path or snapshot.uri, settings)
        except Exception:  # an analyzer bug must cost this file's diagnostics, not the server
            logger.exception("checking %s failed", snapshot.uri)
            diagnostics, failed = [], True
        diagnostics = keep_last_good(diagnostics, source, last_good)
        context = ConversionContext(
            uri=snapshot.uri,
            version=snapshot.version,
            source=source,
            encoding=self._server.position_encoding,
            client=client,
            related_information=self._server.client_shows_related_information,
            explainer_base_url=settings.explainer_base_url,
        )
        return LintResult(
            uri=snapshot.uri,
            version=snapshot.version,
            generation=generation,
            source=source,
            settings=settings,
            diagnostics=tuple(diagnostics),
            lsp_diagnostics=tuple(to_lsp_diagnostics(diagnostics, context)),
            result_id=str(next(self._result_ids)),
            failed=failed,
        )

    # -- other work on the worker thread ----------------------------------------------------------

    async def run_in_worker(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run ``function`` on the worker thread (after any queued check) and return its result."""
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, functools.partial(function, *args, **kwargs)
        )

    async def annotations(self, uri: str) -> tuple[DocumentSnapshot, list[Annotation]] | None:
        """The document's current version with its inferred array annotations ([] if it does not parse)."""
        snapshot = self.snapshot(uri)
        if snapshot is None:
            return None
        cached = self._annotations.get(uri)
        if cached is not None and cached[0] == snapshot.version:
            return snapshot, cached[1]
        found = await self.run_in_worker(_annotate, snapshot)
        current = self.snapshot(uri)
        if current is not None and current.version == snapshot.version:
            self._annotations[uri] = (snapshot.version, found)
        return snapshot, found


def _annotate(snapshot: DocumentSnapshot) -> list[Annotation]:
    try:
        return annotate_source(snapshot.text, snapshot.path or snapshot.uri)
    except SyntaxError:
        return []
