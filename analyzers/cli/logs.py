"""``xlalens logs FILE``: compiles and unexpected executions from a run's log, at the user's source lines.

Reads a torch_xla ``PT_XLA_DEBUG_LEVEL=2`` log and JAX ``jax_explain_cache_misses`` /
``jax_log_compiles`` warnings (see :mod:`xlalens.analyzers.inputs.runtime_logs`) and prints the findings in
the same formats as ``xlalens check``. Exit status 1 when a warning or error is found, as for check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xlalens.analyzers.cli.common import EXIT_CLEAN, EXIT_FINDINGS, UsageError, tool_version
from xlalens.analyzers.core.codes import NON_RULE_CODES, ignored_by
from xlalens.analyzers.core.diagnostics import Severity

LOG_CODES = tuple(code for code in NON_RULE_CODES if code.startswith("LX"))


def add_logs(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``xlalens logs``."""
    from xlalens.analyzers.output import format_names

    parser = subparsers.add_parser(
        "logs",
        help="Map compiles and unexpected executions in a torch_xla or JAX log back to source lines.",
        description="Read a PT_XLA_DEBUG_LEVEL=2 log (torch_xla) or jax_explain_cache_misses / jax_log_compiles "
        "warnings (JAX) and report each compile and unexpected execution at the source line that caused it.",
    )
    parser.set_defaults(handler=_run_logs)
    parser.add_argument("file", metavar="FILE", help="The log file; - reads stdin.")
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="Resolve relative paths in the log against DIR (default: the current directory).",
    )
    parser.add_argument("--output-format", choices=format_names(), default="concise", help="How to print findings.")
    parser.add_argument("--exit-zero", action="store_true", help="Exit 0 even when findings remain.")
    parser.add_argument(
        "--ignore",
        metavar="CODES",
        type=lambda text: [code for code in text.split(",") if code.strip()],
        default=[],
        help="Do not report these log codes (comma-separated codes or prefixes: LX201, LX3).",
    )


def _run_logs(args: argparse.Namespace) -> int:
    from xlalens.analyzers.inputs.runtime_logs import log_diagnostics, recognised
    from xlalens.analyzers.output import Report, get_format
    from xlalens.analyzers.project.config import SettingsResolver

    if args.file == "-":
        text, log_path = sys.stdin.read(), "-"
    else:
        try:
            text = Path(args.file).read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            raise UsageError(f"cannot read {args.file}: {error.strerror or error}") from None
        log_path = str(Path(args.file).resolve())
    cwd = Path.cwd()
    settings = SettingsResolver(cwd).for_directory(cwd)
    root = str(Path(args.root).resolve()) if args.root else str(cwd)
    for selector in args.ignore:
        if not any(code.startswith(selector.strip().upper()) for code in LOG_CODES):
            raise UsageError(f"--ignore {selector!r} names no log code; they are: {', '.join(LOG_CODES)}")
    if not recognised(text) and args.output_format == "concise":
        # "All checks passed!" would claim a clean run for a log that shows none.
        print(
            f"No torch_xla (PT_XLA_DEBUG_LEVEL=2) or JAX (jax_explain_cache_misses, jax_log_compiles) output "
            f"recognised in {args.file}.",
            file=sys.stderr,
        )
        return EXIT_CLEAN
    diagnostics = [
        d for d in log_diagnostics(text, log_path, root, settings.explainer_url) if not ignored_by(d.code, args.ignore)
    ]
    report = Report(
        diagnostics=diagnostics,
        cwd=cwd,
        version=tool_version(),
        explainer_base_url=settings.explainer_base_url,
    )
    get_format(args.output_format)(report, sys.stdout)
    failing = any(d.severity is not Severity.INFO for d in diagnostics)
    return EXIT_FINDINGS if failing and not args.exit_zero else EXIT_CLEAN
