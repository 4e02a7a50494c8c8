"""The ``xlalens`` command line, following ruff's conventions so CI setups need nothing new.

Each subcommand lives in its own module (``check``, ``rule``, ``explain`` and ``calc``, ``server``,
``annotate``, ``logs``) with an ``add_*`` function that declares its arguments and handler; adding
a command means adding one more function to ``_SUBCOMMANDS``. Exit codes: 0 clean, 1 findings,
2 for a usage or configuration error or an internal error (an exception that escapes a command is
printed as one line and exits 2, so CI never mistakes a crash for findings).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from xlalens.analyzers.cli.annotate import add_annotate
from xlalens.analyzers.cli.check import add_check
from xlalens.analyzers.cli.common import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_USAGE, UsageError, tool_version
from xlalens.analyzers.cli.explain import add_calc, add_explain
from xlalens.analyzers.cli.logs import add_logs
from xlalens.analyzers.cli.rule import add_rule
from xlalens.analyzers.cli.server import add_server
from xlalens.analyzers.project.config import ConfigError
from xlalens.analyzers.project.discovery import DiscoveryError

_SUBCOMMANDS: tuple[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None], ...] = (
    add_check,
    add_rule,
    add_explain,
    add_calc,
    add_server,
    add_annotate,
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


def _command_parser(parser: argparse.ArgumentParser, command: str | None) -> argparse.ArgumentParser:
    """The parser of subcommand ``command``, or ``parser`` itself."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``xlalens`` command line and return its exit code."""
    parser = build_parser()
    try:
        args, unknown = parser.parse_known_args(argv)
        if unknown:
            # argparse would answer with the top-level usage; the subcommand's says what it takes.
            _command_parser(parser, args.command).error(f"unrecognized arguments: {' '.join(unknown)}")
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
    except Exception as error:
        print(
            f"xlalens: internal error: {type(error).__name__}: {error}; please report this xlalens bug",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
