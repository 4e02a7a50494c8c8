"""The JSON-RPC protocol, answering every request instead of dropping or stalling it.

pygls logs a request whose params do not match the LSP schema and never answers it, which
leaves the client waiting forever. Here such a request gets the JSON-RPC error it deserves
(``InvalidParams``), as does a message that is not JSON at all (``ParseError``, with id null).
The lifecycle rules of the LSP are kept too: a request before ``initialize`` gets
``ServerNotInitialized`` (-32002) at once and a notification then is dropped (pygls would hold
them until the settings arrive), and a request after ``shutdown`` gets ``InvalidRequest`` (pygls
logs and never answers it). ``shutdown`` cancels the requests still in flight without the race
in pygls, whose loop over them fails when a cancelled request removes itself meanwhile.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MalformedRequest:
    """A request whose params could not be read, kept so that it can be answered."""

    id: int | str
    method: str
    error: JsonRpcException


class _RequestFutures(dict[Any, Any]):
    """pygls's table of requests in flight, whose ``items()`` is a copy.

    ``shutdown`` cancels every pending request while iterating over ``items()``; a cancelled
    request's callback removes it from the table during that loop ("dictionary changed size
    during iteration"). Iterating over a copy lets both happen.
    """

    def items(self) -> list[tuple[Any, Any]]:  # type: ignore[override]
        return list(super().items())


class XlalensProtocol(LanguageServerProtocol):
    """pygls's LSP protocol, plus answers for requests it cannot read or may not serve yet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._request_futures = _RequestFutures(self._request_futures)
        self._initialize_received = False

    def structure_message(self, data: dict[str, Any]) -> Any:
        """Read one message; a request with unreadable params becomes a :class:`MalformedRequest`."""
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            request_id = data.get("id") if isinstance(data, dict) else None
            method = data.get("method") if isinstance(data, dict) else None
            if isinstance(request_id, int | str) and isinstance(method, str):
                cause = f": {error.__cause__}" if error.__cause__ is not None else ""
                answer = type(error)(message=f"Invalid params for {method}{cause}", code=error.code)
                return MalformedRequest(request_id, method, answer)
            raise

    def handle_message(self, message: Any) -> None:
        """Answer malformed requests with their error; hand everything else to pygls."""
        if isinstance(message, MalformedRequest):
            logger.warning("answering malformed %s request %r with an error", message.method, message.id)
            self._send_response(message.id, error=message.error.to_response_error())
            return
        if not hasattr(message, "jsonrpc"):
            self._answer_invalid_request(message)
            return
        method = getattr(message, "method", None)
        request_id = getattr(message, "id", None) if method is not None else None
        if method == types.INITIALIZE:
            self._initialize_received = True
        elif method is not None and method != types.EXIT and not self._initialize_received:
            if request_id is not None:
                self._refuse(request_id, types.ErrorCodes.ServerNotInitialized, f"{method} before initialize")
            return  # a notification before initialize is dropped (LSP)
        elif request_id is not None and self._shutdown:
            self._refuse(request_id, types.ErrorCodes.InvalidRequest, f"{method} after shutdown")
            return
        super().handle_message(message)

    def _refuse(self, request_id: int | str, code: int, what: str) -> None:
        logger.warning("refusing %s", what)
        self._send_response(request_id, error=types.ResponseError(code=code, message=f"Refused: {what}"))

    def _answer_invalid_request(self, message: Any) -> None:
        """JSON that is not a JSON-RPC 2.0 message: an error for a request or non-object, nothing for a reply."""
        is_object = isinstance(message, dict)
        if is_object and "method" not in message:
            logger.warning("ignoring a reply that is not JSON-RPC 2.0: %.200r", message)
            return
        request_id = message.get("id") if is_object else None
        error = types.ResponseError(
            code=types.ErrorCodes.InvalidRequest, message="Invalid Request: not a JSON-RPC 2.0 message"
        )
        self._send_data(
            types.ResponseErrorMessage(id=request_id if isinstance(request_id, int | str) else None, error=error)
        )

    def answer_parse_error(self, error: json.JSONDecodeError) -> None:
        """Tell the client a message was not JSON (JSON-RPC: id null, code -32700)."""
        self._send_data(
            types.ResponseErrorMessage(
                id=None,
                error=types.ResponseError(code=types.ErrorCodes.ParseError, message=f"Parse error: {error}"),
            )
        )
