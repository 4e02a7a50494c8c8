"""Record every finding of every rule on a set of trees, and compare two recordings.

An engine change that should not change behaviour (a faster dispatch, lazier analysis) is proven
by recording before the change and comparing after::

    python benchmarks/snapshot_findings.py record before.json
    ...change the engine...
    python benchmarks/snapshot_findings.py record after.json
    python benchmarks/snapshot_findings.py compare before.json after.json

``record --every-call`` clears every rule's ``call_names``, ``call_prefixes``, ``call_attributes`` and
``call_filter``, so that each rule sees every call as it did before the engine dispatched calls:
comparing that recording with a plain one, made at the same commit, shows whether the declared
``call_names`` hide any finding.

Every registered rule runs, preview ones included, and findings are recorded before ``# noqa``
suppression as ``(path, code, start, end, message)``. ``compare`` only looks at the codes the first
recording knew, so rules added in between do not count as differences.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from corpus import DEFAULT_NAMES, ensure_corpus, python_files, read_source
from xlalens.analyzers.core.codes import NON_RULE_CODES

REPOSITORY = Path(__file__).resolve().parent.parent
EXTRA_TREES = (
    Path("/work/corpora/maxtext"),
    REPOSITORY / "tests" / "fixtures" / "rules",
    REPOSITORY / "tests" / "oracle" / "cases",
    REPOSITORY / "tests" / "oracle" / "gaps",
    REPOSITORY / "tests" / "oracle" / "realistic",
    REPOSITORY / "tests" / "oracle_torch_xla" / "cases",
    REPOSITORY / "tests" / "oracle_torch_xla" / "realistic",
    REPOSITORY / "examples",
)
"""Trees checked besides the benchmark corpus, where they exist."""


def record(output: Path, every_call: bool = False, trees: Sequence[Path] = ()) -> int:
    """Check every file of ``trees`` (default: the corpus and ``EXTRA_TREES``) and write the findings to ``output``."""
    from xlalens.analyzers.core.settings import Settings
    from xlalens.analyzers.engine.pipeline import run_rules
    from xlalens.analyzers.engine.registry import all_rules

    rules = all_rules()
    if every_call:
        for rule in rules:
            rule.call_names = None
            rule.call_attributes = frozenset()
            rule.call_prefixes = ()
            rule.call_filter = None
    settings = Settings()
    if not trees:
        trees = [*ensure_corpus(DEFAULT_NAMES).values(), *(tree for tree in EXTRA_TREES if tree.is_dir())]
    findings: list[list[object]] = []
    crashes: list[str] = []
    started = time.perf_counter()
    files = 0
    for tree in trees:
        for path in python_files(tree):
            files += 1
            try:
                diagnostics, _ = run_rules(read_source(path), str(path), settings, rules)
            except Exception as error:  # a crash is a finding of the recording, not its end
                crashes.append(f"{path}: {type(error).__name__}: {error}")
                continue
            for d in diagnostics:
                start, end = d.range.start, d.range.end
                findings.append([str(path), d.code, start.line, start.column, end.line, end.column, d.message])
    elapsed = time.perf_counter() - started
    findings.sort()
    output.write_text(
        json.dumps({"codes": [rule.code for rule in rules], "findings": findings, "crashes": crashes}, indent=0)
    )
    print(f"{files} files, {len(findings)} findings, {len(crashes)} crashes, {elapsed:.1f} s -> {output}")
    return 0


def compare(before_path: Path, after_path: Path) -> int:
    """Print the findings that differ between two recordings, on the first one's codes."""
    before = json.loads(before_path.read_text())
    after = json.loads(after_path.read_text())
    codes = {*before["codes"], *NON_RULE_CODES}
    old = {tuple(f) for f in before["findings"]}
    new = {tuple(f) for f in after["findings"] if f[1] in codes}
    for label, findings in (("only before", old - new), ("only after", new - old)):
        for finding in sorted(findings):
            print(f"{label}: {finding}")
    for crash in sorted(set(after["crashes"]) - set(before["crashes"])):
        print(f"new crash: {crash}")
    same = old == new and not set(after["crashes"]) - set(before["crashes"])
    verdict = "same" if same else "DIFFERENT"
    print(f"{len(old)} findings before, {len(new)} after on the same {len(codes)} codes: {verdict}")
    return 0 if same else 1


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record")
    recording.add_argument("output", type=Path)
    recording.add_argument("--every-call", action="store_true", help="hand every call to every rule")
    recording.add_argument("trees", type=Path, nargs="*", help="folders to check instead of the default ones")
    comparison = commands.add_parser("compare")
    comparison.add_argument("before", type=Path)
    comparison.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.output, args.every_call, args.trees)
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())
