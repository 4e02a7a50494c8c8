"""A pytest-lsp client posing as VS Code or Neovim, driving the real server process.

:class:`Session` wraps pytest-lsp's ``LanguageClient`` with what the tests need: documents with
their versions, diagnostics fetched the way the profile gets them (pulled when the client
advertises ``textDocument/diagnostic``, pushed otherwise), and edits applied to the text the way
an editor applies them. Every wait is for a condition, with a timeout.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

PROFILES = ("visual-studio-code", "neovim")
"""The editors the end-to-end tests pose as: VS Code 1.65 pushes, Neovim 0.11 pulls."""

TIMEOUT_S = 15.0


async def wait_until(condition: Callable[[], bool], timeout: float = TIMEOUT_S, what: str = "condition") -> None:
    """Poll ``condition`` until it holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        await asyncio.sleep(0.01)


def offset_of(text: str, position: types.Position, encoding: str) -> int:
    """The index into ``text`` of an LSP position in ``encoding`` units (written independently of the server)."""
    lines = text.splitlines(keepends=True) or [""]
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line].rstrip("\r\n")
    units = 0
    for column, character in enumerate(line):
        if units >= position.character:
            return start + column
        if encoding == "utf-8":
            units += len(character.encode("utf-8"))
        elif encoding == "utf-16":
            units += 2 if ord(character) > 0xFFFF else 1
        else:
            units += 1
    return start + len(line)


def apply_edits(text: str, edits: Sequence[types.TextEdit], encoding: str) -> str:
    """``text`` with LSP ``edits`` applied (all positions refer to the original text)."""
    spans = sorted(
        ((offset_of(text, e.range.start, encoding), offset_of(text, e.range.end, encoding), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    """The text edits a workspace edit makes to ``uri`` (``changes`` or ``documentChanges``)."""
    found: list[types.TextEdit] = []
    if edit.changes:
        found += list(edit.changes.get(uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            found += [e for e in change.edits if isinstance(e, types.TextEdit)]
    return found


def _make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_diagnostics
    features[types.CLIENT_REGISTER_CAPABILITY] = _accept_registration
    features[types.WORKSPACE_APPLY_EDIT] = _apply_workspace_edit
    register_lsp_features(client, features)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.applied_edits = []  # type: ignore[attr-defined]
    return client


def _record_diagnostics(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    client.published.append(params)  # type: ignore[attr-defined]


def _accept_registration(client: LanguageClient, params: types.RegistrationParams) -> None:
    client.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def _apply_workspace_edit(
    client: LanguageClient, params: types.ApplyWorkspaceEditParams
) -> types.ApplyWorkspaceEditResult:
    client.applied_edits.append(params.edit)  # type: ignore[attr-defined]
    return types.ApplyWorkspaceEditResult(applied=True)


class Session:
    """One server process and a client with one editor's capabilities.

    Args:
        profile: ``"visual-studio-code"`` or ``"neovim"``.
        workspace: The folder the editor has open.
        log_file: Where the server logs.
    """

    def __init__(self, profile: str, workspace: Path, log_file: Path) -> None:
        self.profile = profile
        self.workspace = workspace
        self.log_file = log_file
        self.capabilities = client_capabilities(profile)
        self.client: LanguageClient = None  # type: ignore[assignment]
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.result_ids: dict[str, str | None] = {}
        self.initialize_result: types.InitializeResult | None = None

    @property
    def pulls(self) -> bool:
        """Whether this profile pulls diagnostics."""
        return bool(self.capabilities.text_document and self.capabilities.text_document.diagnostic)

    @property
    def encoding(self) -> str:
        """The position encoding the server chose."""
        assert self.initialize_result is not None
        return str(self.initialize_result.capabilities.position_encoding or "utf-16")

    async def start(self) -> None:
        """Start the server process (``python -m xlalens.server``)."""
        command = [sys.executable, "-m", "xlalens.server", "--log-file", str(self.log_file), "--log-level", "info"]
        config = ClientServerConfig(server_command=command, client_factory=_make_client)
        self.client = await config.start()  # type: ignore[assignment]

    async def initialize(
        self,
        settings: Mapping[str, Any] | None = None,
        initialization_options: Any = None,
    ) -> types.InitializeResult:
        """Initialize, answering ``workspace/configuration`` with ``settings``."""
        if settings is not None:
            self.client.set_configuration(dict(settings), section="xlalens")
        root = from_fs_path(str(self.workspace))
        self.initialize_result = await self.client.initialize_session(
            types.InitializeParams(
                capabilities=self.capabilities,
                root_uri=root,
                workspace_folders=[types.WorkspaceFolder(uri=root, name="workspace")],
                initialization_options=initialization_options,
            )
        )
        return self.initialize_result

    async def stop(self) -> None:
        """Shut the server down and wait for it to exit."""
        if self.client is None:
            return
        if self.initialize_result is not None:
            await asyncio.wait_for(self.client.shutdown_session(), TIMEOUT_S)
        else:
            self.client.exit(None)  # never initialized (the test was skipped): `exit` alone ends the server
        await asyncio.wait_for(self.client.stop(), TIMEOUT_S)

    # -- documents -------------------------------------------------------------------------------

    def uri(self, name: str) -> str:
        """The URI of a file in the workspace."""
        return from_fs_path(str(self.workspace / name))

    def open(self, name: str, text: str) -> str:
        """Open a document (writing it to disk too, as an editor's file would be)."""
        path = self.workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        uri = self.uri(name)
        self.texts[uri] = text
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
        )
        return uri

    def replace(self, uri: str, text: str) -> int:
        """Send the whole new text; return the new version."""
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def edit(self, uri: str, edits: Sequence[types.TextEdit]) -> int:
        """Apply ``edits`` locally and send them as incremental changes; return the new version."""
        text = self.texts[uri]
        changes = []
        for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            changes.append(types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text))
        self.texts[uri] = apply_edits(text, edits, self.encoding)
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=changes,
            )
        )
        return self.versions[uri]

    def save(self, uri: str) -> None:
        """Tell the server the document was saved."""
        self.client.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    # -- diagnostics -----------------------------------------------------------------------------

    def published_for(self, uri: str) -> list[types.PublishDiagnosticsParams]:
        """Every ``publishDiagnostics`` received for ``uri``, in order."""
        return [p for p in self.client.published if p.uri == uri]  # type: ignore[attr-defined]

    async def diagnostics(self, uri: str) -> list[types.Diagnostic]:
        """The diagnostics of the current version, pulled or waited for as the profile does."""
        version = self.versions[uri]
        if self.pulls:
            report = await self.client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    previous_result_id=None,
                )
            )
            assert isinstance(report, types.RelatedFullDocumentDiagnosticReport), report
            self.result_ids[uri] = report.result_id
            return list(report.items)
        await wait_until(
            lambda: any(p.version == version for p in self.published_for(uri)),
            what=f"diagnostics for version {version} of {uri}",
        )
        return list(next(p for p in reversed(self.published_for(uri)) if p.version == version).diagnostics)

    # -- requests --------------------------------------------------------------------------------

    async def hover(self, uri: str, position: types.Position) -> types.Hover | None:
        """``textDocument/hover``."""
        return await self.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
        )

    async def code_actions(
        self,
        uri: str,
        range_: types.Range,
        diagnostics: Sequence[types.Diagnostic],
        only: Sequence[str] | None = None,
    ) -> list[types.CodeAction]:
        """``textDocument/codeAction`` with ``diagnostics`` as the context, the way editors send it."""
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=range_,
                context=types.CodeActionContext(diagnostics=list(diagnostics), only=list(only) if only else None),
            )
        )
        return [action for action in result or [] if isinstance(action, types.CodeAction)]

    async def resolve(self, action: types.CodeAction) -> types.CodeAction:
        """``codeAction/resolve`` when the action has no edit yet."""
        if action.edit is not None:
            return action
        return await self.client.code_action_resolve_async(action)

    async def execute(self, command: str, *arguments: Any) -> Any:
        """``workspace/executeCommand``."""
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=command, arguments=list(arguments))
        )

    def apply(self, uri: str, edit: types.WorkspaceEdit) -> str:
        """The document's text after ``edit`` (not sent to the server)."""
        return apply_edits(self.texts[uri], edits_for(edit, uri), self.encoding)

    def server_log(self) -> str:
        """What the server logged so far."""
        return self.log_file.read_text(encoding="utf-8") if self.log_file.exists() else ""
