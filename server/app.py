"""Start the language server: ``xlalens server`` and ``python -m xlalens.server``.

Over stdio (the default) stdout belongs to the protocol: anything else written there would
corrupt the message stream, so ``sys.stdout`` is pointed at stderr before any handler runs and
the protocol writes to the original stream. Logs go to stderr (editors show it in their output
panel) or to ``--log-file``; pygls, which logs every message at INFO, is kept at WARNING.
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from collections.abc import Sequence

DEFAULT_PORT = 2087
"""The conventional port of Python language servers, for ``--tcp`` and ``--ws``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The server's options, shared by ``xlalens server`` and ``python -m xlalens.server``."""
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument("--stdio", action="store_true", help="Talk over stdin/stdout (the default).")
    transport.add_argument("--tcp", action="store_true", help="Listen on a TCP port.")
    transport.add_argument(
        "--ws", action="store_true", help="Listen for WebSocket connections (needs `pip install 'pygls[ws]'`)."
    )
    parser.add_argument("--host", default="127.0.0.1", help="Address to bind with --tcp/--ws (default 127.0.0.1).")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"Port for --tcp/--ws (default {DEFAULT_PORT}).")
    parser.add_argument(
        "--log-level",
        choices=("error", "warning", "info", "debug"),
        default="warning",
        help="How much the server logs (default warning).",
    )
    parser.add_argument("--log-file", metavar="FILE", help="Log to FILE instead of stderr.")


def _configure_logging(level: str, log_file: str | None) -> None:
    handler: logging.Handler = (
        logging.FileHandler(log_file, encoding="utf-8") if log_file else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("pygls").setLevel(max(logging.WARNING, root.level))


def serve(args: argparse.Namespace) -> int:
    """Run the server with parsed ``args`` until the client disconnects; return the exit status."""
    _configure_logging(args.log_level, args.log_file)
    from xlalens.server.language_server import create_server  # after logging: its imports may log

    server = create_server()
    # Everything loaded so far lives as long as the server: move it out of the collector's view, so
    # that the full collections a large check triggers do not rescan it every time.
    gc.collect()
    gc.freeze()
    if args.tcp:
        server.start_tcp(args.host, args.port)
    elif args.ws:
        server.start_ws(args.host, args.port)
    else:
        protocol_out = sys.stdout.buffer
        sys.stdout = sys.stderr  # a stray print must not corrupt the message stream
        server.start_io(sys.stdin.buffer, protocol_out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m xlalens.server [--tcp|--ws] [--host H] [--port P] [--log-level L] [--log-file F]``."""
    parser = argparse.ArgumentParser(prog="xlalens server", description="Run the xlalens language server.")
    add_arguments(parser)
    return serve(parser.parse_args(argv))
