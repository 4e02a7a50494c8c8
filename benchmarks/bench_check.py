"""Benchmark ``xlalens check`` on real JAX projects against the bare ``ast.parse`` floor.

Every measurement runs in a fresh Python process (so "cold" really is cold and peak RSS
belongs to that measurement alone), is repeated ``--repeat`` times, and is reported as
the best and the median. The budgets the project is judged on are printed after each
table; see ``benchmarks/README.md``.

Usage::

    python benchmarks/bench_check.py                      # every corpus, 3 repeats
    python benchmarks/bench_check.py --corpus optax --repeat 5 --json optax.json
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from corpus import (
    DEFAULT_NAMES,
    DEFAULT_ROOT,
    canonical_name,
    ensure_corpus_info,
    python_files,
    read_source,
    short_name,
)

COLD_OVER_AST_TARGET = 0.5
"""Cold one-process throughput must be at least this fraction of ``ast.parse``'s."""
WARM_OVER_COLD_TARGET = 0.05
"""A warm (fully cached) re-check may take at most this fraction of a cold one."""
OPTAX_COLD_TARGET_S = 1.0
"""``xlalens check`` of optax on one core, without a cache, must take less than this."""

CLI_BOOTSTRAP = "import sys; from xlalens.analyzers.cli.main import main; sys.argv[0] = 'xlalens'; sys.exit(main())"
"""What the ``xlalens`` console script does, without depending on ``PATH`` or shims."""

AST = "ast.parse floor, 1 process"
API = "xlalens check_source, 1 process"
CLI_ONE = "xlalens CLI cold, --jobs 1"
CLI_ALL = "xlalens CLI cold, --jobs {jobs}"
CLI_WARM = "xlalens CLI warm, --jobs {jobs}"


@dataclass
class Corpus:
    """The files one table is about."""

    label: str
    versions: dict[str, str]
    roots: list[Path]
    files: list[Path]
    lines: int


@dataclass
class Measurement:
    """The repeated timings of one way of checking one corpus."""

    corpus: str
    name: str
    lines: int
    times: list[float] = field(default_factory=list)
    peak_rss_mib: float | None = None
    import_s: float | None = None
    diagnostics: int | None = None
    file_errors: int | None = None
    error: str | None = None
    note: str | None = None

    @property
    def best(self) -> float | None:
        """The fastest run, in seconds."""
        return min(self.times) if self.times else None

    @property
    def median(self) -> float | None:
        """The median run, in seconds."""
        return statistics.median(self.times) if self.times else None

    @property
    def lines_per_s(self) -> float | None:
        """Throughput of the fastest run."""
        best = self.best
        return self.lines / best if best else None

    def as_json(self) -> dict[str, object]:
        """The measurement with its derived figures, for ``--json``."""
        data = asdict(self)
        data.update(best=self.best, median=self.median, lines_per_s=self.lines_per_s)
        return data


@dataclass
class ProcessResult:
    """What a finished child process left: exit status, time, memory and output."""

    returncode: int
    wall_s: float
    maxrss_mib: float | None
    stdout: str
    stderr: str


# --------------------------------------------------------------------------- workers


def _worker(kind: str, file_list: Path) -> int:
    """Run one in-process loop (``ast`` or ``api``) over the listed files and print JSON."""
    paths = [Path(line) for line in file_list.read_text(encoding="utf-8").splitlines() if line]
    report: dict[str, object] = {"import_s": 0.0, "diagnostics": 0, "file_errors": 0}
    if kind == "ast":
        check = _ast_check
    else:
        start = time.perf_counter()
        from xlalens.analyzers.api import check_source
        from xlalens.analyzers.engine.registry import all_rules

        all_rules()  # the rules are imported on the first check: count them with the API's import
        report["import_s"] = time.perf_counter() - start
        check = check_source
    start = time.perf_counter()
    diagnostics, errors, first_error = _loop(check, paths)
    report["seconds"] = time.perf_counter() - start
    report.update(diagnostics=diagnostics, file_errors=errors, first_error=first_error)
    report["maxrss_mib"] = _maxrss_mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    print(json.dumps(report))
    return 0


def _ast_check(text: str, path: str) -> list[object]:
    """The floor: parse and nothing else."""
    ast.parse(text, filename=path)
    return []


def _loop(check: Callable[[str, str], Sequence[object]], paths: list[Path]) -> tuple[int, int, str]:
    """Read and check every file; count diagnostics and files whose check raised."""
    diagnostics = errors = 0
    first_error = ""
    for path in paths:
        try:
            diagnostics += len(check(read_source(path), str(path)))
        except Exception as exc:  # a benchmark reports, it does not stop
            errors += 1
            first_error = first_error or f"{path}: {type(exc).__name__}: {exc}"
    return diagnostics, errors, first_error


def _maxrss_mib(maxrss: int) -> float:
    """``ru_maxrss`` in MiB (it is KiB on Linux, bytes on macOS)."""
    return maxrss / (1024 * 1024) if sys.platform == "darwin" else maxrss / 1024


# --------------------------------------------------------------------------- processes


def run_process(command: Sequence[str], cwd: Path) -> ProcessResult:
    """Run ``command`` and return its wall time and peak RSS (largest process in its tree)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=cwd, stdout=out, stderr=err, text=True)
        maxrss: float | None = None
        if hasattr(os, "wait4"):
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            maxrss = _maxrss_mib(usage.ru_maxrss)
        else:  # pragma: no cover - not Linux/macOS
            proc.wait()
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return ProcessResult(proc.returncode, wall, maxrss, out.read(), err.read())


def _failure(result: ProcessResult) -> str:
    """A one-line reason a child process failed."""
    lines = (result.stderr or result.stdout).strip().splitlines()
    return f"exit {result.returncode}: {lines[-1] if lines else 'no output'}"


def cache_bytecode(workdir: Path, cli_error: str | None) -> None:
    """Let every measured process read compiled bytecode, as an installed xlalens does.

    With ``PYTHONDONTWRITEBYTECODE`` set (some sandboxes and CI images set it) each process
    would compile every module it imports, which an installation never does. The bytecode goes
    to a folder under ``workdir`` (``PYTHONPYCACHEPREFIX``), so nothing is written next to the
    sources, and one process compiles it before anything is timed.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    modules = ["xlalens.analyzers.api", "xlalens.analyzers.engine.registry"]
    if cli_error is None:
        modules += ["xlalens.analyzers.cli.main", "xlalens.analyzers.project.runner", "concurrent.futures.process"]
    prime = "; ".join(f"import {module}" for module in modules) + "; xlalens.analyzers.engine.registry.all_rules()"
    subprocess.run([sys.executable, "-c", prime], capture_output=True, check=False)


def probe(module: str, attribute: str) -> str | None:
    """``None`` if ``module.attribute`` imports in a fresh interpreter, else why not."""
    code = f"import {module} as m; m.{attribute}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode == 0:
        return None
    lines = done.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit {done.returncode}"


# --------------------------------------------------------------------------- measuring


class Bench:
    """Runs every measurement of one corpus and collects the results."""

    def __init__(self, repeat: int, jobs: int, cli: list[str], workdir: Path) -> None:
        self.repeat = repeat
        self.jobs = jobs
        self.cli = cli
        self.workdir = workdir
        self.script = Path(__file__).resolve()

    def in_process(self, corpus: Corpus, kind: str, name: str) -> Measurement:
        """Time the read+check loop in a fresh process, ``repeat`` times."""
        result = Measurement(corpus.label, name, corpus.lines)
        file_list = self.workdir / f"{corpus.label}.files"
        file_list.write_text("".join(f"{p}\n" for p in corpus.files), encoding="utf-8")
        command = [sys.executable, str(self.script), "--worker", kind, str(file_list)]
        for _ in range(self.repeat):
            done = run_process(command, self.workdir)
            if done.returncode != 0:
                result.error = _failure(done)
                break
            report = json.loads(done.stdout.strip().splitlines()[-1])
            result.times.append(float(report["seconds"]))
            result.peak_rss_mib = max(result.peak_rss_mib or 0.0, float(report["maxrss_mib"]))
            result.import_s = min(result.import_s or float("inf"), float(report["import_s"]))
            result.diagnostics = int(report["diagnostics"])
            result.file_errors = int(report["file_errors"])
            if report.get("first_error"):
                result.note = f"{result.file_errors} file(s) raised, e.g. {report['first_error']}"
        return result

    def cli_run(self, corpus: Corpus, result: Measurement, options: list[str]) -> None:
        """Run the CLI once on the corpus and add its wall time and RSS to ``result``."""
        command = [*self.cli, "check", *options, "--exit-zero", "--quiet"]
        done = run_process([*command, *map(str, corpus.roots)], self.workdir)
        if done.returncode != 0:
            result.error = _failure(done)
            return
        result.times.append(done.wall_s)
        if done.maxrss_mib is not None:
            result.peak_rss_mib = max(result.peak_rss_mib or 0.0, done.maxrss_mib)

    def cli_one_core(self, corpus: Corpus) -> Measurement:
        """``xlalens check --no-cache --jobs 1``, ``repeat`` times."""
        result = Measurement(corpus.label, CLI_ONE, corpus.lines)
        for _ in range(self.repeat):
            self.cli_run(corpus, result, ["--no-cache", "--jobs", "1"])
            if result.error:
                break
        return result

    def cli_cached(self, corpus: Corpus) -> tuple[Measurement, Measurement]:
        """Cold run into a fresh cache, then the same command warm; ``repeat`` times each."""
        cold = Measurement(corpus.label, CLI_ALL.format(jobs=self.jobs), corpus.lines)
        warm = Measurement(corpus.label, CLI_WARM.format(jobs=self.jobs), corpus.lines)
        for _ in range(self.repeat):
            cache = Path(tempfile.mkdtemp(prefix="cache-", dir=self.workdir))
            options = ["--jobs", str(self.jobs), "--cache-dir", str(cache)]
            self.cli_run(corpus, cold, options)
            if cold.error:
                warm.error = "not run: the cold run failed"
            else:
                self.cli_run(corpus, warm, options)
            shutil.rmtree(cache, ignore_errors=True)
            if cold.error or warm.error:
                break
        return cold, warm


def measure(bench: Bench, corpus: Corpus, api_error: str | None, cli_error: str | None) -> list[Measurement]:
    """Every measurement of one corpus, in table order."""
    results = [bench.in_process(corpus, "ast", AST)]
    if api_error:
        results.append(Measurement(corpus.label, API, corpus.lines, error=api_error))
    else:
        results.append(bench.in_process(corpus, "api", API))
    if cli_error:
        names = (CLI_ONE, CLI_ALL.format(jobs=bench.jobs), CLI_WARM.format(jobs=bench.jobs))
        results += [Measurement(corpus.label, n, corpus.lines, error=cli_error) for n in names]
    else:
        results.append(bench.cli_one_core(corpus))
        results.extend(bench.cli_cached(corpus))
    return results


def fixed_costs(repeat: int, workdir: Path, cli_error: str | None) -> dict[str, float]:
    """Best wall time of a bare interpreter start and of importing the CLI, in seconds.

    Every CLI run pays both whatever the corpus size; they bound how small a warm
    re-check can get.
    """
    commands = {"python startup": [sys.executable, "-c", "pass"]}
    if cli_error is None:
        commands["import xlalens.analyzers.cli.main"] = [
            sys.executable,
            "-c",
            "import xlalens.analyzers.cli.main",
        ]
    costs: dict[str, float] = {}
    for name, command in commands.items():
        runs = [run_process(command, workdir) for _ in range(repeat)]
        if all(run.returncode == 0 for run in runs):
            costs[name] = min(run.wall_s for run in runs)
    return costs


# --------------------------------------------------------------------------- budgets


@dataclass
class Budget:
    """One figure the project is judged on, and whether it is met."""

    corpus: str
    name: str
    value: float | None
    target: str
    met: bool | None

    def line(self) -> str:
        """The budget as one table line."""
        shown = "n/a" if self.value is None else f"{self.value:.3f}"
        verdict = {True: "ok", False: "MISSED", None: "not measured"}[self.met]
        return f"  budget  {self.name:<40} {shown:>8}   target {self.target:<8} {verdict}"


def _ratio(numerator: Measurement, denominator: Measurement) -> float | None:
    """``numerator.best / denominator.best`` when both were measured without error."""
    if numerator.error or denominator.error or not numerator.best or not denominator.best:
        return None
    return numerator.best / denominator.best


def _budget(corpus: str, name: str, value: float | None, target: str, ok: bool) -> Budget:
    """A budget line; ``ok`` is ignored when ``value`` could not be measured."""
    return Budget(corpus, name, value, target, None if value is None else ok)


def budgets(corpus: Corpus, results: list[Measurement], jobs: int) -> list[Budget]:
    """The budget figures of one corpus: cold÷ast throughput, warm÷cold, optax on one core."""
    by_name = {r.name: r for r in results}
    # Same lines in both, so the throughput ratio is the inverse time ratio.
    speed = _ratio(by_name[AST], by_name[API])
    warm = _ratio(by_name[CLI_WARM.format(jobs=jobs)], by_name[CLI_ALL.format(jobs=jobs)])
    found = [
        _budget(
            corpus.label,
            "check_source ÷ ast.parse throughput",
            speed,
            ">= 0.5",
            speed is not None and speed >= COLD_OVER_AST_TARGET,
        ),
        _budget(
            corpus.label,
            f"warm ÷ cold time (--jobs {jobs})",
            warm,
            "<= 0.05",
            warm is not None and warm <= WARM_OVER_COLD_TARGET,
        ),
    ]
    if corpus.label == "optax":
        one = by_name[CLI_ONE]
        seconds = None if one.error else one.best
        found.append(
            _budget(
                corpus.label,
                "optax cold, one core (s)",
                seconds,
                "< 1 s",
                seconds is not None and seconds < OPTAX_COLD_TARGET_S,
            )
        )
    return found


# --------------------------------------------------------------------------- printing


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def print_table(corpus: Corpus, results: list[Measurement], found: list[Budget]) -> None:
    """One corpus's table, its notes and its budgets."""
    versions = ", ".join(f"{n} {v}" for n, v in corpus.versions.items())
    print(f"\n== {corpus.label} ({versions}): {len(corpus.files):,} files, {corpus.lines:,} lines")
    print(f"  {'measurement':<34} {'best s':>8} {'median s':>9} {'lines/s':>11}", end="")
    print(f" {'peak RSS MiB':>13}")
    for r in results:
        if r.error and not r.times:
            print(f"  {r.name:<34} n/a: {r.error}")
            continue
        print(
            f"  {r.name:<34} {_fmt(r.best, '8.3f')} {_fmt(r.median, '9.3f')}"
            f" {_fmt(r.lines_per_s, '11,.0f')} {_fmt(r.peak_rss_mib, '13.1f')}"
        )
        for remark in (r.error, r.note):
            if remark:
                print(f"  {'':<34} note: {remark}")
    api = next(r for r in results if r.name == API)
    if api.times:
        print(
            f"  (check_source: {api.diagnostics} diagnostics; importing it and its rules took"
            f" {api.import_s:.3f} s, not counted in the loop time)"
        )
    for budget in found:
        print(budget.line())


def print_header(corpora: list[Corpus], jobs: int, repeat: int) -> None:
    """The environment the figures were taken on."""
    print(f"Python {platform.python_version()} ({sys.executable}) on {platform.platform()}")
    print(f"CPU count: {os.cpu_count()} (CLI all-cores runs use --jobs {jobs}); repeats: {repeat}")
    versions = {n: v for c in corpora for n, v in c.versions.items()}
    print("Corpus: " + ", ".join(f"{n} {v}" for n, v in versions.items()))


# --------------------------------------------------------------------------- corpora


def load_corpora(names: Sequence[str], root: Path, stage: Path) -> list[Corpus]:
    """Fetch the corpora and copy each into ``stage``, plus an ``all`` corpus of them together.

    The copies live outside this repository so that the CLI sees no project
    configuration and no ``.gitignore`` that would change which files it checks.
    """
    infos = ensure_corpus_info(names, root)
    corpora: list[Corpus] = []
    for name, info in infos.items():
        label = short_name(name)
        target = stage / label / info.source_dir.name
        shutil.copytree(info.source_dir, target, ignore=shutil.ignore_patterns("__pycache__"))
        files = python_files(target)
        lines = sum(len(read_source(p).splitlines()) for p in files)
        corpora.append(Corpus(label, {name: info.version}, [target], files, lines))
    if len(corpora) > 1:
        corpora.append(
            Corpus(
                "all",
                {k: v for c in corpora for k, v in c.versions.items()},
                [r for c in corpora for r in c.roots],
                [f for c in corpora for f in c.files],
                sum(c.lines for c in corpora),
            )
        )
    return corpora


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus",
        action="append",
        metavar="NAME",
        help=f"corpus to run (repeatable; default: {', '.join(map(short_name, DEFAULT_NAMES))})",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (default 3)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also save the results here")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="jobs for the all-cores runs")
    parser.add_argument(
        "--cli",
        default=None,
        help="command that runs xlalens (default: this Python importing xlalens.analyzers.cli.main)",
    )
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT, help="corpus cache folder")
    parser.add_argument("--worker", nargs=2, metavar=("KIND", "FILES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Fetch the corpora, measure, print the tables, optionally save JSON."""
    args = parse_args(argv)
    if args.worker:
        return _worker(args.worker[0], Path(args.worker[1]))
    names = [canonical_name(n) for n in (args.corpus or DEFAULT_NAMES) if n != "all"]
    cli = shlex.split(args.cli) if args.cli else [sys.executable, "-c", CLI_BOOTSTRAP]
    api_error = probe("xlalens.analyzers.api", "check_source")
    cli_error = None if args.cli else probe("xlalens.analyzers.cli.main", "main")
    with tempfile.TemporaryDirectory(prefix="xlalens-bench-") as tmp:
        workdir = Path(tmp)
        corpora = load_corpora(list(dict.fromkeys(names)), args.root, workdir / "corpus")
        if api_error is None:
            cache_bytecode(workdir, cli_error)
        print_header(corpora, args.jobs, args.repeat)
        if api_error is None:
            print("Bytecode: compiled once before timing, as an installation has it (PYTHONPYCACHEPREFIX)")
        for what, error in (("xlalens API", api_error), ("xlalens CLI", cli_error)):
            if error:
                print(f"NOTE: {what} not importable yet ({error}); its rows are n/a.")
        costs = fixed_costs(args.repeat, workdir, cli_error if not args.cli else "custom CLI")
        if costs:
            shown = ", ".join(f"{name} {seconds:.3f} s" for name, seconds in costs.items())
            print(f"Fixed cost of every CLI run (best): {shown}")
        bench = Bench(args.repeat, args.jobs, cli, workdir)
        all_results: list[Measurement] = []
        all_budgets: list[Budget] = []
        for corpus in corpora:
            results = measure(bench, corpus, api_error, cli_error)
            found = budgets(corpus, results, args.jobs)
            print_table(corpus, results, found)
            all_results += results
            all_budgets += found
    if args.json:
        save_json(args, corpora, costs, all_results, all_budgets)
    return 0


def save_json(
    args: argparse.Namespace,
    corpora: list[Corpus],
    costs: dict[str, float],
    results: list[Measurement],
    found: list[Budget],
) -> None:
    """Write the environment, corpora, measurements and budgets to ``args.json``."""
    data = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "jobs": args.jobs,
        "repeat": args.repeat,
        "fixed_costs_s": costs,
        "corpora": {c.label: {"versions": c.versions, "files": len(c.files), "lines": c.lines} for c in corpora},
        "results": [r.as_json() for r in results],
        "budgets": [asdict(b) for b in found],
    }
    args.json.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    print(f"\nsaved {args.json}")


if __name__ == "__main__":
    sys.exit(main())
