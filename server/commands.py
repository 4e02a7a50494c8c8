"""``workspace/executeCommand`` commands.

``xlalens.explain TOPIC``
    The URL of an explainer section: ``TOPIC`` is a rule code (``JX101``) or ``page#section``.
    When diagnostics link to the default local explainer server and nothing listens there, the
    server starts it first. Returns ``{"url": ...}``.
``xlalens.calculate NAME INPUTS``
    Runs a calculator on ``INPUTS`` (field -> text or value). Returns its status, headline,
    rows and values, plus ``url``, the live calculator prefilled with the same inputs.
``xlalens.applyFixes DOCUMENT``
    Applies every fix of an open document (unsafe ones too when ``unsafeFixes`` is on) through
    ``workspace/applyEdit``. ``DOCUMENT`` is a URI or ``{"uri": ...}``. Returns
    ``{"applied": bool, "fixed": n}``.

Bad arguments are answered with a JSON-RPC ``InvalidParams`` error that says what is wrong.
"""

from __future__ import annotations

import asyncio
import importlib
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from xlalens.analyzers.engine import registry
from xlalens.explainers.calculators import CalculatorInputError, UnknownCalculatorError, get_calculator, result_json
from xlalens.explainers.links import DEFAULT_BASE_URL, DEFAULT_HOST, DEFAULT_PORT, calculator_url, section_url
from xlalens.server.code_actions import fix_document
from xlalens.server.edits import workspace_edit

if TYPE_CHECKING:
    from xlalens.server.documents import DocumentLinter
    from xlalens.server.settings import SettingsStore

EXPLAIN = "xlalens.explain"
CALCULATE = "xlalens.calculate"
APPLY_FIXES = "xlalens.applyFixes"


class ExplainerServer(Protocol):
    """What ``xlalens.analyzers.output.site.start_explainer_server`` returns."""

    url: str

    def close(self) -> None:
        """Stop serving."""


class CommandHost(Protocol):
    """What the commands use of the language server (``XlalensLanguageServer`` provides it)."""

    explainer: ExplainerServer | None
    settings: SettingsStore
    linter: DocumentLinter

    @property
    def position_encoding(self) -> str: ...

    @property
    def client_supports_document_changes(self) -> bool: ...

    async def workspace_apply_edit_async(
        self, params: types.ApplyWorkspaceEditParams
    ) -> types.ApplyWorkspaceEditResult: ...


class ExplainerUnavailableError(JsonRpcException):
    """The local explainer server cannot be started (LSP ``RequestFailed``)."""

    CODE = types.LSPErrorCodes.RequestFailed


def _invalid(message: str) -> JsonRpcInvalidParams:
    return JsonRpcInvalidParams(message=message)


def _arguments(command: str, arguments: tuple[Any, ...], least: int, most: int, usage: str) -> None:
    if not least <= len(arguments) <= most:
        raise _invalid(f"{command} takes {usage}; got {len(arguments)} argument(s)")


def _explainer_of(topic: Any) -> str:
    if not isinstance(topic, str) or not topic.strip():
        raise _invalid(f"{EXPLAIN} takes a rule code (JX101) or an explainer page#section, not {topic!r}")
    topic = topic.strip()
    # A path such as `rules/JX101` or `calc/retrace` is a page already; only a bare code is looked up.
    if "#" in topic or "/" in topic or not topic[:1].isalpha() or not topic[-1:].isdigit():
        return topic
    try:
        return registry.get_rule(topic).explainer
    except KeyError as error:
        raise _invalid(str(error.args[0])) from None


async def _listening(host: str, port: int) -> bool:
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout=0.5)
    except (TimeoutError, OSError):
        return False
    writer.close()
    return True


async def explainer_base_url(ls: CommandHost, configured: str) -> str:
    """Where explainer pages are served: the configured URL, or the local server, started if needed."""
    if configured.rstrip("/") != DEFAULT_BASE_URL:
        return configured
    if ls.explainer is not None:
        return ls.explainer.url
    if await _listening(DEFAULT_HOST, DEFAULT_PORT):
        return DEFAULT_BASE_URL  # `xlalens explain --serve` is already running
    try:
        # Imported here: the explainer server is only needed when asked for.
        explain = importlib.import_module("xlalens.analyzers.output.site")
        start = explain.start_explainer_server
    except (ImportError, AttributeError) as error:
        raise ExplainerUnavailableError(message=f"the explainer server is not available: {error}") from None
    loop = asyncio.get_running_loop()
    try:
        ls.explainer = await loop.run_in_executor(None, start, DEFAULT_PORT)
    except OSError:  # taken since we looked: serve on any free port instead
        ls.explainer = await loop.run_in_executor(None, start, 0)
    return ls.explainer.url


async def explain(ls: CommandHost, *arguments: Any) -> dict[str, str]:
    """``xlalens.explain TOPIC``: the URL of a rule's or a topic's explainer section."""
    _arguments(EXPLAIN, arguments, 1, 1, "one topic: a rule code or page#section")
    explainer = _explainer_of(arguments[0])
    base = await explainer_base_url(ls, ls.settings.for_path(None).explainer_base_url)
    return {"url": section_url(base, explainer)}


def calculate(ls: CommandHost, *arguments: Any) -> dict[str, Any]:
    """``xlalens.calculate NAME [INPUTS]``: a calculator's result (no inputs: the calculator's defaults)."""
    _arguments(CALCULATE, arguments, 1, 2, "a calculator name and an optional object of inputs")
    name = arguments[0]
    inputs = arguments[1] if len(arguments) > 1 and arguments[1] is not None else {}
    if not isinstance(name, str):
        raise _invalid(f"{CALCULATE} takes a calculator name first, not {name!r}")
    if not isinstance(inputs, dict):
        raise _invalid(f"{CALCULATE} inputs must be an object of field -> value, not {inputs!r}")
    try:
        calculator = get_calculator(name)
        query: dict[str, str] = {}
        for key, value in inputs.items():
            # Text is taken as typed (like a URL query); values found in code are formatted first.
            text = {calculator.field(key).name: value} if isinstance(value, str) else calculator.query({key: value})
            query.update(text)
        result = calculator.run(query)
    except (UnknownCalculatorError, CalculatorInputError) as error:
        raise _invalid(str(error)) from None
    base = ls.settings.for_path(None).explainer_base_url
    return {"name": calculator.name, **result_json(result), "url": calculator_url(base, calculator.name, query)}


async def apply_fixes(ls: CommandHost, *arguments: Any) -> dict[str, Any]:
    """``xlalens.applyFixes DOCUMENT``: apply the document's fixes through the client."""
    _arguments(APPLY_FIXES, arguments, 1, 1, "one document: its URI or {uri}")
    document = arguments[0]
    uri = document.get("uri") if isinstance(document, dict) else document
    snapshot = ls.linter.snapshot(uri) if isinstance(uri, str) else None
    if snapshot is None:
        raise _invalid(f"{APPLY_FIXES} takes the URI of an open document, not {document!r}")
    settings = ls.settings.for_path(snapshot.path)
    edits, fixed = await ls.linter.run_in_worker(
        fix_document, snapshot, settings, unsafe=ls.settings.client.unsafe_fixes, encoding=ls.position_encoding
    )
    if not edits:
        return {"applied": False, "fixed": 0}
    response = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(
            edit=workspace_edit(uri, snapshot.version, edits, ls.client_supports_document_changes),
            label="xlalens: apply fixes",
        )
    )
    return {"applied": bool(response.applied), "fixed": fixed if response.applied else 0}
