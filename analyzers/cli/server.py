"""``xlalens server``: the language server over stdio (editors start it this way), TCP or WebSockets."""

from __future__ import annotations

import argparse


def add_server(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from xlalens.server.app import add_arguments  # no pygls here: that is imported when the server runs

    parser = subparsers.add_parser(
        "server",
        help="Run the language server.",
        description="Run the xlalens language server over stdio (editors start it this way), TCP or WebSockets.",
    )
    parser.set_defaults(handler=_run_server)
    add_arguments(parser)


def _run_server(args: argparse.Namespace) -> int:
    from xlalens.server.app import serve

    return serve(args)
