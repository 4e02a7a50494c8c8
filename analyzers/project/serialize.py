"""Lossless conversion between :class:`~xlalens.analyzers.core.diagnostics.Diagnostic` and plain dicts.

The dicts hold only JSON types, so the cache can store them with :mod:`json` and read them back
into equal diagnostics. Ranges are written compactly as ``[start_line, start_column, end_line,
end_column]`` in the model's own convention (1-based lines, 0-based code-point columns); output
formats that need other conventions convert from the model, not from these dicts.

Calculator inputs are arbitrary mappings; tuples in them are tagged so they come back as tuples.

Examples:
    >>> from xlalens.analyzers.core.diagnostics import Diagnostic, Position, Range
    >>> d = Diagnostic("JX101", "msg", "a.py", Range(Position(3, 4), Position(3, 9)))
    >>> data = diagnostic_to_dict(d)
    >>> data["range"]
    [3, 4, 3, 9]
    >>> diagnostic_from_dict(data) == d
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xlalens.analyzers.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Position,
    Range,
    RelatedLocation,
    Severity,
)

_TUPLE_TAG = "__tuple__"


class SerializationError(ValueError):
    """Data that does not describe a diagnostic (e.g. a damaged cache entry)."""


def range_to_list(range_: Range) -> list[int]:
    """``Range`` -> ``[start_line, start_column, end_line, end_column]``."""
    return [range_.start.line, range_.start.column, range_.end.line, range_.end.column]


def range_from_list(data: Any) -> Range:
    """The inverse of :func:`range_to_list`.

    Raises:
        SerializationError: if ``data`` is not four integers.
    """
    if not (isinstance(data, list) and len(data) == 4 and all(type(v) is int for v in data)):
        raise SerializationError(f"a range must be four integers, not {data!r}")
    return Range(Position(data[0], data[1]), Position(data[2], data[3]))


def _encode_value(value: Any) -> Any:
    # JSON has no tuples; tag them so calculator inputs such as shapes survive a round trip.
    if isinstance(value, tuple):
        return {_TUPLE_TAG: [_encode_value(v) for v in value]}
    if isinstance(value, list):
        return [_encode_value(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _encode_value(v) for k, v in value.items()}
    return value


def _decode_value(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {_TUPLE_TAG}:
            return tuple(_decode_value(v) for v in value[_TUPLE_TAG])
        return {k: _decode_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode_value(v) for v in value]
    return value


def fix_to_dict(fix: Fix) -> dict[str, Any]:
    """``Fix`` -> dict with ``message``, ``applicability`` and ``edits``."""
    return {
        "message": fix.message,
        "applicability": fix.applicability.value,
        "edits": [{"range": range_to_list(e.range), "content": e.content} for e in fix.edits],
    }


def fix_from_dict(data: Mapping[str, Any]) -> Fix:
    """The inverse of :func:`fix_to_dict`."""
    return Fix(
        message=data["message"],
        applicability=Applicability(data["applicability"]),
        edits=tuple(Edit(range_from_list(e["range"]), e["content"]) for e in data["edits"]),
    )


def diagnostic_to_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """``Diagnostic`` -> a dict of JSON types; every field is kept."""
    calculator = None
    if diagnostic.calculator is not None:
        name, inputs = diagnostic.calculator
        calculator = {"name": name, "inputs": _encode_value(inputs)}
    return {
        "code": diagnostic.code,
        "message": diagnostic.message,
        "path": diagnostic.path,
        "range": range_to_list(diagnostic.range),
        "severity": diagnostic.severity.value,
        "fix": None if diagnostic.fix is None else fix_to_dict(diagnostic.fix),
        "url": diagnostic.url,
        "related": [
            {"path": r.path, "range": range_to_list(r.range), "message": r.message} for r in diagnostic.related
        ],
        "calculator": calculator,
        "noqa_line": diagnostic.noqa_line,
        "detail": diagnostic.detail,
    }


def diagnostic_from_dict(data: Mapping[str, Any]) -> Diagnostic:
    """The inverse of :func:`diagnostic_to_dict`.

    Raises:
        SerializationError: if ``data`` is missing a field or has a value of the wrong kind.
    """
    try:
        calculator = data["calculator"]
        return Diagnostic(
            code=data["code"],
            message=data["message"],
            path=data["path"],
            range=range_from_list(data["range"]),
            severity=Severity(data["severity"]),
            fix=None if data["fix"] is None else fix_from_dict(data["fix"]),
            url=data["url"],
            related=tuple(
                RelatedLocation(r["path"], range_from_list(r["range"]), r["message"]) for r in data["related"]
            ),
            calculator=(None if calculator is None else (calculator["name"], _decode_value(calculator["inputs"]))),
            noqa_line=data["noqa_line"],
            detail=data["detail"],
        )
    except SerializationError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise SerializationError(f"not a serialized diagnostic: {error!r}") from None
