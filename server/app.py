"""Start the language server: ``xlalens server`` and ``python -m xlalens.server``.

Over stdio (the default) stdout belongs to the protocol: anything else written there would
corrupt the message stream, so ``sys.stdout`` is pointed at stderr before any handler runs and
the protocol writes to the original stream. Logs go to stderr (editors show it in their output
panel) or to ``--log-file``; pygls, which logs every message at INFO, is kept at WARNING.

The stdio streams are guarded: a header announcing a body larger than :data:`MAX_MESSAGE_BYTES`
ends the connection (reading it would exhaust memory, and what follows cannot be framed), and an
output pipe that closes ends the server (an editor that went away reads nothing more). The exit
status follows the LSP: 0 after ``shutdown``, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sys
from collections.abc import Sequence
from typing import BinaryIO

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


MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""The largest JSON-RPC body the server reads (a whole workspace's text is far smaller)."""

logger = logging.getLogger(__name__)


class _BoundedInput:
    """stdin for pygls, which reads a body of whatever length its header claims."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def readline(self) -> bytes:
        return self._stream.readline(MAX_MESSAGE_BYTES)

    def read(self, size: int) -> bytes:
        if size > MAX_MESSAGE_BYTES:
            logger.error(
                "closing the connection: a message of %d bytes is over the limit of %d", size, MAX_MESSAGE_BYTES
            )
            return b""  # pygls ends its loop on an empty body
        return self._stream.read(size)


class _GuardedOutput:
    """stdout for pygls, which logs a closed pipe on every write and keeps running."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def write(self, data: bytes) -> int:
        try:
            written = self._stream.write(data)
            self._stream.flush()
        except (OSError, ValueError):
            logger.error("the client closed the output pipe; exiting")
            logging.shutdown()
            os._exit(1)  # the reader thread is blocked on stdin: nothing else would end the process
        return written

    def flush(self) -> None:
        self.write(b"")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._stream.close()


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
    """Run the server with parsed ``args`` until the client disconnects; return the exit status (0 after shutdown)."""
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
        protocol_out = _GuardedOutput(sys.stdout.buffer)
        sys.stdout = sys.stderr  # a stray print must not corrupt the message stream
        server.start_io(_BoundedInput(sys.stdin.buffer), protocol_out)  # type: ignore[arg-type]
    return 0 if server.protocol._shutdown else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m xlalens.server [--tcp|--ws] [--host H] [--port P] [--log-level L] [--log-file F]``."""
    parser = argparse.ArgumentParser(prog="xlalens server", description="Run the xlalens language server.")
    add_arguments(parser)
    return serve(parser.parse_args(argv))
