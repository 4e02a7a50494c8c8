"""Print every xlalens finding on real JAX projects, with source context, for review.

Runs ``check_source`` over each corpus file and prints, grouped by rule code::

    path:line:col CODE message
         41 | previous line
      >  42 | the line the finding is on
         43 | next line

then counts: files, lines, and diagnostics per code. Reviewing this output is how
false positives on real code are found before users find them.

Usage::

    python benchmarks/list_findings.py                       # every corpus, every code
    python benchmarks/list_findings.py --corpus optax --select JX1,JX201
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corpus import (
    DEFAULT_NAMES,
    DEFAULT_ROOT,
    canonical_name,
    ensure_corpus_info,
    python_files,
    read_source,
    short_name,
)

CONTEXT_LINES = 3
"""Lines of source shown per finding: the one before, the finding's line, the one after."""


@dataclass(frozen=True)
class Finding:
    """One diagnostic with what is needed to print it."""

    path: str
    line: int
    column: int
    code: str
    message: str
    context: tuple[str, ...]


def selected(code: str, selectors: Sequence[str]) -> bool:
    """Whether ``code`` matches any selector by prefix (``JX1`` selects ``JX101``).

    Examples:
        >>> selected("JX101", ["JX1"]), selected("JX201", ["JX1"]), selected("E999", [])
        (True, False, True)
    """
    return not selectors or any(code.upper().startswith(s.upper()) for s in selectors)


def context(lines: Sequence[str], line: int) -> tuple[str, ...]:
    """``CONTEXT_LINES`` numbered source lines centred on ``line`` (1-based), marked with ``>``."""
    first = max(1, line - CONTEXT_LINES // 2)
    last = min(len(lines), first + CONTEXT_LINES - 1)
    return tuple(
        f"  {'>' if number == line else ' '} {number:>5} | {lines[number - 1]}" for number in range(first, last + 1)
    )


def display_path(path: Path) -> str:
    """``path`` relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def check_file(check: Any, path: Path, selectors: Sequence[str]) -> tuple[list[Finding], int]:
    """The selected findings in one file and its line count; a crash becomes a ``CRASH`` finding."""
    text = read_source(path)
    lines = text.splitlines()
    shown = display_path(path)
    try:
        diagnostics = check(text, shown)
    except Exception as exc:  # the review wants to see crashes, not stop at the first
        crash = Finding(shown, 1, 0, "CRASH", f"check_source raised {type(exc).__name__}: {exc}", ())
        return ([crash] if selected("CRASH", selectors) else []), len(lines)
    findings = [
        Finding(shown, d.line, d.column, d.code, d.message, context(lines, d.line))
        for d in diagnostics
        if selected(d.code, selectors)
    ]
    return findings, len(lines)


def print_findings(findings: Sequence[Finding]) -> None:
    """Every finding, grouped by code, each with its source context."""
    by_code: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_code[finding.code].append(finding)
    for code in sorted(by_code):
        group = sorted(by_code[code], key=lambda f: (f.path, f.line, f.column))
        print(f"\n===== {code}: {len(group)} finding(s) =====")
        for f in group:
            print(f"\n{f.path}:{f.line}:{f.column + 1} {f.code} {f.message}")
            for row in f.context:
                print(row)


def print_counts(label: str, files: int, lines: int, findings: Sequence[Finding]) -> None:
    """Files, lines and diagnostics per code for one corpus."""
    counts = Counter(f.code for f in findings)
    per_code = ", ".join(f"{code} {n}" for code, n in sorted(counts.items())) or "none"
    print(f"{label:<8} {files:>5} files {lines:>8,} lines {sum(counts.values()):>6} diagnostics")
    print(f"{'':<8} per code: {per_code}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus",
        action="append",
        metavar="NAME",
        help=f"corpus to check (repeatable; default: {', '.join(map(short_name, DEFAULT_NAMES))})",
    )
    parser.add_argument(
        "--select",
        default="",
        metavar="CODES",
        help="comma-separated code prefixes to show, e.g. JX1,JX201 (default: all)",
    )
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="corpus cache folder")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Check the corpora and print the findings, then the counts."""
    args = parse_args(argv)
    try:
        from xlalens.analyzers.api import check_source
    except ImportError as exc:
        print(f"xlalens API not importable yet: {exc}", file=sys.stderr)
        return 2
    selectors = [s.strip() for s in args.select.split(",") if s.strip()]
    names = [canonical_name(n) for n in (args.corpus or DEFAULT_NAMES)]
    infos = ensure_corpus_info(list(dict.fromkeys(names)), args.root)
    summary: list[tuple[str, int, int, list[Finding]]] = []
    for name, info in infos.items():
        files = python_files(info.source_dir)
        findings: list[Finding] = []
        lines = 0
        for path in files:
            found, count = check_file(check_source, path, selectors)
            findings += found
            lines += count
        label = f"{short_name(name)} {info.version}"
        print(f"\n##### {label}: {info.source_dir}")
        print_findings(findings)
        summary.append((short_name(name), len(files), lines, findings))
    print("\n##### counts")
    for label, files, lines, findings in summary:
        print_counts(label, files, lines, findings)
    if len(summary) > 1:
        every = [f for *_, found in summary for f in found]
        total_files = sum(s[1] for s in summary)
        print_counts("all", total_files, sum(s[2] for s in summary), every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
