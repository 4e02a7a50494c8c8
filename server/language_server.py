"""The xlalens language server: state, capabilities and the handler of every LSP method.

Handlers are thin: they read the protocol's parameters, ask :class:`DocumentLinter` for the
current result, and hand it to the module that builds the answer (:mod:`.code_actions`,
:mod:`.hover`, :mod:`.inlay_hints`, :mod:`.commands`).

Diagnostics are pulled when the client supports ``textDocument/diagnostic`` and pushed otherwise,
never both (a client that gets both shows every diagnostic twice). Nothing is checked before the
settings are known: ``initialize`` brings the initialization options, then ``initialized`` asks
for the ``xlalens`` configuration section, and only then does the settings gate open.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from importlib import metadata
from typing import Any

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer
from xlalens.analyzers.core.noqa import noqa_code_at
from xlalens.analyzers.core.source import SourceText
from xlalens.analyzers.engine import registry
from xlalens.analyzers.project.config import CONFIG_FILENAMES
from xlalens.explainers.links import DEFAULT_BASE_URL
from xlalens.server import code_actions, commands, hover, inlay_hints
from xlalens.server.documents import DocumentLinter, LintResult
from xlalens.server.edits import workspace_edit
from xlalens.server.positions import PositionConverter
from xlalens.server.protocol import XlalensProtocol
from xlalens.server.settings import SECTION, SettingsStore, section_of

logger = logging.getLogger(__name__)

SERVER_NAME = "xlalens"
_CONFIGURATION_TIMEOUT_S = 5.0  # a client that never answers workspace/configuration must not block checking
_WATCHERS_ID = "xlalens-config-files"
_HOVER_PATIENCE_S = 0.5
"""A hover waits this long for the current check, then answers from the last finished one."""


def _version() -> str:
    try:
        return metadata.version("xlalens")
    except metadata.PackageNotFoundError:
        return "0.0.0+unknown"


class XlalensLanguageServer(LanguageServer):
    """A pygls server with the state xlalens keeps between requests.

    Attributes:
        settings: The client's settings and the project configuration.
        settings_ready: Set once the settings are known; checks wait for it.
        linter: Checks open documents and keeps their results.
        explainer: The local explainer server, once this server started it (see :meth:`serve_explainers`).
    """

    def __init__(self) -> None:
        super().__init__(SERVER_NAME, _version(), protocol_cls=XlalensProtocol)
        self.settings = SettingsStore()
        self.settings_ready = asyncio.Event()
        self.linter = DocumentLinter(self)
        self.explainer: commands.ExplainerServer | None = None
        self._published: dict[str, str] = {}
        self._reported: set[str] = set()
        self._explainer_task: asyncio.Task[str] | None = None

    # -- what the client can do ------------------------------------------------------------------

    @property
    def pulls_diagnostics(self) -> bool:
        """Whether the client asks for diagnostics (then they are never pushed)."""
        text_document = self.client_capabilities.text_document
        return bool(text_document and text_document.diagnostic)

    @property
    def position_encoding(self) -> str:
        """The negotiated position encoding."""
        return str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16)

    @property
    def client_shows_related_information(self) -> bool:
        """Whether diagnostics may carry ``relatedInformation``."""
        text_document = self.client_capabilities.text_document
        if text_document is None:
            return False
        # LSP 3.18 added the flag to pull diagnostics; older clients state it for pushed ones only,
        # and show it on both.
        capabilities = (text_document.diagnostic, text_document.publish_diagnostics)
        return any(capability and capability.related_information for capability in capabilities)

    @property
    def client_supports_document_changes(self) -> bool:
        """Whether workspace edits may be versioned (``documentChanges``)."""
        workspace = self.client_capabilities.workspace
        return bool(workspace and workspace.workspace_edit and workspace.workspace_edit.document_changes)

    @property
    def client_resolves_code_action_edits(self) -> bool:
        """Whether the client fetches a code action's edit lazily (``codeAction/resolve``)."""
        text_document = self.client_capabilities.text_document
        code_action = text_document.code_action if text_document else None
        resolve = code_action.resolve_support if code_action else None
        return bool(resolve and "edit" in resolve.properties)

    def _workspace_capability(self, name: str) -> Any:
        workspace = self.client_capabilities.workspace
        return getattr(workspace, name, None) if workspace else None

    # -- talking to the client -------------------------------------------------------------------

    def serve_explainers(self, result: LintResult) -> None:
        """Start the local explainer server the first time a finding links to it.

        Diagnostics and hovers link to ``http://127.0.0.1:8711`` unless the configuration names a
        hosted copy; an editor opens those links in a browser, so something must answer there.
        Nothing starts when ``xlalens explain --serve`` already listens, or when the links point
        elsewhere. The server binds the loopback interface only and stops with this server.
        """
        if self._explainer_task is not None or not result.diagnostics:
            return
        if result.settings.explainer_base_url.rstrip("/") != DEFAULT_BASE_URL:
            return
        self._explainer_task = asyncio.get_running_loop().create_task(self._start_explainers())

    async def _start_explainers(self) -> str:
        try:
            return await commands.explainer_base_url(self, DEFAULT_BASE_URL)
        except Exception as error:  # the links stay; only the pages are missing
            logger.warning("could not start the explainer server: %s", error)
            return DEFAULT_BASE_URL

    def publish(self, result: LintResult) -> None:
        """Push a result, unless the client pulls or already has it."""
        self.serve_explainers(result)
        if self.pulls_diagnostics or self._published.get(result.uri) == result.result_id:
            return
        self._published[result.uri] = result.result_id
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=result.uri, version=result.version, diagnostics=list(result.lsp_diagnostics)
            )
        )

    def clear(self, uri: str) -> None:
        """Remove a closed document's pushed diagnostics."""
        if self._published.pop(uri, None) is not None and not self.pulls_diagnostics:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def tell(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        """Show ``message`` to the user once, and log it."""
        logger.warning("%s", message)
        if message in self._reported:
            return
        self._reported.add(message)
        self.window_show_message(types.ShowMessageParams(type=kind, message=f"xlalens: {message}"))

    def report_configuration_errors(self) -> None:
        """Show configuration errors found while resolving settings."""
        for error in self.settings.take_errors():
            self.tell(f"{error} (checking with the defaults)")

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Answer non-JSON input with a parse error; report everything else the pygls way."""
        if isinstance(error, json.JSONDecodeError):
            assert isinstance(self.protocol, XlalensProtocol)
            self.protocol.answer_parse_error(error)
            return
        super().report_server_error(error, source)

    # -- settings --------------------------------------------------------------------------------

    async def pull_configuration(self) -> None:
        """Ask the client for the ``xlalens`` section, if it can answer."""
        if not self._workspace_capability("configuration"):
            return
        root = self.workspace.root_uri
        try:
            answer = await asyncio.wait_for(
                self.workspace_configuration_async(
                    types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION, scope_uri=root)])
                ),
                _CONFIGURATION_TIMEOUT_S,
            )
        except Exception as error:  # a timeout or an error answer: check with what is known so far
            logger.warning("workspace/configuration failed: %s", error)
            return
        section = answer[0] if answer else None
        self.apply_section(section if isinstance(section, dict) else {})

    def apply_section(self, section: dict[str, Any]) -> None:
        """Take a new ``xlalens`` section and report its problems."""
        for problem in self.settings.update(section=section):
            self.tell(problem)

    def settings_changed(self) -> None:
        """Re-check every open document with the new settings."""
        if self.pulls_diagnostics:
            diagnostics = self._workspace_capability("diagnostics")
            if diagnostics is not None and diagnostics.refresh_support:
                self.workspace_diagnostic_refresh(None)
        else:
            for uri in self.linter.open_uris():
                self.linter.schedule(uri, 0)
        inlay_hint = self._workspace_capability("inlay_hint")
        if inlay_hint is not None and inlay_hint.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    async def watch_configuration_files(self) -> None:
        """Ask the client to report changes to configuration files, if it can."""
        watched = self._workspace_capability("did_change_watched_files")
        if not (watched and watched.dynamic_registration):
            return
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_FILENAMES]
        registration = types.Registration(
            id=_WATCHERS_ID,
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
        )
        try:
            await self.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
        except Exception as error:  # a client may refuse; configuration then updates on settings changes
            logger.warning("could not watch configuration files: %s", error)


def _root(params: types.InitializeParams) -> str | None:
    for uri in [*(folder.uri for folder in params.workspace_folders or ()), params.root_uri]:
        if uri:
            path = uris.to_fs_path(uri)
            if path:
                return path
    return params.root_path


def create_server() -> XlalensLanguageServer:
    """A server with every handler registered."""
    server = XlalensLanguageServer()
    # Load the rules now: the first check is then fast, and the worker thread never races the
    # event loop for the registry's first import.
    registry.all_rules()

    @server.feature(types.INITIALIZE)
    def initialize(ls: XlalensLanguageServer, params: types.InitializeParams) -> None:
        ls.settings.root = _root(params) or os.getcwd()
        for problem in ls.settings.update(initialization=section_of(params.initialization_options) or {}):
            ls.tell(problem)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: XlalensLanguageServer, params: types.InitializedParams) -> None:
        try:
            await ls.pull_configuration()
        finally:
            ls.settings_ready.set()
        await ls.watch_configuration_files()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: XlalensLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        pushed = section_of(params.settings)
        if pushed is not None:
            ls.apply_section(pushed)
        else:
            await ls.pull_configuration()
        ls.settings_changed()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: XlalensLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.rsplit("/", 1)[-1] in CONFIG_FILENAMES for change in params.changes):
            ls.settings.reload()
            ls.settings_changed()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: XlalensLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.linter.changed(params.text_document.uri, None if ls.pulls_diagnostics else 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: XlalensLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        client = ls.settings.client
        checks_now = not ls.pulls_diagnostics and client.run == "onType"
        ls.linter.changed(params.text_document.uri, client.debounce_ms / 1000 if checks_now else None)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: XlalensLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        if not ls.pulls_diagnostics:
            ls.linter.schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: XlalensLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.linter.closed(params.text_document.uri)
        ls.clear(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SERVER_NAME, inter_file_dependencies=False, workspace_diagnostics=False),
    )
    async def pull_diagnostics(
        ls: XlalensLanguageServer, params: types.DocumentDiagnosticParams
    ) -> types.DocumentDiagnosticReport:
        result = await ls.linter.current(params.text_document.uri)
        if result is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        ls.serve_explainers(result)
        if params.previous_result_id == result.result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result.result_id)
        return types.RelatedFullDocumentDiagnosticReport(items=list(result.lsp_diagnostics), result_id=result.result_id)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: XlalensLanguageServer, params: types.HoverParams) -> types.Hover | None:
        result = await ls.linter.settled(params.text_document.uri, _HOVER_PATIENCE_S)
        if result is None:
            return None
        positions = PositionConverter(result.source, ls.position_encoding)
        position = positions.from_lsp(params.position)
        base_url = result.settings.explainer_base_url
        under = [d for d in result.diagnostics if hover.covers(d, position)]
        if under:
            markdown = hover.diagnostics_markdown(under, base_url)
            lsp_range = positions.range_to_lsp(under[0].range)
        else:
            code = noqa_code_at(result.source.line(position.line), position.column)
            markdown = hover.rule_markdown(code, base_url) if code else None
            lsp_range = None
            if markdown is None:
                found = await ls.linter.settled_annotations(params.text_document.uri, _HOVER_PATIENCE_S)
                if found is not None and found[0].version == result.version:
                    markdown = hover.span_markdown(found[1], position, base_url)
        if markdown is None:
            return None
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown), range=lsp_range
        )

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, code_actions.FIX_ALL_KIND], resolve_provider=True
        ),
    )
    async def on_code_action(ls: XlalensLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        await ls.settings_ready.wait()
        uri = params.text_document.uri
        document = ls.linter.snapshot(uri)
        if document is None:
            return []
        result = ls.linter.fresh_result(uri)
        only = params.context.only
        actions: list[types.CodeAction] = []
        if code_actions.kind_requested(types.CodeActionKind.QuickFix, only):
            actions += code_actions.quick_fixes(
                params.context.diagnostics,
                result,
                document,
                unsafe_fixes=ls.settings.client.unsafe_fixes,
                document_changes=ls.client_supports_document_changes,
                fixes=ls.settings.client.fix_violation,
                noqa_comments=ls.settings.client.disable_rule_comment,
            )
        if ls.settings.client.fix_all and code_actions.fix_all_wanted(result, only):
            action = code_actions.fix_all_action(document)
            if not ls.client_resolves_code_action_edits:
                action = await resolve_code_action(ls, action)
            actions.append(action)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve_code_action(ls: XlalensLanguageServer, action: types.CodeAction) -> types.CodeAction:
        await ls.settings_ready.wait()
        data = action.data if isinstance(action.data, dict) else {}
        document = ls.linter.snapshot(data.get("uri", ""))
        if action.kind != code_actions.FIX_ALL_KIND or document is None:
            return action
        settings = ls.settings.for_path(document.path)
        edits, _ = await ls.linter.run_in_worker(
            code_actions.fix_document, document, settings, unsafe=False, encoding=ls.position_encoding
        )
        action.edit = workspace_edit(document.uri, document.version, edits, ls.client_supports_document_changes)
        return action

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT)
    async def on_inlay_hint(ls: XlalensLanguageServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        await ls.settings_ready.wait()
        if not ls.settings.client.inlay_hints:
            return []
        found = await ls.linter.annotations(params.text_document.uri)
        if found is None or not found[1]:
            return []
        document, annotations = found
        positions = PositionConverter(SourceText(document.text), ls.position_encoding)
        return inlay_hints.inlay_hints(annotations, positions, params.range)

    # Commands take `*arguments` and check them themselves: pygls calls a handler without any
    # arguments when the request has none, which would otherwise be an internal error.
    @server.command(commands.EXPLAIN)
    async def explain(ls: XlalensLanguageServer, *arguments: Any) -> dict[str, str]:
        await ls.settings_ready.wait()
        return await commands.explain(ls, *arguments)

    @server.command(commands.CALCULATE)
    async def calculate(ls: XlalensLanguageServer, *arguments: Any) -> dict[str, Any]:
        await ls.settings_ready.wait()
        return commands.calculate(ls, *arguments)

    @server.command(commands.APPLY_FIXES)
    async def apply_fixes(ls: XlalensLanguageServer, *arguments: Any) -> dict[str, Any]:
        await ls.settings_ready.wait()
        return await commands.apply_fixes(ls, *arguments)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: XlalensLanguageServer, params: None) -> None:
        ls.linter.shutdown()
        if ls.explainer is not None:
            ls.explainer.close()
            ls.explainer = None

    return server
