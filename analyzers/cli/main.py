"""The ``xlalens`` command line, following ruff's conventions so CI setups need nothing new.

Subcommands (each is built by one ``_add_*`` function, so adding ``server``, ``explain``, ``calc``
or ``annotate`` later means adding one more function to ``_SUBCOMMANDS``):

* ``xlalens check [PATH ...]`` lints files and directories (``-`` reads stdin).
* ``xlalens rule CODE`` / ``xlalens rule --all`` prints rule documentation.
* ``xlalens server`` runs the language server; ``xlalens annotate FILE`` prints inferred array types.

Exit codes: 0 when nothing is found (or with ``--exit-zero``), 1 when findings remain (or ``--diff``
would change something), 2 for a usage or configuration error.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from xlalens.analyzers.cli.common import EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE, UsageError
from xlalens.analyzers.cli.explain import add_calc, add_explain
from xlalens.analyzers.cli.logs import add_logs
from xlalens.analyzers.core.codes import NEWER_SYNTAX
from xlalens.analyzers.core.diagnostics import Diagnostic, Severity
from xlalens.analyzers.core.settings import Settings
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine import registry
from xlalens.analyzers.engine.rule import FixAvailability, Rule
from xlalens.analyzers.inputs.fileio import SourceReadError, SourceWriteError, decode_source, encode_source
from xlalens.analyzers.output import Report, format_names, get_format
from xlalens.analyzers.output import statistics as statistics_output
from xlalens.analyzers.output.report import display_path
from xlalens.analyzers.project.cache import Cache
from xlalens.analyzers.project.config import (
    ConfigError,
    Overrides,
    SettingsResolver,
    settings_mapping_summary,
)
from xlalens.analyzers.project.discovery import DiscoveryError, discover, is_force_excluded
from xlalens.analyzers.project.runner import FileResult, RunResult, check_paths, check_stdin

if TYPE_CHECKING:
    from xlalens.analyzers.annotate import Annotation

CACHE_DIR_ENV = "XLALENS_CACHE_DIR"
DEFAULT_CACHE_DIR = ".xlalens_cache"


@functools.cache
def tool_version() -> str:
    """The xlalens version (``0.0.0+unknown`` when it cannot be found)."""
    import xlalens.analyzers

    version = getattr(xlalens.analyzers, "__version__", None)
    if isinstance(version, str):
        return version
    from importlib import metadata  # ~15 ms to import: only when the package has no __version__

    try:
        return metadata.version("xlalens")
    except metadata.PackageNotFoundError:
        return "0.0.0+unknown"


# --- argument parsing -------------------------------------------------------------------------


def _comma_list(value: str) -> list[str]:
    """``"JX1, TX201"`` -> ``["JX1", "TX201"]`` (list flags take commas and may also repeat)."""
    return [part.strip() for part in value.split(",") if part.strip()]


def _positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {value!r}")
    return number


def _flatten(groups: list[list[str]] | None) -> tuple[str, ...] | None:
    return None if groups is None else tuple(s for group in groups for s in group)


def _add_check(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
        selection.add_argument(flag, action="append", type=_comma_list, metavar="CODES", help=help_text)
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
        default=False,
        help="Apply (and count as fixable) fixes that may change behaviour too.",
    )
    fixing.add_argument("--diff", action="store_true", help="Print the diffs --fix would apply; write nothing.")
    output = parser.add_argument_group("output")
    output.add_argument("--output-format", choices=format_names(), default="concise", help="How to print findings.")
    output.add_argument("--statistics", action="store_true", help="Print how many findings each rule has instead.")
    output.add_argument("-q", "--quiet", action="store_true", help="Print findings and nothing else.")
    output.add_argument("--exit-zero", action="store_true", help="Exit 0 even when findings remain.")
    files = parser.add_argument_group("files and configuration")
    files.add_argument("--config", metavar="FILE", help="Use this configuration file instead of searching.")
    files.add_argument(
        "--exclude",
        action="append",
        type=_comma_list,
        metavar="GLOBS",
        help="Replace the exclude patterns.",
    )
    files.add_argument(
        "--extend-exclude",
        action="append",
        type=_comma_list,
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
    run.add_argument("--no-cache", action="store_true", help="Neither read nor write the cache.")
    run.add_argument(
        "--cache-dir",
        metavar="DIR",
        help=f"Cache directory (env {CACHE_DIR_ENV}; default: {DEFAULT_CACHE_DIR} in the root).",
    )
    run.add_argument(
        "-j",
        "--jobs",
        type=_positive_int,
        metavar="N",
        help="Worker processes (default: all CPUs; 1 = none).",
    )


def _add_rule(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("rule", help="Explain a rule.", description="Print a rule's documentation.")
    parser.set_defaults(handler=_run_rule)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("code", nargs="?", metavar="CODE", help="A rule code such as JX101.")
    which.add_argument("--all", action="store_true", help="Every rule.")
    parser.add_argument("--output-format", choices=("text", "json"), default="text")


def _add_server(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from xlalens.server.app import add_arguments  # no pygls here: that is imported when the server runs

    parser = subparsers.add_parser(
        "server",
        help="Run the language server.",
        description="Run the xlalens language server over stdio (editors start it this way), TCP or WebSockets.",
    )
    parser.set_defaults(handler=_run_server)
    add_arguments(parser)


def _add_annotate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "annotate",
        help="Print a file with inferred array dtypes and shapes inline.",
        description="Print FILE with the inferred dtype[shape] of each array assignment written after its "
        "target (syntax-highlighted on a terminal, plain text when piped). Only values the analysis is "
        "certain of are shown.",
    )
    parser.set_defaults(handler=_run_annotate)
    parser.add_argument("file", metavar="FILE", help="A Python file.")


_SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    _add_check,
    _add_rule,
    add_explain,
    add_calc,
    _add_server,
    _add_annotate,
    add_logs,
)


class _VersionAction(argparse.Action):
    # argparse's own "version" action needs the string up front; looking it up costs every run.
    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        print(f"xlalens {tool_version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every subcommand."""
    parser = argparse.ArgumentParser(
        prog="xlalens",
        description="Static analysis for JAX, Pallas and torch_xla code.",
    )
    parser.add_argument("--version", action=_VersionAction, help="Print the version and exit.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser


# --- check ------------------------------------------------------------------------------------


def _overrides(args: argparse.Namespace) -> Overrides:
    return Overrides(
        select=_flatten(args.select),
        ignore=_flatten(args.ignore) or (),
        extend_select=_flatten(args.extend_select) or (),
        exclude=_flatten(args.exclude),
        extend_exclude=_flatten(args.extend_exclude) or (),
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


def _exit_code(args: argparse.Namespace, diagnostics: Sequence[Diagnostic]) -> int:
    if args.exit_zero:
        return EXIT_CLEAN
    # Informational findings (e.g. "needs a newer Python to analyze") do not fail a build.
    failing = any(d.severity is not Severity.INFO for d in diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _print_report(args: argparse.Namespace, report: Report, out: TextIO) -> None:
    if args.statistics:
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
    return _exit_code(args, report.diagnostics)


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


def _run_check(args: argparse.Namespace) -> int:
    resolver = _resolver(args)
    paths = args.paths or ["."]
    if args.paths == ["-"] or (args.stdin_filename and not args.paths):
        return _run_stdin(args, resolver)
    if args.show_settings:
        settings = resolver.for_path(paths[0])
        print(json.dumps(settings_mapping_summary(settings), indent=2, default=list))
        return EXIT_CLEAN
    files = discover(paths, resolver, force_exclude=args.force_exclude, respect_gitignore=args.respect_gitignore)
    if args.show_files:
        for file in files:
            print(file)
        return EXIT_CLEAN
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
    return _exit_code(args, report.diagnostics)


# --- rule -------------------------------------------------------------------------------------

_AVAILABILITY = {
    FixAvailability.NONE: "Fix is not available.",
    FixAvailability.SOMETIMES: "Fix is sometimes available.",
    FixAvailability.ALWAYS: "Fix is always available.",
}


@functools.cache
def _explainer_settings() -> Settings:
    # The configured explainer-base-url, if the configuration loads; `rule` never fails over it.
    try:
        return SettingsResolver().for_directory(Path.cwd())
    except ConfigError:
        return Settings()


def _rule_url(rule: type[Rule]) -> str:
    return _explainer_settings().explainer_url(rule.explainer)


def rule_markdown(rule: type[Rule]) -> str:
    """The text ``xlalens rule`` prints: a header (code, name, status, fix, link) and the docs."""
    # One paragraph per item, so the header reads the same as plain text and as rendered Markdown.
    header = [
        f"# {rule.name()} ({rule.code})",
        f"Status: {rule.status.value}. {_AVAILABILITY[rule.fix_availability]}",
    ]
    if rule.fix_title:
        header.append(f"Fix: {rule.fix_title}")
    header.append(f"Explainer: <{_rule_url(rule)}>")
    return "\n\n".join([*header, rule.docs()]) + "\n"


def rule_object(rule: type[Rule]) -> dict[str, object]:
    """The JSON description of a rule (``xlalens rule --output-format json``)."""
    from xlalens.analyzers.output.sarif import summary

    return {
        "code": rule.code,
        "name": rule.name(),
        "summary": summary(rule),
        "message": getattr(rule, "message", None),
        "status": rule.status.value,
        "preview": rule.status.value == "preview",
        "severity": rule.severity.value,
        "fix": _AVAILABILITY[rule.fix_availability],
        "fix_availability": rule.fix_availability.value,
        "fix_title": rule.fix_title,
        "explainer": _rule_url(rule),
        "explanation": rule.docs(),
    }


def _run_rule(args: argparse.Namespace) -> int:
    if args.all:
        rules = registry.all_rules()
    else:
        try:
            rules = [registry.get_rule(args.code)]
        except KeyError as error:
            raise UsageError(error.args[0]) from None
    if args.output_format == "json":
        data: object = [rule_object(r) for r in rules] if args.all else rule_object(rules[0])
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_CLEAN
    text = "\n".join(rule_markdown(rule) for rule in rules)
    if sys.stdout.isatty():
        from rich.console import Console  # only on a terminal: rich is slow to import
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        sys.stdout.write(text)
    return EXIT_CLEAN


# --- server -----------------------------------------------------------------------------------


def _run_server(args: argparse.Namespace) -> int:
    from xlalens.server.app import serve

    return serve(args)


# --- annotate ---------------------------------------------------------------------------------

_TAB_SIZE = 4


def _run_annotate(args: argparse.Namespace) -> int:
    from xlalens.analyzers.annotate import annotate_source, render_inline

    try:
        data = Path(args.file).read_bytes()
    except OSError as error:
        raise UsageError(f"cannot read {args.file}: {error.strerror or error}") from None
    try:
        text = decode_source(data, args.file).text
    except SourceReadError as error:
        raise UsageError(f"{args.file}: {error}") from None
    try:
        annotations = annotate_source(text, args.file)
    except SyntaxError as error:
        raise UsageError(f"cannot annotate {args.file}: {_syntax_problem(text, args.file, error)}") from None
    if not sys.stdout.isatty():
        sys.stdout.write(render_inline(text, annotations))
        return EXIT_CLEAN
    from rich.console import Console  # only on a terminal: rich is slow to import
    from rich.syntax import Syntax

    lines, labels = _annotated_lines(text, annotations)
    joined = "\n".join(lines)
    highlighted = Syntax(joined, "python", tab_size=_TAB_SIZE, background_color="default").highlight(joined)
    for start, end in labels:
        highlighted.stylize("italic cyan", start, end)
    Console().print(highlighted, soft_wrap=True)
    return EXIT_CLEAN


def _syntax_problem(text: str, path: str, error: SyntaxError) -> str:
    from xlalens.analyzers.api import check_source

    if any(d.code == NEWER_SYNTAX for d in check_source(text, path)):
        return "it uses syntax newer than the Python running xlalens (annotating it needs Python >= 3.12)"
    return f"line {error.lineno}: SyntaxError: {error.msg}"


def _annotated_lines(text: str, annotations: Sequence[Annotation]) -> tuple[list[str], list[tuple[int, int]]]:
    """The lines with ``: label`` inserted and tabs expanded, and the label spans in their joined text.

    Tabs are expanded here, not by the highlighter, so that the spans stay exact.
    """
    by_line: dict[int, list[Annotation]] = {}
    for annotation in annotations:
        by_line.setdefault(annotation.position.line, []).append(annotation)
    lines: list[str] = []
    labels: list[tuple[int, int]] = []
    offset = 0
    for number, line in enumerate(SourceText(text).lines, start=1):
        pieces: list[str] = []
        cursor = 0
        for annotation in sorted(by_line.get(number, ()), key=lambda a: a.position.column):
            pieces.append(line[cursor : annotation.position.column])
            start = len("".join(pieces).expandtabs(_TAB_SIZE))
            pieces.append(f": {annotation.label}")
            labels.append((offset + start, offset + start + len(annotation.label) + 2))
            cursor = annotation.position.column
        pieces.append(line[cursor:])
        expanded = "".join(pieces).expandtabs(_TAB_SIZE)
        lines.append(expanded)
        offset += len(expanded) + 1
    return lines, labels


# --- entry point ------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``xlalens`` command line and return its exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse exits 2 on bad usage, 0 for --help/--version
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.handler(args)
    except (UsageError, ConfigError, DiscoveryError) as error:
        print(f"xlalens: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `xlalens check | head` closed the pipe early; nothing left to tell.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FINDINGS


if __name__ == "__main__":
    sys.exit(main())
