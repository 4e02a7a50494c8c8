"""``xlalens check``: lint files and directories (``-`` reads stdin), print findings, apply fixes.

Exit codes: 0 when nothing is found (or with ``--exit-zero``); 1 when findings remain, a file was
left unanalyzed (``E903``, ``E998``: ignore the code to accept that) or ``--diff`` would change
something; 2 for a usage or configuration error or when xlalens failed on a file (``E900``, also
with ``--exit-zero``: a crashed check is not a clean one).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from xlalens.analyzers.cli.common import (
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXIT_INTERNAL,
    UsageError,
    comma_list,
    flatten,
    positive_int,
    tool_version,
)
from xlalens.analyzers.core.codes import INTERNAL_ERROR, IO_ERROR, is_file_level
from xlalens.analyzers.core.diagnostics import Diagnostic, Severity
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine import registry
from xlalens.analyzers.inputs.fileio import (
    SourceReadError,
    SourceWriteError,
    decode_source,
    encode_source,
    match_newlines,
    read_source,
    write_source,
)
from xlalens.analyzers.output import Report, format_names, get_format
from xlalens.analyzers.output import statistics as statistics_output
from xlalens.analyzers.output.report import display_path
from xlalens.analyzers.project.cache import Cache
from xlalens.analyzers.project.config import Overrides, SettingsResolver, settings_mapping_summary
from xlalens.analyzers.project.discovery import discover, is_force_excluded
from xlalens.analyzers.project.runner import FileResult, RunResult, check_paths, check_stdin

CACHE_DIR_ENV = "XLALENS_CACHE_DIR"
DEFAULT_CACHE_DIR = ".xlalens_cache"


def add_check(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check",
        help="Check files for tracing, retracing, Pallas and sharding problems.",
        description="Check Python files and directories (default: the current directory).",
    )
    parser.set_defaults(handler=_run_check)
    parser.add_argument("paths", nargs="*", metavar="PATH", help="Files or directories; - reads stdin.")
    selection = parser.add_argument_group("rule selection (codes or prefixes such as JX1, TX)")
    for flag, help_text in (
        ("--select", "Run only these rules (replaces the configured selection)."),
        ("--ignore", "Do not run these rules."),
        ("--extend-select", "Run these rules in addition to the selection."),
    ):
        selection.add_argument(flag, action="append", type=comma_list, metavar="CODES", help=help_text)
    selection.add_argument(
        "--preview",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="Run preview rules too.",
    )
    fixing = parser.add_argument_group("fixes")
    fixing.add_argument("--fix", action=argparse.BooleanOptionalAction, default=False, help="Apply safe fixes.")
    fixing.add_argument(
        "--unsafe-fixes",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="Apply (and count as fixable) fixes that may change behaviour too.",
    )
    fixing.add_argument("--diff", action="store_true", help="Print the diffs --fix would apply; write nothing.")
    fixing.add_argument(
        "--fix-only",
        action="store_true",
        help="Apply fixes and report only how many; leftover findings do not fail the run (implies --fix).",
    )
    fixing.add_argument(
        "--add-noqa",
        action="store_true",
        help="Add a # noqa comment for every finding (merged into existing ones) and report how many.",
    )
    fixing.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="Exit 1 when fixes were applied, even if no findings remain.",
    )
    output = parser.add_argument_group("output")
    output.add_argument(
        "--output-format",
        choices=format_names(),
        help="How to print findings (default: the configured output-format, else concise).",
    )
    output.add_argument("-o", "--output-file", metavar="FILE", help="Write the report to FILE instead of stdout.")
    output.add_argument("--statistics", action="store_true", help="Print how many findings each rule has instead.")
    output.add_argument("-q", "--quiet", action="store_true", help="Print findings and nothing else.")
    output.add_argument("-e", "--exit-zero", action="store_true", help="Exit 0 even when findings remain.")
    files = parser.add_argument_group("files and configuration")
    files.add_argument("--config", metavar="FILE", help="Use this configuration file instead of searching.")
    files.add_argument(
        "--exclude",
        action="append",
        type=comma_list,
        metavar="GLOBS",
        help="Replace the exclude patterns.",
    )
    files.add_argument(
        "--extend-exclude",
        action="append",
        type=comma_list,
        metavar="GLOBS",
        help="Exclude these too.",
    )
    files.add_argument(
        "--force-exclude",
        action="store_true",
        help="Apply exclude patterns to files named on the command line too (for pre-commit).",
    )
    files.add_argument(
        "--respect-gitignore",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="Skip files that .gitignore files ignore.",
    )
    files.add_argument("--stdin-filename", metavar="PATH", help="The name of the file read from stdin.")
    files.add_argument("--show-files", action="store_true", help="List the files that would be checked.")
    files.add_argument(
        "--show-settings",
        action="store_true",
        help="Print the settings that apply to the first path.",
    )
    run = parser.add_argument_group("performance")
    run.add_argument("-n", "--no-cache", action="store_true", help="Neither read nor write the cache.")
    run.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"Cache directory (env {CACHE_DIR_ENV}; default: {DEFAULT_CACHE_DIR} in the root).",
    )
    run.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        metavar="N",
        help="Worker processes (default: all CPUs; 1 = none).",
    )


def _overrides(args: argparse.Namespace) -> Overrides:
    return Overrides(
        select=flatten(args.select),
        ignore=flatten(args.ignore) or (),
        extend_select=flatten(args.extend_select) or (),
        exclude=flatten(args.exclude),
        extend_exclude=flatten(args.extend_exclude) or (),
        preview=args.preview,
    )


def _resolver(args: argparse.Namespace) -> SettingsResolver:
    overrides = _overrides(args)
    try:
        overrides.validate()
    except registry.UnknownSelectorError as error:
        raise UsageError(str(error)) from None
    return SettingsResolver(Path.cwd(), config_file=args.config, overrides=overrides)


def _cache(args: argparse.Namespace, resolver: SettingsResolver) -> Cache | None:
    if args.no_cache:
        return None
    directory = args.cache_dir or os.environ.get(CACHE_DIR_ENV)
    if not directory:
        root = resolver.for_directory(resolver.cwd).root or resolver.cwd
        directory = os.path.join(root, DEFAULT_CACHE_DIR)
    return Cache(Path(resolver.cwd, directory), tool_version())


def _exit_code(args: argparse.Namespace, diagnostics: Sequence[Diagnostic], fixed: int = 0) -> int:
    if any(d.code == INTERNAL_ERROR for d in diagnostics):
        return EXIT_INTERNAL
    if args.exit_non_zero_on_fix and fixed:
        return EXIT_FINDINGS
    if args.exit_zero or args.fix_only:
        return EXIT_CLEAN
    # Informational rule findings do not fail a build; a file left unanalyzed (E903, E998) does,
    # unless its code is ignored: CI must not pass on code nobody checked.
    failing = any(d.severity is not Severity.INFO or is_file_level(d.code) for d in diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _print_report(args: argparse.Namespace, report: Report, out: TextIO) -> None:
    if args.output_file:
        try:
            with open(args.output_file, "w", encoding="utf-8", newline="") as file:
                _render(args, report, file)
        except OSError as error:
            raise UsageError(f"cannot write {args.output_file}: {error.strerror or error}") from None
    else:
        _render(args, report, out)


def _render(args: argparse.Namespace, report: Report, out: TextIO) -> None:
    if args.fix_only:
        if not args.quiet:
            noun = "error" if report.fixed == 1 else "errors"
            print(f"Fixed {report.fixed} {noun}." if report.fixed else "No errors fixed.", file=out)
    elif args.statistics:
        statistics_output.render(report, out, as_json=args.output_format in ("json", "json-lines"))
    else:
        get_format(args.output_format)(report, out)


def _report(args: argparse.Namespace, run: RunResult, resolver: SettingsResolver) -> Report:
    settings = resolver.for_directory(resolver.cwd)
    return Report(
        diagnostics=run.diagnostics,
        fixed=0 if args.diff else run.fixed,
        unsafe_fixes=args.unsafe_fixes,
        cwd=resolver.cwd,
        version=tool_version(),
        explainer_base_url=settings.explainer_base_url,
        quiet=args.quiet,
    )


def _print_diffs(args: argparse.Namespace, run: RunResult) -> int:
    for diff in run.diffs:
        sys.stdout.write(diff)
    if not args.quiet:
        count = run.fixed
        noun = "error" if count == 1 else "errors"
        print(f"Would fix {count} {noun}." if count else "No errors would be fixed.", file=sys.stderr)
    return EXIT_CLEAN if args.exit_zero or not run.diffs else EXIT_FINDINGS


def _run_stdin(args: argparse.Namespace, resolver: SettingsResolver) -> int:
    data = sys.stdin.buffer.read()
    name = args.stdin_filename
    path = resolver.absolute(name) if name else "-"
    if name and args.force_exclude and is_force_excluded(name, resolver):
        if args.fix and not args.diff:
            sys.stdout.buffer.write(data)  # an editor piping through us expects its text back
        return EXIT_CLEAN
    settings = resolver.for_file(path) if name else resolver.for_directory(resolver.cwd)
    result = check_stdin(data, path, settings, fix=args.fix, unsafe=args.unsafe_fixes, diff=args.diff)
    run = RunResult([result])
    if args.diff:
        return _print_diffs(args, run)
    report = _report(args, run, resolver)
    _remember_stdin_text(report, data, path)
    if args.fix:
        _write_fixed_stdin(result, data, path)
        _print_report(args, report, sys.stderr)  # stdout carries the source
    else:
        _print_report(args, report, sys.stdout)
    return _exit_code(args, report.diagnostics, report.fixed)


def _remember_stdin_text(report: Report, data: bytes, path: str) -> None:
    # Undecodable input already has its E902 diagnostic; there is just no text to show then.
    with contextlib.suppress(SourceReadError):
        report.sources[path] = SourceText(decode_source(data, path).text)


def _write_fixed_stdin(result: FileResult, data: bytes, path: str) -> None:
    """Echo the fixed source in the input's encoding; the input itself when it cannot be."""
    output = data  # never lose the user's text
    if result.source is not None:
        with contextlib.suppress(SourceReadError, SourceWriteError):
            output = encode_source(decode_source(data, path), result.source)
    sys.stdout.buffer.write(output)
    sys.stdout.flush()


def _add_noqa(args: argparse.Namespace, files: Sequence[str], resolver: SettingsResolver) -> int:
    """``--add-noqa``: silence every current finding in place, as ruff does when adopting a rule set.

    The findings come from the runner that ``check`` uses, so a file the analyzer fails on (an
    exception, a time-out, a crashed worker) is reported and left as it is while the others get
    their comments, and ``--jobs`` applies. The comments are then written here, one file at a time.
    """
    # No cache: a cached result does not say which bytes its findings were computed for, and the
    # comments must go on exactly the lines those findings are on.
    run = check_paths(
        files,
        resolver.for_file,
        jobs=args.jobs,
        progress=False if args.quiet else None,
        display=lambda path: display_path(path, resolver.cwd),
    )
    added = 0
    failed = False
    for result in run.files:
        shown = display_path(result.path, resolver.cwd)
        unchecked = [d for d in result.diagnostics if d.code in (INTERNAL_ERROR, IO_ERROR)]
        for diagnostic in unchecked:
            level = "error" if diagnostic.code == INTERNAL_ERROR else "warning"
            print(f"{level}: {shown}: {diagnostic.code} {diagnostic.message}", file=sys.stderr)
        failed = failed or any(d.code == INTERNAL_ERROR for d in unchecked)
        if unchecked or result.digest is None:
            continue
        try:
            added += _write_noqa(result)
        except (SourceReadError, SourceWriteError) as error:
            print(f"warning: {shown}: {error}", file=sys.stderr)
    print(f"Added {added} noqa directive{'' if added == 1 else 's'}.", file=sys.stderr)
    return EXIT_INTERNAL if failed else EXIT_CLEAN


def _write_noqa(result: FileResult) -> int:
    """Add the comments for ``result``'s findings to its file; return how many were added.

    Raises:
        SourceReadError: if the file cannot be read any more.
        SourceWriteError: if it changed since the runner read it (the findings' lines may have
            moved), or cannot be written; it is then left as it is.
    """
    from xlalens.analyzers.core.noqa import add_noqa_comments

    source = read_source(result.path)
    if source.digest != result.digest:
        raise SourceWriteError("noqa comments not written: the file changed since xlalens read it; run xlalens again")
    text, count = add_noqa_comments(source.text, result.diagnostics)
    if count:
        write_source(source, match_newlines(source.text, text))
    return count


def _run_check(args: argparse.Namespace) -> int:
    resolver = _resolver(args)
    # Like ruff, the report format and unsafe fixes may come from the configuration of the run's directory.
    configured = resolver.for_directory(resolver.cwd)
    if args.output_format is None:
        args.output_format = configured.output_format or "concise"
    if args.unsafe_fixes is None:
        args.unsafe_fixes = bool(configured.unsafe_fixes)
    args.fix = args.fix or args.fix_only
    paths = args.paths or ["."]
    if args.paths == ["-"] or (args.stdin_filename and not args.paths):
        return _run_stdin(args, resolver)
    if args.show_settings:
        settings = resolver.for_path(paths[0])
        found = resolver.config_file(paths[0])
        shown = {"settings-file": str(found) if found else None, **settings_mapping_summary(settings)}
        print(json.dumps(shown, indent=2, default=list))
        return EXIT_CLEAN
    files = discover(paths, resolver, force_exclude=args.force_exclude, respect_gitignore=args.respect_gitignore)
    if args.show_files:
        for file in files:
            print(file)
        return EXIT_CLEAN
    if args.add_noqa:
        return _add_noqa(args, [str(f) for f in files], resolver)
    cache = _cache(args, resolver)
    run = check_paths(
        [str(f) for f in files],
        resolver.for_file,
        jobs=args.jobs,
        cache=cache,
        fix=args.fix,
        unsafe=args.unsafe_fixes,
        diff=args.diff,
        progress=False if args.quiet else None,
        display=lambda path: display_path(path, resolver.cwd),
    )
    if cache is not None and cache.errors and not args.quiet:
        print(f"warning: {cache.errors[0]}", file=sys.stderr)
    if args.diff:
        return _print_diffs(args, run)
    report = _report(args, run, resolver)
    if not files and not args.quiet:
        print("warning: no Python files found under the given paths", file=sys.stderr)
    _print_report(args, report, sys.stdout)
    return _exit_code(args, report.diagnostics, report.fixed)
