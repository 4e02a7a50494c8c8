"""The server's lifecycle over raw JSON-RPC: what comes before initialize, after shutdown, and broken streams."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest

from .samples import TRAIN
from .test_protocol import TIMEOUT_S, RawConnection

pytestmark = pytest.mark.asyncio

HOVER = {"textDocument": {"uri": "file:///nowhere/train.py"}, "position": {"line": 0, "character": 0}}


async def _start() -> RawConnection:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "xlalens.server",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    return RawConnection(process)


async def _ending(connection: RawConnection) -> tuple[int, str]:
    """Close stdin and wait for the process; its exit status and stderr."""
    assert connection.process.stdin is not None and connection.process.stderr is not None
    connection.process.stdin.close()
    err = await asyncio.wait_for(connection.process.stderr.read(), TIMEOUT_S)
    status = await asyncio.wait_for(connection.process.wait(), TIMEOUT_S)
    return status, err.decode("utf-8", "replace")


async def test_requests_before_initialize_are_refused_at_once_and_after_shutdown_too() -> None:
    connection = await _start()
    connection.send({"id": 1, "method": "textDocument/hover", "params": HOVER})
    refused = await connection.response(1)
    assert refused["error"]["code"] == -32002
    await connection.initialize({})
    connection.send({"id": 2, "method": "shutdown"})
    assert (await connection.response(2))["result"] is None
    connection.send({"id": 3, "method": "textDocument/hover", "params": HOVER})
    assert (await connection.response(3))["error"]["code"] == -32600
    connection.send({"method": "exit"})
    status, _ = await _ending(connection)
    assert status == 0


async def test_exit_without_shutdown_exits_1_and_unknown_methods_leave_no_traceback() -> None:
    connection = await _start()
    await connection.initialize({})
    connection.send({"method": "xlalens/noSuchNotification", "params": {}})
    connection.send({"id": 2, "method": "xlalens/noSuchRequest", "params": {}})
    assert (await connection.response(2))["error"]["code"] == -32601
    connection.send({"method": "exit"})
    status, err = await _ending(connection)
    assert status == 1
    assert "Traceback" not in err


async def test_shutdown_with_requests_in_flight_is_clean() -> None:
    connection = await _start()
    await connection.initialize({})
    uri = HOVER["textDocument"]["uri"]
    text = {"uri": uri, "languageId": "python", "version": 1, "text": TRAIN * 20}
    connection.send({"method": "textDocument/didOpen", "params": {"textDocument": text}})
    for request_id in range(10, 30):
        connection.send(
            {"id": request_id, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}}
        )
    connection.send({"id": 99, "method": "shutdown"})
    answers: dict[Any, dict[str, Any]] = {}
    while 99 not in answers or len(answers) < 21:
        message = await connection.read()
        if "method" not in message:
            answers[message.get("id")] = message
    connection.send({"method": "exit"})
    status, err = await _ending(connection)
    assert status == 0
    assert "changed size during iteration" not in err and "Traceback" not in err


async def test_an_absurd_content_length_ends_the_connection_without_exhausting_memory() -> None:
    connection = await _start()
    await connection.initialize({})
    assert connection.process.stdin is not None
    connection.process.stdin.write(b"Content-Length: 999999999999\r\n\r\n{}")
    status, err = await _ending(connection)
    assert status == 1
    assert "over the limit" in err and "MemoryError" not in err


async def test_the_server_exits_when_its_output_pipe_closes() -> None:
    connection = await _start()
    await connection.initialize({})
    assert connection.process.stdout is not None and connection.process.stdin is not None
    connection.process._transport.get_pipe_transport(1).close()  # type: ignore[attr-defined]
    await asyncio.sleep(0.2)
    connection.send({"id": 5, "method": "shutdown"})
    status = await asyncio.wait_for(connection.process.wait(), TIMEOUT_S)
    assert status == 1


async def test_a_hover_answers_from_the_last_analysis_while_a_slow_check_runs(monkeypatch) -> None:
    from . import test_protocol

    monkeypatch.setattr(test_protocol, "TIMEOUT_S", 120.0)  # the check of the new version takes long
    connection = await _start()
    await connection.initialize({})
    uri = HOVER["textDocument"]["uri"]
    text = {"uri": uri, "languageId": "python", "version": 1, "text": TRAIN}
    connection.send({"method": "textDocument/didOpen", "params": {"textDocument": text}})
    connection.send({"id": 2, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}})
    await connection.response(2)
    slow = TRAIN + "\n".join(f"v{i} = jax.numpy.zeros(({i}, 3)) + {i}" for i in range(40_000)) + "\n"
    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": slow}]}
    connection.send({"method": "textDocument/didChange", "params": change})
    connection.send({"id": 3, "method": "textDocument/diagnostic", "params": {"textDocument": {"uri": uri}}})
    await asyncio.sleep(0.3)
    connection.send({"id": 4, "method": "textDocument/hover", "params": HOVER})
    while True:
        message = await connection.read()
        if "method" in message:
            continue
        assert message["id"] == 4, "the hover waited for the check of the new version"
        assert "result" in message
        break
    await connection.response(3)
