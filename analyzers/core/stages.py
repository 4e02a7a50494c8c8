"""Which stage of a file's check is running, so an internal error can say where it happened.

The engine calls :func:`enter` as it moves from reading to parsing, analysis and fixing. A failure
that raises is reported with :func:`current`; a failure that ends the process (a crash in C code,
a kill for memory) cannot report anything itself, so the process that supervises a worker installs
a listener (:func:`listen`) that copies each stage where the supervisor can still read it.

Examples:
    >>> enter(PARSING)
    >>> current()
    'parsing'
    >>> seen = []
    >>> listen(seen.append)
    >>> enter(ANALYSIS)
    >>> listen(None)
    >>> seen
    ['analysis']
"""

from __future__ import annotations

from collections.abc import Callable

READING = "reading"
PARSING = "parsing"
ANALYSIS = "analysis"
FIXING = "fixing"
WRITING = "writing fixes"

_current = READING
_listener: Callable[[str], None] | None = None


def enter(stage: str) -> None:
    """Record that ``stage`` starts now."""
    global _current
    _current = stage
    if _listener is not None:
        _listener(stage)


def current() -> str:
    """The stage entered last."""
    return _current


def listen(listener: Callable[[str], None] | None) -> None:
    """Call ``listener`` with each stage entered from now on (``None`` stops)."""
    global _listener
    _listener = listener
