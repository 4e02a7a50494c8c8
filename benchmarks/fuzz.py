"""Fuzz xlalens with mutants of a real corpus, and measure how safe ``--fix --unsafe-fixes`` is on it.

The fuzz mode feeds each mutant (the mutations of ``tests/fuzz/mutations.py``: truncation, byte
flips, deep nesting, long chains, absurd numbers, odd encodings and line endings) to the runner's
supervised worker processes, one file at a time, and reports how many inputs were tried, how many
ended a worker process (a crash), ran past the time limit (a hang), raised out of the check (a
traceback) or came back as an ``E900``, and the slowest check.

The fix-safety mode copies the corpus to a temporary folder, runs ``--fix --unsafe-fixes`` over it
and checks every changed file: it parses and compiles, a second run changes nothing, its line
endings and encoding are those of the original, and pyflakes finds nothing new in it.

Usage::

    python benchmarks/fuzz.py --count 100000              # fuzz the default corpus
    python benchmarks/fuzz.py --paths tests/fixtures --count 500
    python benchmarks/fuzz.py --fix-safety                # the fix-safety figures
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from xlalens.analyzers.core import type_params  # noqa: E402
from xlalens.analyzers.core.settings import Settings  # noqa: E402
from xlalens.analyzers.engine import pipeline  # noqa: E402
from xlalens.analyzers.project import runner  # noqa: E402
from xlalens.analyzers.project.workers import Supervisor  # noqa: E402

from tests.fuzz.mutations import mutants  # noqa: E402 - after the path is set


@dataclass(frozen=True)
class Outcome:
    """What one mutant did: its name, seconds, and what went wrong (``kind`` is ``ok`` when nothing)."""

    name: str
    seconds: float
    kind: str
    detail: str = ""


def _check_one(job: tuple[str, bytes]) -> Outcome:
    """Runs in a worker: check one mutant the way ``xlalens check -`` does."""
    name, data = job
    started = time.perf_counter()
    try:
        result = runner.check_stdin(data, "fuzzed.py", Settings())
    except Exception as error:  # the runner catches the engine's errors: anything here is a traceback
        return Outcome(name, time.perf_counter() - started, "traceback", f"{type(error).__name__}: {error}")
    seconds = time.perf_counter() - started
    internal = [d.message for d in result.diagnostics if d.code == "E900"]
    return Outcome(name, seconds, "E900" if internal else "ok", internal[0] if internal else "")


def _failed(job: tuple[str, bytes], stage: str, what: str) -> Outcome:
    kind = "hang" if "ran longer" in what else "crash"
    return Outcome(job[0], pipeline.TIME_LIMIT_S, kind, f"{stage}: {what}")


@dataclass
class FuzzReport:
    """The figures of a fuzz run."""

    tried: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    worst: Outcome | None = None
    examples: dict[str, list[Outcome]] = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.tried += 1
        self.kinds[outcome.kind] += 1
        if self.worst is None or outcome.seconds > self.worst.seconds:
            self.worst = outcome
        if outcome.kind != "ok":
            self.examples.setdefault(outcome.kind, []).append(outcome)

    def lines(self) -> list[str]:
        worst = self.worst
        lines = [
            f"inputs tried      {self.tried:,}",
            f"process crashes   {self.kinds['crash']:,}",
            f"hangs             {self.kinds['hang']:,}",
            f"tracebacks        {self.kinds['traceback']:,}",
            f"E900              {self.kinds['E900']:,}",
            f"worst time        {worst.seconds:.2f} s ({worst.name})" if worst else "worst time        -",
            f"wall time         {self.seconds:.0f} s ({self.tried / max(self.seconds, 1e-9):.1f} inputs/s)",
        ]
        for kind, outcomes in sorted(self.examples.items()):
            for outcome in outcomes[:3]:
                lines.append(f"  {kind}: {outcome.name}: {outcome.detail[:200]}")
        return lines


def python_sources(paths: Iterable[Path]) -> list[Path]:
    """The ``.py`` files under ``paths``, sorted (levanter ships a folder named ``modeling_mpt.py``)."""
    found: list[Path] = []
    for path in paths:
        found.extend(sorted(p for p in path.rglob("*.py") if p.is_file()) if path.is_dir() else [path])
    return found


def fuzz(sources: Sequence[bytes], count: int, seed: int, jobs: int) -> FuzzReport:
    """Check ``count`` mutants of ``sources`` in ``jobs`` supervised workers."""
    report = FuzzReport()
    started = time.perf_counter()
    supervisor = Supervisor(_check_one, _failed, jobs, pipeline.TIME_LIMIT_S + 30)
    for outcome in supervisor.run(list(mutants(sources, count, seed))):
        report.add(outcome)
    report.seconds = time.perf_counter() - started
    return report


def _pyflakes(text: str) -> Counter[str]:
    from pyflakes.api import check
    from pyflakes.reporter import Reporter

    found: Counter[str] = Counter()

    class _Collect(Reporter):
        def __init__(self) -> None:
            pass

        def flake(self, message: object) -> None:
            names = tuple(str(arg).rsplit(".", 1)[-1] for arg in getattr(message, "message_args", ()))
            found[f"{type(message).__name__}{names}"] += 1

        def syntaxError(self, *args: object) -> None:
            found["syntax-error"] += 1

        def unexpectedError(self, *args: object) -> None:
            found["unexpected-error"] += 1

    check(text, "fixed.py", _Collect())
    return found


def _line_style(data: bytes) -> str:
    crlf = data.count(b"\r\n")
    lf, cr = data.count(b"\n") - crlf, data.count(b"\r") - crlf
    styles = [name for name, number in (("crlf", crlf), ("lf", lf), ("cr", cr)) if number]
    return "+".join(styles) or "none"


def _parse_error(new: bytes, old: bytes, path: Path) -> Exception | None:
    """Why a fixed file does not parse, or None. A file in syntax newer than this Python (3.12 type
    parameters, which ``compile`` refuses before and after the fix) must still parse as xlalens reads it."""
    try:
        compile(new, str(path), "exec", dont_inherit=True)
        ast.parse(new)
        return None
    except (SyntaxError, ValueError) as error:
        try:
            compile(old, str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            try:
                return None if type_params.parse(new.decode("utf-8"), str(path)) is not None else error
            except (SyntaxError, ValueError, UnicodeDecodeError) as newer:
                return newer
        return error


def fix_safety(directories: Sequence[Path], jobs: int) -> list[str]:
    """Run ``--fix --unsafe-fixes`` over a copy of ``directories`` and check every changed file."""
    with tempfile.TemporaryDirectory(prefix="xlalens-fix-safety-") as temp:
        copies = []
        for number, directory in enumerate(directories):
            copy = Path(temp, f"{number}-{directory.name}")
            shutil.copytree(directory, copy, symlinks=True)
            copies.append(copy)
        files = python_sources(copies)
        before = {path: path.read_bytes() for path in files}
        started = time.perf_counter()
        first = runner.check_paths([str(p) for p in files], Settings(), jobs=jobs, fix=True, unsafe=True)
        seconds = time.perf_counter() - started
        changed = [path for path in files if path.read_bytes() != before[path]]
        after = {path: path.read_bytes() for path in changed}
        problems: Counter[str] = Counter()
        examples: list[str] = []
        for path in changed:
            old, new = before[path], after[path]
            error = _parse_error(new, old, path)
            if error is not None:
                problems["does not parse"] += 1
                examples.append(f"does not parse: {path}: {error}")
                continue
            if _line_style(old) != _line_style(new) and _line_style(old) != "lf+crlf":
                problems["line endings changed"] += 1
                examples.append(f"line endings: {path}: {_line_style(old)} -> {_line_style(new)}")
            if old.startswith(b"\xef\xbb\xbf") != new.startswith(b"\xef\xbb\xbf"):
                problems["byte order mark changed"] += 1
            added = _pyflakes(new.decode("utf-8", "replace")) - _pyflakes(old.decode("utf-8", "replace"))
            if added:
                problems["new pyflakes finding"] += 1
                examples.append(f"pyflakes: {path}: {dict(added)}")
        second = runner.check_paths([str(p) for p in files], Settings(), jobs=jobs, fix=True, unsafe=True)
        again = [path for path in changed if path.read_bytes() != after[path]]
        internal = sum(1 for d in first.diagnostics if d.code == "E900")
        lines = [
            f"files             {len(files):,}",
            f"fixes applied     {first.fixed:,} in {len(changed):,} files ({seconds:.0f} s)",
            f"do not parse      {problems['does not parse']:,}",
            f"line endings      {problems['line endings changed']:,} changed",
            f"byte order marks  {problems['byte order mark changed']:,} changed",
            f"new pyflakes      {problems['new pyflakes finding']:,} files",
            f"second run        {second.fixed:,} more fixes, {len(again):,} files changed again",
            f"E900              {internal:,}",
        ]
        return lines + [f"  {example}" for example in examples[:10]]


def _corpus_directories(names: Sequence[str]) -> list[Path]:
    from corpus import ensure_corpus

    return list(ensure_corpus(names).values())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", action="append", metavar="NAME", help="corpus projects (default: all four)")
    parser.add_argument("--paths", nargs="+", type=Path, help="fuzz these files or directories instead of a corpus")
    parser.add_argument("--count", type=int, default=10_000, help="mutants to try (default 10,000)")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--fix-safety", action="store_true", help="measure --fix --unsafe-fixes instead of fuzzing")
    args = parser.parse_args(argv)
    if args.paths:
        directories = list(args.paths)
    else:
        from corpus import DEFAULT_NAMES

        directories = _corpus_directories(args.corpus or DEFAULT_NAMES)
    if args.fix_safety:
        print("\n".join(fix_safety(directories, args.jobs)))
        return 0
    sources = [path.read_bytes() for path in python_sources(directories)]
    sources = [data for data in sources if b"jax" in data or b"torch_xla" in data] or sources
    report = fuzz(sources, args.count, args.seed, max(args.jobs, 2))
    print("\n".join(report.lines()))
    bad = sum(report.kinds[kind] for kind in ("crash", "hang", "traceback", "E900"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
