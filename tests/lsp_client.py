"""A test client for ``rulelang lsp``: starts the server as an editor does
(``python -m rulelang lsp``, speaking LSP over its stdin and stdout) and
sends it requests through pygls's own ``LanguageClient``, one event loop
kept for the client's life so the tests can call it plainly."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

ROOT = Path(__file__).resolve().parents[1]

#: How long a test waits for an answer or for diagnostics.
TIMEOUT = 60.0


class Client:
    """One running server and the client talking to it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("rulelang-tests", "1")
        self.diagnostics: Dict[str, List[lsp.Diagnostic]] = {}
        self.versions: Dict[str, int] = {}
        self._fresh: Dict[str, asyncio.Event] = {}

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: lsp.PublishDiagnosticsParams) -> None:
            self.diagnostics[params.uri] = list(params.diagnostics)
            self._event(params.uri).set()

        self.run(self.client.start_io(sys.executable, "-m", "rulelang", "lsp", cwd=str(ROOT)))
        self.initialized = self.run(self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=ROOT.as_uri())))
        self.client.initialized(lsp.InitializedParams())

    def _event(self, uri: str) -> asyncio.Event:
        if uri not in self._fresh:
            self._fresh[uri] = asyncio.Event()
        return self._fresh[uri]

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, TIMEOUT))

    def close(self) -> None:
        try:
            self.run(self.client.shutdown_async(None))
            self.client.exit(None)
            self.run(self.client.stop())
        finally:
            self.loop.close()

    # ------------------------------------------------------------ documents

    def open(self, uri: str, text: str) -> List[lsp.Diagnostic]:
        """Open a document; its diagnostics once the server published them."""
        self._event(uri).clear()
        self.versions[uri] = 1
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            text_document=lsp.TextDocumentItem(uri=uri, language_id="rulelang", version=1,
                                               text=text)))
        return self.wait_diagnostics(uri)

    def change(self, uri: str, text: str) -> List[lsp.Diagnostic]:
        """Replace a document's whole text, as an editor does while typing."""
        self._event(uri).clear()
        self.versions[uri] += 1
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        return self.wait_diagnostics(uri)

    def wait_diagnostics(self, uri: str) -> List[lsp.Diagnostic]:
        self.run(self._event(uri).wait())
        return self.diagnostics[uri]

    # ------------------------------------------------------------- requests

    def doc(self, uri: str) -> lsp.TextDocumentIdentifier:
        return lsp.TextDocumentIdentifier(uri=uri)

    def hover(self, uri: str, line: int, character: int) -> Optional[lsp.Hover]:
        return self.run(self.client.text_document_hover_async(lsp.HoverParams(
            text_document=self.doc(uri), position=lsp.Position(line=line, character=character))))

    def definition(self, uri: str, line: int, character: int) -> Any:
        return self.run(self.client.text_document_definition_async(lsp.DefinitionParams(
            text_document=self.doc(uri), position=lsp.Position(line=line, character=character))))

    def references(self, uri: str, line: int, character: int,
                   declaration: bool = True) -> List[lsp.Location]:
        return self.run(self.client.text_document_references_async(lsp.ReferenceParams(
            text_document=self.doc(uri), position=lsp.Position(line=line, character=character),
            context=lsp.ReferenceContext(include_declaration=declaration)))) or []

    def rename(self, uri: str, line: int, character: int, new: str) -> Optional[lsp.WorkspaceEdit]:
        return self.run(self.client.text_document_rename_async(lsp.RenameParams(
            text_document=self.doc(uri), position=lsp.Position(line=line, character=character),
            new_name=new)))

    def completion(self, uri: str, line: int, character: int) -> Any:
        return self.run(self.client.text_document_completion_async(lsp.CompletionParams(
            text_document=self.doc(uri), position=lsp.Position(line=line, character=character))))

    def symbols(self, uri: str) -> List[lsp.DocumentSymbol]:
        return self.run(self.client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(text_document=self.doc(uri)))) or []

    def formatting(self, uri: str) -> List[lsp.TextEdit]:
        return self.run(self.client.text_document_formatting_async(lsp.DocumentFormattingParams(
            text_document=self.doc(uri),
            options=lsp.FormattingOptions(tab_size=4, insert_spaces=True)))) or []

    def code_actions(self, uri: str, rng: lsp.Range,
                     diagnostics: List[lsp.Diagnostic]) -> List[lsp.CodeAction]:
        return self.run(self.client.text_document_code_action_async(lsp.CodeActionParams(
            text_document=self.doc(uri), range=rng,
            context=lsp.CodeActionContext(diagnostics=diagnostics)))) or []


def apply_edits(text: str, edits: List[lsp.TextEdit]) -> str:
    """``text`` with the edits made (positions in UTF-16 units, as the
    server was told), the last first so the earlier places stay right."""
    lines = text.split("\n")

    def offset(p: lsp.Position) -> int:
        if p.line >= len(lines):
            return len(text)
        line = lines[p.line]
        units, chars = 0, 0
        while chars < len(line) and units < p.character:
            units += 2 if ord(line[chars]) > 0xFFFF else 1
            chars += 1
        return sum(len(x) + 1 for x in lines[:p.line]) + chars

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text
