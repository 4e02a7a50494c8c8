"""Review xlalens on real code: every finding on pinned releases of public JAX and torch_xla projects.

``run`` downloads each project (once) into ``benchmarks/.review/``, checks every ``.py`` file of
the release as ``xlalens check`` run in it would (its pins and package, ``# noqa`` honoured), and writes
``benchmarks/.review/findings.md``: each finding with five lines of context on each side and its
verdict, if one is recorded. ``summary`` prints the verdicts per code and what changed.

Verdicts live in ``benchmarks/review_verdicts.tsv`` (committed), one line per finding::

    project  path  line  code  verdict  note

``verdict`` is ``true`` (the code really fails, recompiles or computes wrong as the message says),
``false`` (it does not), or ``intended`` (it does, on purpose, and says so where the tool could read
it: a test that expects the error). Findings are keyed by project, path, line and code, so a later
engine change shows which recorded findings it lost and which new ones need a verdict.

Projects come from PyPI (the sdist, which carries the tests where the project ships them, else
the wheel). One reviewed project is not on PyPI: big_vision is read from a local checkout given
with ``--local big_vision=PATH``; without it, it is listed as not reviewed.

Usage::

    python benchmarks/review.py run                       # every project (downloads once)
    python benchmarks/review.py run --project optax       # one (repeatable)
    python benchmarks/review.py run --local big_vision=/path/to/big_vision
    python benchmarks/review.py summary                   # per code: true / false / intended / open
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from corpus import ensure_corpus_info, python_files, read_source
from xlalens.analyzers.api import check_source
from xlalens.analyzers.project.config import SettingsResolver

HERE = Path(__file__).resolve().parent
ROOT = HERE / ".review"
VERDICTS = HERE / "review_verdicts.tsv"
FINDINGS = ROOT / "findings.md"
RECORD = ROOT / "findings.json"

PROJECTS: dict[str, str] = {
    "jax": "0.10.2",
    "flax": "0.12.8",
    "optax": "0.2.8",
    "orbax-checkpoint": "0.12.8",
    "maxtext": "0.2.5",
    "google-tunix": "0.1.7",
    "tokamax": "0.0.17",
    "levanter": "1.1",
    "equinox": "0.13.8",
    "torch-xla": "2.9.0",
    "penzai": "0.2.5",
    "dm-haiku": "0.0.17",
}
"""PyPI releases reviewed: the eleven of the first review that PyPI has, penzai and dm-haiku
(reviewed by nobody before), at the versions the JAX oracle (0.10.2) and torch_xla (2.9.0) run."""

REQUIRES_PYTHON: dict[str, str] = {"maxtext": "3.12", "tokamax": "3.12"}
"""Releases that declare a newer Python than the 3.11 xlalens runs on: downloaded for that one."""

LOCAL_ONLY = ("big_vision",)
"""Reviewed projects that only a local checkout provides (``--local NAME=PATH``)."""

CONTEXT = 5
VERDICT_KINDS = ("true", "false", "intended")
_FIELDS = ("project", "path", "line", "code", "verdict", "note")


@dataclass(frozen=True)
class Finding:
    """One finding, keyed as its verdict is."""

    project: str
    path: str
    line: int
    code: str
    message: str

    @property
    def key(self) -> tuple[str, str, int, str]:
        return (self.project, self.path, self.line, self.code)


@dataclass(frozen=True)
class Verdict:
    """What a reviewer decided about one finding."""

    verdict: str
    note: str


def read_verdicts(path: Path = VERDICTS) -> dict[tuple[str, str, int, str], Verdict]:
    """The recorded verdicts, by finding key; a line with an unknown verdict is an error."""
    if not path.is_file():
        return {}
    found: dict[tuple[str, str, int, str], Verdict] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for number, row in enumerate(csv.DictReader(handle, delimiter="\t"), start=2):
            if row["verdict"] not in VERDICT_KINDS:
                raise SystemExit(f"{path}:{number}: verdict {row['verdict']!r} is not one of {VERDICT_KINDS}")
            key = (row["project"], row["path"], int(row["line"]), row["code"])
            found[key] = Verdict(row["verdict"], row.get("note") or "")
    return found


def write_verdicts(verdicts: dict[tuple[str, str, int, str], Verdict], path: Path = VERDICTS) -> None:
    """Write the verdicts sorted by key (stable diffs)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(_FIELDS)
        for key in sorted(verdicts):
            writer.writerow([*key, verdicts[key].verdict, verdicts[key].note])


_RESOLVERS: dict[str, SettingsResolver] = {}


def _check_file(job: tuple[str, str, str]) -> list[Finding]:
    """Check one file with the settings ``xlalens check`` run in the project would give it (its pins,
    what its package says about x64), in a worker process."""
    project, root, relative = job
    resolver = _RESOLVERS.get(root) or _RESOLVERS.setdefault(root, SettingsResolver(root))
    path = Path(root) / relative
    settings = resolver.for_directory(path.parent)
    text = read_source(path)
    return [Finding(project, relative, d.line, d.code, d.message) for d in check_source(text, relative, settings)]


def project_dirs(names: Sequence[str], local: dict[str, Path]) -> dict[str, Path]:
    """Each project's reviewed tree: the whole extracted release, or the local checkout."""
    found: dict[str, Path] = {}
    for name in names:
        if name in local:
            found[name] = local[name]
            continue
        if name not in PROJECTS:
            continue
        python = REQUIRES_PYTHON.get(name, "3.11")
        info = ensure_corpus_info([f"{name}=={PROJECTS[name]}"], ROOT, python)[name]
        found[name] = info.extracted_dir
    return found


def collect(trees: dict[str, Path], jobs: int) -> list[Finding]:
    """Every finding in ``trees``, in project, path and line order."""
    work = [
        (name, str(tree), path.relative_to(tree).as_posix())
        for name, tree in trees.items()
        for path in python_files(tree)
    ]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        found = [finding for findings in pool.map(_check_file, work, chunksize=8) for finding in findings]
    return sorted(found, key=lambda f: (f.project, f.path, f.line, f.code))


def render(
    findings: Iterable[Finding], trees: dict[str, Path], verdicts: dict[tuple[str, str, int, str], Verdict]
) -> str:
    """The review file: each finding under its project, with context and any verdict."""
    out: list[str] = ["# xlalens findings on the reviewed projects", ""]
    current = None
    for finding in findings:
        if finding.project != current:
            current = finding.project
            out += [f"## {current}", ""]
        verdict = verdicts.get(finding.key)
        status = f"{verdict.verdict}: {verdict.note}" if verdict else "OPEN"
        out.append(f"### {finding.path}:{finding.line} {finding.code} [{status}]")
        out.append(f"{finding.message}")
        lines = read_source(trees[finding.project] / finding.path).splitlines()
        start, end = max(1, finding.line - CONTEXT), min(len(lines), finding.line + CONTEXT)
        out.append("```python")
        out += [f"{'>' if n == finding.line else ' '}{n:5d} | {lines[n - 1]}" for n in range(start, end + 1)]
        out += ["```", ""]
    return "\n".join(out) + "\n"


def summarize(findings: Sequence[Finding], verdicts: dict[tuple[str, str, int, str], Verdict]) -> str:
    """Per code: findings and their verdicts; the recorded findings no longer produced, by verdict."""
    per_code: dict[str, Counter[str]] = defaultdict(Counter)
    for finding in findings:
        verdict = verdicts.get(finding.key)
        per_code[finding.code][verdict.verdict if verdict else "open"] += 1
    rows = [f"{'code':<7} {'findings':>8} {'true':>5} {'false':>6} {'intended':>9} {'open':>5}"]
    total: Counter[str] = Counter()
    for code in sorted(per_code):
        counts = per_code[code]
        total.update(counts)
        rows.append(
            f"{code:<7} {sum(counts.values()):>8} {counts['true']:>5} {counts['false']:>6} "
            f"{counts['intended']:>9} {counts['open']:>5}"
        )
    rows.append(
        f"{'all':<7} {sum(total.values()):>8} {total['true']:>5} {total['false']:>6} "
        f"{total['intended']:>9} {total['open']:>5}"
    )
    judged = total["true"] + total["false"] + total["intended"]
    if judged:
        rows.append(f"true: {total['true']} of {judged} judged ({100 * total['true'] / judged:.1f}%)")
    produced = {finding.key for finding in findings}
    reviewed_projects = {finding.project for finding in findings}
    lost = Counter(v.verdict for key, v in verdicts.items() if key[0] in reviewed_projects and key not in produced)
    rows.append(
        "recorded findings no longer produced: "
        + (", ".join(f"{count} {kind}" for kind, count in sorted(lost.items())) or "none")
    )
    return "\n".join(rows)


def _parse_local(values: Sequence[str]) -> dict[str, Path]:
    local: dict[str, Path] = {}
    for value in values:
        name, _, path = value.partition("=")
        if not path or not Path(path).is_dir():
            raise SystemExit(f"--local wants NAME=DIRECTORY, got {value!r}")
        local[name] = Path(path)
    return local


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "summary"))
    parser.add_argument("--project", action="append", default=[], help="only this project (repeatable)")
    parser.add_argument("--local", action="append", default=[], help="NAME=DIRECTORY of a local checkout")
    parser.add_argument("--jobs", type=int, default=2, help="processes checking files")
    args = parser.parse_args(argv)
    local = _parse_local(args.local)
    names = args.project or [*PROJECTS, *LOCAL_ONLY]
    verdicts = read_verdicts()
    if args.command == "run":
        trees = project_dirs(names, local)
        missing = [name for name in names if name not in trees]
        findings = collect(trees, args.jobs)
        ROOT.mkdir(exist_ok=True)
        FINDINGS.write_text(render(findings, trees, verdicts), encoding="utf-8")
        RECORD.write_text(
            json.dumps({"trees": {k: str(v) for k, v in trees.items()}, "findings": [f.__dict__ for f in findings]}),
            encoding="utf-8",
        )
        files = {name: len(python_files(tree)) for name, tree in trees.items()}
        print(", ".join(f"{name} {count} files" for name, count in files.items()))
        if missing:
            print(f"not reviewed (no local checkout given): {', '.join(missing)}")
        print(f"{len(findings)} findings -> {FINDINGS}")
    else:
        if not RECORD.is_file():
            raise SystemExit("no findings recorded yet: run `review.py run` first")
        data = json.loads(RECORD.read_text(encoding="utf-8"))
        findings = [Finding(**item) for item in data["findings"]]
        if args.project:
            findings = [f for f in findings if f.project in args.project]
    print(summarize(findings, verdicts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
