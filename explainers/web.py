"""The local explainer server behind ``xlalens explain --serve``.

Routes (GET and HEAD only; anything else is 405):

* ``/`` — the index of pages and calculators;
* ``/<page>`` — a page, with live panels for its calculators prefilled from the query string;
* ``/calc/<name>`` — one calculator, prefilled from the query string;
* ``/rules`` — every rule by family; ``/rules/<CODE>`` — one rule's page, from its documentation;
* ``/api/calc/<name>?field=value…`` — the result as JSON; bad input is a 400 whose body names the field;
* ``/api/calculators`` — every calculator's fields as JSON;
* ``/static/site.css``, ``/static/calculator.js`` — the only files served, from a fixed list.

Nothing else is ever read from disk, so no request path can reach another file. The server binds
127.0.0.1 and answers only requests addressed to a loopback host name, which keeps pages on other
sites from reaching it through DNS rebinding.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from xlalens.explainers import html
from xlalens.explainers.calc_api import answer, unknown_calculator_message
from xlalens.explainers.calculators import Calculator, UnknownCalculatorError, all_calculators, get_calculator
from xlalens.explainers.links import DEFAULT_HOST, RULES_PREFIX, section_url
from xlalens.explainers.pages_catalog import Page, RuleEntry, load_pages

_STATIC_DIR = Path(__file__).parent / "static"
STATIC_FILES = {
    "site.css": "text/css; charset=utf-8",
    "calculator.js": "text/javascript; charset=utf-8",
}
_LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "[::1]"})
_MAX_QUERY = 8192
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Response:
    """What the app answers: a status, a content type and a body."""

    status: int
    content_type: str
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def html(cls, status: int, text: str) -> Response:
        """An HTML response."""
        return cls(status, "text/html; charset=utf-8", text.encode("utf-8"))

    @classmethod
    def json(cls, status: int, payload: Any) -> Response:
        """A JSON response."""
        return cls(status, "application/json", json.dumps(payload).encode("utf-8"))


@dataclass
class ExplainerApp:
    """Routing and rendering, independent of sockets (so tests can call :meth:`handle` directly).

    Attributes:
        rules: The rule catalog, for the pages' related-rules lists.
        pages: The pages by slug.
    """

    rules: tuple[RuleEntry, ...] = ()
    pages: Mapping[str, Page] = field(default_factory=load_pages)

    def handle(self, target: str) -> Response:
        """Answer a GET for ``target`` (path and query string)."""
        if len(target) > _MAX_QUERY:
            return Response.json(HTTPStatus.REQUEST_URI_TOO_LONG, {"message": "the request is too long"})
        parts = urlsplit(target)
        path = unquote(parts.path)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        segments = [segment for segment in path.split("/") if segment]
        route: Callable[[list[str], dict[str, str]], Response] | None = None
        if not segments:
            route = self._index
        elif segments == ["favicon.ico"]:
            return Response(HTTPStatus.NO_CONTENT, "image/x-icon", b"")
        elif segments[0] == "api":
            route = self._api
        elif segments[0] == "calc" and len(segments) == 2:
            route = self._calculator
        elif segments[0] == RULES_PREFIX and len(segments) <= 2:
            route = self._rules
        elif segments[0] == "static" and len(segments) == 2:
            route = self._static
        elif len(segments) == 1:
            route = self._page
        if route is None:
            return Response.html(HTTPStatus.NOT_FOUND, html.render_not_found(f"No page at {path}."))
        return route(segments, query)

    def _index(self, _segments: list[str], _query: dict[str, str]) -> Response:
        return Response.html(
            HTTPStatus.OK, html.render_index(self.pages.values(), all_calculators(), rules=bool(self.rules))
        )

    def _rules(self, segments: list[str], _query: dict[str, str]) -> Response:
        if len(segments) == 1:
            return Response.html(HTTPStatus.OK, html.render_rule_index(self.rules, self.pages))
        wanted = segments[1].upper()
        rule = next((entry for entry in self.rules if entry.code == wanted), None)
        if rule is None:
            return Response.html(HTTPStatus.NOT_FOUND, html.render_not_found(f"No rule {segments[1]!r}."))
        return Response.html(HTTPStatus.OK, html.render_rule_page(rule, self.pages))

    def _page(self, segments: list[str], query: dict[str, str]) -> Response:
        page = self.pages.get(segments[0])
        if page is None:
            known = ", ".join(self.pages)
            return Response.html(
                HTTPStatus.NOT_FOUND, html.render_not_found(f"No page {segments[0]!r}; pages: {known}.")
            )
        calculators = [get_calculator(name) for name in page.calculators]
        return Response.html(HTTPStatus.OK, html.render_page(page, self.rules, calculators, query))

    def _calculator(self, segments: list[str], query: dict[str, str]) -> Response:
        calculator = self._find_calculator(segments[1])
        if calculator is None:
            return Response.html(HTTPStatus.NOT_FOUND, html.render_not_found(unknown_calculator_message(segments[1])))
        explainer = calculator.explainer
        href = section_url("", explainer) if explainer and explainer.partition("#")[0] in self.pages else None
        return Response.html(HTTPStatus.OK, html.render_calculator_page(calculator, query, href))

    def _api(self, segments: list[str], query: dict[str, str]) -> Response:
        if segments == ["api", "calculators"]:
            return Response.json(HTTPStatus.OK, [calculator.describe() for calculator in all_calculators()])
        if len(segments) != 3 or segments[1] != "calc":
            return Response.json(HTTPStatus.NOT_FOUND, {"message": f"no API at /{'/'.join(segments)}"})
        status, body = answer(segments[2], query)
        return Response.json(status, body)

    def _static(self, segments: list[str], _query: dict[str, str]) -> Response:
        name = segments[1]
        content_type = STATIC_FILES.get(name)
        if content_type is None:
            return Response.html(HTTPStatus.NOT_FOUND, html.render_not_found(f"No file {name!r}."))
        body = (_STATIC_DIR / name).read_bytes()
        return Response(HTTPStatus.OK, content_type, body, {"Cache-Control": "no-cache"})

    @staticmethod
    def _find_calculator(name: str) -> Calculator[Any, Any] | None:
        try:
            return get_calculator(name)
        except UnknownCalculatorError:
            return None


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    server_version = "xlalens-explain"

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _refuse(self) -> None:
        self._send(Response.json(HTTPStatus.METHOD_NOT_ALLOWED, {"message": "only GET and HEAD are served"}), True)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse

    def _answer(self, *, send_body: bool) -> None:
        host = (self.headers.get("Host") or "").rsplit(":", 1)[0].lower()
        if host not in _LOOPBACK_NAMES:
            self._send(Response.json(HTTPStatus.BAD_REQUEST, {"message": f"unexpected Host {host!r}"}), send_body)
            return
        try:
            response = self.server.app.handle(self.path)
        except Exception:  # a bug must not take the server down or show a traceback to the reader
            _log.exception("explainer request failed: %s", self.path)
            response = Response.json(HTTPStatus.INTERNAL_SERVER_ERROR, {"message": "internal error; see the log"})
        self._send(response, send_body)

    def _send(self, response: Response, send_body: bool) -> None:
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'; style-src 'self'; script-src 'self'")
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: Any) -> None:
        _log.debug("%s " + format, self.address_string(), *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, app: ExplainerApp) -> None:
        super().__init__((DEFAULT_HOST, port), _Handler)
        self.app = app


class ExplainerServer:
    """The explainer site served on 127.0.0.1 from a background thread.

    Attributes:
        url: The base URL, e.g. ``http://127.0.0.1:8711``.
    """

    def __init__(self, port: int = 0, rules: Iterable[RuleEntry] = ()) -> None:
        """Bind the port now (0 picks a free one); raises ``OSError`` when it is taken."""
        self._server = _Server(port, ExplainerApp(rules=tuple(rules)))
        self.url = f"http://{DEFAULT_HOST}:{self._server.server_address[1]}"
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return int(self._server.server_address[1])

    def start(self) -> ExplainerServer:
        """Serve from a daemon thread and return at once."""
        self._thread = threading.Thread(target=self._server.serve_forever, name="xlalens-explain", daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in this thread until interrupted."""
        self._server.serve_forever()

    def close(self) -> None:
        """Stop serving and release the port."""
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join()
            self._thread = None
        self._server.server_close()
