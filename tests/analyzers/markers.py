"""Reading ``# error: CODE`` markers from fixture files."""

from __future__ import annotations

import re
from pathlib import Path

_MARKER = re.compile(r"#\s*error:\s*(?P<codes>[A-Z]{2}\d{3}(?:\s*,\s*[A-Z]{2}\d{3})*)")


def expected_markers(text: str) -> set[tuple[int, str]]:
    """The (line, code) pairs a fixture expects, from its ``# error: CODE[, CODE]`` comments."""
    expected = set()
    for number, line in enumerate(text.splitlines(), start=1):
        match = _MARKER.search(line)
        if match:
            for code in match.group("codes").split(","):
                expected.add((number, code.strip()))
    return expected


def fixture_files(folder: Path, pattern: str = "*.py") -> list[Path]:
    """Fixture files in ``folder``, excluding golden ``.fixed.py`` outputs."""
    return sorted(p for p in folder.glob(pattern) if not p.name.endswith(".fixed.py"))
