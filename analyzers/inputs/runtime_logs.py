"""Runtime evidence mapped back to source lines: torch_xla debug logs and JAX compile logs.

``xlalens logs FILE`` reads what a program printed while it ran and turns each compile and each
unexpected execution into a diagnostic at the user's source line, in the same formats as
``check``. Two kinds of log are understood, possibly mixed in one file:

* torch_xla with ``PT_XLA_DEBUG_LEVEL=2`` (``PT_XLA_DEBUG_FILE`` or stderr): blocks prefixed
  ``Compilation Analysis:``, ``Execution Analysis:`` and ``Unexpected Execution Analysis:``, each
  with a cause, a graph hash and the Python frames that triggered it;
* JAX with ``jax_explain_cache_misses`` (``TRACING CACHE MISS at file:line:col (function):`` and
  the reason lines under it) and ``jax_log_compiles`` (``Compiling jit(f) with global shapes ...``).

Events are grouped by source line, so a loop of a thousand steps gives one diagnostic per line with
counts, not a thousand. The codes are not rules (``LX`` for log evidence): ``LX101`` executions
caused by reading a tensor value before the sync, ``LX102`` unexpected executions inside
``torch_xla.compile``, ``LX201`` the line compiled one graph, ``LX202`` the line compiled several
different graphs (a recompile), ``LX301`` a JAX tracing cache miss after a function's first
trace, ``LX302`` a JAX function the log shows compiled more than once without a source line
(reported at its line in the log). The first trace and compile of a JAX function, which every
program does, is not reported.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from xlalens.analyzers.core.codes import (
    LOG_COMPILE,
    LOG_HOST_READ,
    LOG_RECOMPILE,
    LOG_TRACE_CACHE_MISS,
    LOG_UNEXPECTED_EXECUTION,
    LOG_UNPLACED_COMPILE,
)
from xlalens.analyzers.core.diagnostics import Diagnostic, Position, Range, Severity

HOST_READ_CAUSE = "most likely user code trying to access tensor value before torch_xla.sync"
_BLOCK_PREFIXES = ("Unexpected Execution Analysis: ", "Compilation Analysis: ", "Execution Analysis: ")
_FRAME = re.compile(r"^\s*(?P<function>\S.*?) \((?P<file>.+):(?P<line>\d+)\)\s*$")
_HASH = re.compile(r"Graph Hash:\s*(?P<hash>\w+)")
_CACHE_MISS = re.compile(r"TRACING CACHE MISS at (?P<file>.+?):(?P<line>\d+)(?::(?P<column>\d+))?(?: \([^)]*\))?:")
_TRACED = re.compile(r"^(?:for )?(\w+) (?:id=\d+ )?defined at ")
_COMPILING = re.compile(r"Compiling (?P<name>\S+) with global shapes and types")
_LIBRARY_PATH = re.compile(r"(site-packages|dist-packages)/|/torch_xla/|/torch/|/jax/|/jaxlib/|^<")
TORCH_XLA_EXPLAINER = "torch-xla-lazy-tensor#reading-the-debug-output"
JAX_EXPLAINER = "jit-caching#reading-cache-miss-explanations"


@dataclass
class Event:
    """One block of a torch_xla debug log.

    Attributes:
        kind: ``compilation``, ``execution`` or ``unexpected``.
        cause: The cause line (``user torch_xla.sync``, ...).
        graph_hash: The graph's hash, when given.
        frames: ``(function, file, line)`` of the Python frames, innermost first.
        log_line: The block's first line in the log.
    """

    kind: str
    cause: str = ""
    graph_hash: str = ""
    frames: list[tuple[str, str, int]] = field(default_factory=list)
    log_line: int = 0

    def user_frame(self) -> tuple[str, str, int] | None:
        """The innermost frame outside torch, torch_xla and installed packages."""
        return next((f for f in self.frames if not _LIBRARY_PATH.search(f[1].replace(os.sep, "/"))), None)


def torch_xla_events(lines: Iterable[str]) -> Iterator[Event]:
    """The analysis blocks of a ``PT_XLA_DEBUG_LEVEL`` log, in order.

    Examples:
        >>> log = [
        ...     "Execution Analysis: ====",
        ...     "Execution Analysis: Execution Cause",
        ...     "Execution Analysis:   user torch_xla.sync",
        ...     "Execution Analysis:   Graph Hash: ab12",
        ...     "Execution Analysis: Python Frame Triggered Execution: ",
        ...     "Execution Analysis:   <module> (train.py:17)",
        ...     "Execution Analysis: ----",
        ... ]
        >>> [(e.kind, e.cause, e.graph_hash, e.frames) for e in torch_xla_events(log)]
        [('execution', 'user torch_xla.sync', 'ab12', [('<module>', 'train.py', 17)])]
    """
    current: Event | None = None
    section = ""
    for number, raw in enumerate(lines, start=1):
        prefix = next((p for p in _BLOCK_PREFIXES if raw.startswith(p)), None)
        if prefix is None:
            continue
        text = raw[len(prefix) :].rstrip("\n")
        stripped = text.strip()
        if stripped.startswith("===="):
            if current is not None and (current.cause or current.frames):
                yield current
            kind = {"Unexpected": "unexpected", "Compilation": "compilation"}.get(prefix.split()[0], "execution")
            current, section = Event(kind, log_line=number), ""
            continue
        if current is None:
            continue
        if stripped.startswith("----"):
            yield current
            current = None
            continue
        if stripped.endswith("Cause"):
            section = "cause"
        elif stripped.startswith("Python Frame Triggered Execution"):
            section = "frames"
        elif stripped.startswith("Graph Info"):
            section = "graph"
        elif section == "cause" and stripped and not current.cause:
            current.cause = stripped
        elif (match := _HASH.search(stripped)) is not None:
            current.graph_hash = match.group("hash")
        elif section == "frames" and (frame := _FRAME.match(text)) is not None:
            current.frames.append((frame.group("function"), frame.group("file"), int(frame.group("line"))))
    if current is not None and (current.cause or current.frames):
        yield current


@dataclass(frozen=True)
class _Where:
    path: str
    line: int


def _resolve(path: str, root: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(root, path))


def _point(where: _Where) -> Range:
    start = Position(where.line, 0)
    return Range(start, start)


def torch_xla_diagnostics(events: Iterable[Event], root: str, url: str | None) -> list[Diagnostic]:
    """One diagnostic per source line and kind of finding, with counts."""
    host_reads: dict[_Where, int] = {}
    unexpected: dict[_Where, int] = {}
    compiled: dict[_Where, list[str]] = {}
    for event in events:
        frame = event.user_frame()
        if frame is None:
            continue
        where = _Where(_resolve(frame[1], root), frame[2])
        if event.kind == "unexpected":
            unexpected[where] = unexpected.get(where, 0) + 1
        elif event.kind == "execution" and event.cause == HOST_READ_CAUSE:
            host_reads[where] = host_reads.get(where, 0) + 1
        elif event.kind == "compilation":
            hashes = compiled.setdefault(where, [])
            if event.graph_hash not in hashes:
                hashes.append(event.graph_hash)
    found = []
    for where, count in host_reads.items():
        found.append(
            Diagnostic(
                LOG_HOST_READ,
                f"{_times(count, 'graph execution')} ran here because a tensor value was read before "
                "`torch_xla.sync()` (an extra execution and a device-to-host copy each time); "
                "read it in `xm.add_step_closure` or after the sync",
                where.path,
                _point(where),
                Severity.WARNING,
                url=url,
                noqa_line=where.line,
            )
        )
    for where, count in unexpected.items():
        found.append(
            Diagnostic(
                LOG_UNEXPECTED_EXECUTION,
                f"{_times(count, 'unexpected execution')} inside a `torch_xla.compile` function: a tensor value was "
                "read while the graph was being traced",
                where.path,
                _point(where),
                Severity.ERROR,
                url=url,
                noqa_line=where.line,
            )
        )
    for where, hashes in compiled.items():
        several = len(hashes) > 1
        found.append(
            Diagnostic(
                LOG_RECOMPILE if several else LOG_COMPILE,
                f"{_times(len(hashes), 'different graph')} compiled here"
                + (" (a recompile: the graph changed between runs of this line)" if several else ""),
                where.path,
                _point(where),
                Severity.WARNING if several else Severity.INFO,
                url=url,
                noqa_line=where.line,
            )
        )
    return found


def jax_diagnostics(lines: list[str], log_path: str, root: str, url: str | None) -> list[Diagnostic]:
    """``TRACING CACHE MISS`` blocks at their call site; without them, ``Compiling`` lines per function."""
    found: list[Diagnostic] = []
    compiles: dict[str, list[int]] = {}
    first_traces: set[tuple[str, int, str]] = set()
    for index, line in enumerate(lines):
        miss = _CACHE_MISS.search(line)
        if miss is not None:
            reasons = []
            for following in lines[index + 1 : index + 12]:
                if not following.startswith("  ") or _CACHE_MISS.search(following):
                    break
                reasons.append(following.strip())
            where = _Where(_resolve(miss.group("file"), root), int(miss.group("line")))
            start = Position(where.line, int(miss.group("column") or 0))  # JAX prints a 0-based column
            traced = next((m.group(1) for r in reasons if (m := _TRACED.match(r)) is not None), "a function")
            first = bool(reasons) and reasons[0].startswith("never seen function")
            site = (where.path, where.line, traced)
            if first and site not in first_traces:
                # Every jitted function traces once: only what comes after is unexpected.
                first_traces.add(site)
                continue
            found.append(
                Diagnostic(
                    LOG_TRACE_CACHE_MISS,
                    f"JAX traced `{traced}` again at this call "
                    + ("as a function it has never seen (a new jitted function for each call) " if first else "")
                    + f"(tracing cache miss): {' '.join(reasons) or 'no reason given'}",
                    where.path,
                    Range(start, start),
                    Severity.WARNING,
                    url=url,
                    noqa_line=where.line,
                )
            )
            continue
        compiling = _COMPILING.search(line)
        if compiling is not None:
            compiles.setdefault(compiling.group("name"), []).append(index + 1)
    if found or first_traces:
        # Cache misses are explained for user functions only and carry the source line; the
        # compile lines of the same run then add nothing but JAX's internal jits.
        return found
    for name, log_lines in compiles.items():
        if len(log_lines) == 1:
            continue  # the one compile every jitted function needs
        start = Position(log_lines[0], 0)
        found.append(
            Diagnostic(
                LOG_UNPLACED_COMPILE,
                f"JAX compiled `{name}` {_times(len(log_lines), 'time')} (the log gives no source line for compiles; "
                "run with `jax_explain_cache_misses` to see where and why it traced)",
                log_path,
                Range(start, start),
                Severity.INFO,
                url=url,
                noqa_line=log_lines[0],
            )
        )
    return found


def log_diagnostics(
    text: str, log_path: str, root: str, explainer_url: Callable[[str], str | None] | None = None
) -> list[Diagnostic]:
    """Every finding in a log, sorted; ``root`` resolves the relative paths the log names.

    ``explainer_url`` turns a ``page#section`` into a link: torch_xla findings link to the page on
    torch_xla's debug output and JAX findings to the one on reading cache-miss explanations.
    """
    lines = text.splitlines()
    link = explainer_url or (lambda _explainer: None)
    found = torch_xla_diagnostics(torch_xla_events(lines), root, link(TORCH_XLA_EXPLAINER))
    found.extend(jax_diagnostics(lines, log_path, root, link(JAX_EXPLAINER)))
    return sorted(found, key=Diagnostic.sort_key)


def recognised(text: str) -> bool:
    """Whether ``text`` holds any torch_xla debug block or JAX cache-miss or compile line.

    Examples:
        >>> recognised("loss 0.31"), recognised("TRACING CACHE MISS at a.py:3:4 (f):")
        (False, True)
    """
    return any(prefix in text for prefix in _BLOCK_PREFIXES) or bool(
        _CACHE_MISS.search(text) or _COMPILING.search(text)
    )


def _times(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
