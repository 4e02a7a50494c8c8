"""The server over raw JSON-RPC on stdio: errors for bad input, cancellation, nothing but frames on stdout."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from typing import Any

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from .lsp_client import wait_until
from .samples import TRAIN

pytestmark = pytest.mark.asyncio

TIMEOUT_S = 15.0


class RawConnection:
    """A client that writes and reads JSON-RPC frames itself, to send what a well-behaved client never would."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.received: list[dict[str, Any]] = []

    @classmethod
    async def start(cls) -> RawConnection:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "xlalens.server",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return cls(process)

    def send_body(self, body: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send(self, message: dict[str, Any]) -> None:
        self.send_body(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    async def read(self) -> dict[str, Any]:
        """The next frame; every byte on stdout must belong to one."""
        assert self.process.stdout is not None
        length = None
        while True:
            header = await asyncio.wait_for(self.process.stdout.readline(), TIMEOUT_S)
            assert header.endswith(b"\r\n"), f"not a JSON-RPC header: {header!r}"
            if header == b"\r\n":
                break
            name, _, value = header.decode("ascii").partition(":")
            assert name in ("Content-Length", "Content-Type"), f"unexpected header {header!r}"
            if name == "Content-Length":
                length = int(value)
        assert length is not None
        message = json.loads(await self.process.stdout.readexactly(length))
        self.received.append(message)
        return message

    async def response(self, request_id: int | None) -> dict[str, Any]:
        """Read until the response to ``request_id`` (``None``: the parse-error response)."""
        while True:
            message = await self.read()
            if "method" not in message and message.get("id") == request_id:
                return message

    async def server_request(self, method: str) -> dict[str, Any]:
        """Read until the server sends a request for ``method``."""
        while True:
            message = await self.read()
            if message.get("method") == method and "id" in message:
                return message

    async def initialize(self, capabilities: dict[str, Any]) -> None:
        self.send({"id": 1, "method": "initialize", "params": {"processId": None, "capabilities": capabilities}})
        assert "result" in await self.response(1)
        self.send({"method": "initialized", "params": {}})

    async def finish(self) -> bytes:
        """Shut down and exit; return anything written to stdout after the last frame."""
        self.send({"id": 99, "method": "shutdown"})
        assert (await self.response(99))["result"] is None
        self.send({"method": "exit"})
        assert self.process.stdout is not None
        rest = await asyncio.wait_for(self.process.stdout.read(), TIMEOUT_S)
        assert await asyncio.wait_for(self.process.wait(), TIMEOUT_S) == 0
        return rest


async def test_bad_requests_get_json_rpc_errors_and_stdout_holds_only_frames() -> None:
    connection = await RawConnection.start()
    await connection.initialize({})

    connection.send({"id": 2, "method": "textDocument/hover", "params": {"bogus": 1}})
    invalid = await connection.response(2)
    assert invalid["error"]["code"] == -32602
    assert "textDocument/hover" in invalid["error"]["message"]

    connection.send({"id": 3, "method": "xlalens/noSuchMethod", "params": {}})
    assert (await connection.response(3))["error"]["code"] == -32601

    connection.send_body(b"{this is not json")
    assert (await connection.response(None))["error"]["code"] == -32700

    connection.send_body(b'{"id": 9, "method": "textDocument/hover"}')
    assert (await connection.response(9))["error"]["code"] == -32600, "no jsonrpc member: Invalid Request"
    connection.send_body(b"[]")
    assert (await connection.response(None))["error"]["code"] == -32600

    connection.send({"id": 4, "method": "workspace/executeCommand", "params": {"command": "xlalens.nope"}})
    assert (await connection.response(4))["error"]["code"] == -32602

    connection.send({"id": 5, "method": "workspace/executeCommand", "params": {"command": "xlalens.explain"}})
    assert (await connection.response(5))["error"]["code"] == -32602, "a missing argument is invalid params"

    uri = "file:///nowhere/train.py"
    connection.send(
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": TRAIN}},
        }
    )
    connection.send({"id": 6, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}})
    report = await connection.response(6)
    assert [item["code"] for item in report["result"]["items"]] == ["JX106", "JX101", "JX103", "JX601"]

    assert await connection.finish() == b"", "the server wrote to stdout outside the protocol"


async def test_a_cancelled_request_is_answered_as_cancelled() -> None:
    connection = await RawConnection.start()
    await connection.initialize({"workspace": {"configuration": True}})
    configuration = await connection.server_request("workspace/configuration")

    uri = "file:///nowhere/train.py"
    connection.send(
        {
            "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": TRAIN}},
        }
    )
    # Until the configuration is answered no check runs, so this request is certainly still pending.
    connection.send({"id": 7, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}})
    connection.send({"method": "$/cancelRequest", "params": {"id": 7}})
    assert (await connection.response(7))["error"]["code"] == -32800

    connection.send({"id": configuration["id"], "result": [{"ignore": ["JX601"]}]})
    connection.send({"id": 8, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}})
    report = await connection.response(8)
    assert [item["code"] for item in report["result"]["items"]] == ["JX106", "JX101", "JX103"]
    assert await connection.finish() == b""


async def test_tcp_transport_serves_a_client() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "xlalens.server", "--tcp", "--port", str(port), stderr=asyncio.subprocess.DEVNULL
    )
    client = LanguageClient("tcp-test", "1")
    published: list[types.PublishDiagnosticsParams] = []
    client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: published.append(params))
    try:
        await _connect(client, port)
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
        client.initialized(types.InitializedParams())
        uri = "file:///nowhere/train.py"
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=uri, language_id="python", version=1, text=TRAIN)
            )
        )
        await wait_until(lambda: bool(published), what="diagnostics over TCP")
        assert [d.code for d in published[-1].diagnostics] == ["JX106", "JX101", "JX103", "JX601"]
        await client.shutdown_async(None)
        client.exit(None)
        await asyncio.wait_for(process.wait(), TIMEOUT_S)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await client.stop()


async def _connect(client: LanguageClient, port: int) -> None:
    # Retry the real connection: a probe connection would count as the server's one client, and
    # the server stops when its client disconnects.
    deadline = asyncio.get_running_loop().time() + TIMEOUT_S
    while True:
        try:
            await client.start_tcp("127.0.0.1", port)
            return
        except OSError:
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.05)
