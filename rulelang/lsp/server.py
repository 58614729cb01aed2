"""The language server (``rulelang lsp``): the protocol's side of
``analysis``, on pygls, over stdin and stdout.

Each open document is analysed when it opens and at each change (parsed
and checked as ``rulelang check`` does); its problems are published at
once, and every request is answered from that analysis.  A document that
does not parse keeps the names of its last analysis that did, for
completion.  Places go to and from the client's units (UTF-16 unless the
client and server agreed on another) through pygls's position codec.
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Dict, List, Optional, Sequence

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from ..errors import RulesetError
from ..ir import NAME_PATTERN
from ..version import __version__
from ..words import DECLARATION_WORDS, KEYWORD, KEYWORDS
from . import reference
from .analysis import analyse
from .model import Analysis, Occurrence, Outline, Place

_KINDS = {
    "stat": lsp.CompletionItemKind.Variable, "param": lsp.CompletionItemKind.Constant,
    "const": lsp.CompletionItemKind.Constant, "deck": lsp.CompletionItemKind.Class,
    "pile": lsp.CompletionItemKind.Field, "pieces": lsp.CompletionItemKind.Struct,
    "table": lsp.CompletionItemKind.Struct, "rule": lsp.CompletionItemKind.Function,
    "option": lsp.CompletionItemKind.Enum, "actor": lsp.CompletionItemKind.Module,
    "phase": lsp.CompletionItemKind.Method, "card": lsp.CompletionItemKind.EnumMember,
    "piece": lsp.CompletionItemKind.EnumMember, "property": lsp.CompletionItemKind.Property,
    "field": lsp.CompletionItemKind.Field, "word": lsp.CompletionItemKind.Value,
    "local": lsp.CompletionItemKind.Variable,
}

_SYMBOL_KINDS = {
    "variable": lsp.SymbolKind.Variable, "constant": lsp.SymbolKind.Constant,
    "object": lsp.SymbolKind.Object, "class": lsp.SymbolKind.Class,
    "enum_member": lsp.SymbolKind.EnumMember, "array": lsp.SymbolKind.Array,
    "struct": lsp.SymbolKind.Struct, "function": lsp.SymbolKind.Function,
    "enum": lsp.SymbolKind.Enum, "namespace": lsp.SymbolKind.Namespace,
    "method": lsp.SymbolKind.Method, "event": lsp.SymbolKind.Event,
}

_NAME = re.compile(NAME_PATTERN)


class RulelangServer(LanguageServer):
    """A pygls server that keeps one analysis per open document."""

    def __init__(self) -> None:
        super().__init__("rulelang", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.analyses: Dict[str, Analysis] = {}
        #: the last analysis of each document that parsed (for completion)
        self.good: Dict[str, Analysis] = {}

    def document(self, uri: str) -> TextDocument:
        return self.workspace.get_text_document(uri)

    def analysis(self, uri: str) -> Analysis:
        """The analysis of the document as it is now (made when missing)."""
        doc = self.document(uri)
        found = self.analyses.get(uri)
        if found is None or found.text != doc.source:
            found = self.refresh(uri)
        return found

    def refresh(self, uri: str) -> Analysis:
        doc = self.document(uri)
        found = analyse(doc.source, _filename(uri))
        self.analyses[uri] = found
        if found.rs is not None:
            self.good[uri] = found
        return found

    # --------------------------------------------------------- places

    def to_client(self, uri: str, line: int, column: int) -> lsp.Position:
        doc = self.document(uri)
        lines = doc.lines
        if line >= len(lines):
            return lsp.Position(line=line, character=column)
        return doc.position_codec.position_to_client_units(
            lines, lsp.Position(line=line, character=column))

    def range(self, uri: str, place: Place) -> lsp.Range:
        return lsp.Range(start=self.to_client(uri, place.line, place.start),
                         end=self.to_client(uri, place.line, place.end))

    def from_client(self, uri: str, position: lsp.Position) -> lsp.Position:
        doc = self.document(uri)
        p = doc.position_codec.position_from_client_units(
            doc.lines, lsp.Position(line=position.line, character=position.character))
        return lsp.Position(line=p.line, character=p.character)

    def at(self, uri: str, position: lsp.Position) -> Optional[Occurrence]:
        p = self.from_client(uri, position)
        return self.analysis(uri).occurrence_at(p.line, p.character)

    def location(self, uri: str, place: Place) -> lsp.Location:
        return lsp.Location(uri=uri, range=self.range(uri, place))


def _filename(uri: str) -> str:
    """What a diagnostic calls the document: its path, or the URI."""
    path: Optional[str] = to_fs_path(uri) if uri.startswith("file:") else None
    return path or uri


server = RulelangServer()


def publish(ls: RulelangServer, uri: str) -> None:
    a = ls.refresh(uri)
    diagnostics = [
        lsp.Diagnostic(range=ls.range(uri, p.place), message=p.message, source="rulelang",
                       severity=lsp.DiagnosticSeverity.Warning if p.warning
                       else lsp.DiagnosticSeverity.Error)
        for p in a.problems]
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
        uri=uri, diagnostics=diagnostics, version=ls.document(uri).version))


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulelangServer, params: lsp.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulelangServer, params: lsp.DidChangeTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulelangServer, params: lsp.DidSaveTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulelangServer, params: lsp.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    ls.good.pop(uri, None)
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(lsp.TEXT_DOCUMENT_HOVER)
def hover(ls: RulelangServer, params: lsp.HoverParams) -> Optional[lsp.Hover]:
    uri = params.text_document.uri
    a = ls.analysis(uri)
    occ = ls.at(uri, params.position)
    if occ is not None:
        text = a.hovers.get(occ.symbol)
        if text:
            return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text),
                             range=ls.range(uri, occ.place))
    p = ls.from_client(uri, params.position)
    t = a.token_at(p.line, p.character)
    if t is not None and (t.kind == KEYWORD or t.text in ("yes", "no", "none")):
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown,
                                                    value=reference.entry(t.text)),
                         range=ls.range(uri, Place(t.line, t.column, t.end_column)))
    return None


@server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulelangServer, params: lsp.DefinitionParams) -> Optional[lsp.Location]:
    uri = params.text_document.uri
    occ = ls.at(uri, params.position)
    if occ is None:
        return None
    place = ls.analysis(uri).definitions.get(occ.symbol)
    return ls.location(uri, place) if place is not None else None


@server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
def references(ls: RulelangServer, params: lsp.ReferenceParams) -> List[lsp.Location]:
    uri = params.text_document.uri
    a = ls.analysis(uri)
    occ = ls.at(uri, params.position)
    if occ is None:
        return []
    found = [o.place for o in a.references(occ.symbol)]
    if not params.context.include_declaration:
        found = [p for p in found if p != a.definitions.get(occ.symbol)]
    return [ls.location(uri, p) for p in found]


@server.feature(lsp.TEXT_DOCUMENT_PREPARE_RENAME)
def prepare_rename(ls: RulelangServer, params: lsp.PrepareRenameParams) -> Optional[lsp.Range]:
    occ = ls.at(params.text_document.uri, params.position)
    if occ is None or occ.symbol not in ls.analysis(params.text_document.uri).definitions:
        return None
    return ls.range(params.text_document.uri, occ.place)


@server.feature(lsp.TEXT_DOCUMENT_RENAME)
def rename(ls: RulelangServer, params: lsp.RenameParams) -> Optional[lsp.WorkspaceEdit]:
    """Every place the name means the same thing, renamed; a new name the
    grammar would not read as a name is refused."""
    uri = params.text_document.uri
    new = params.new_name
    if not _NAME.fullmatch(new) or new in KEYWORDS:
        raise ValueError(f"'{new}' is not a name rulelang can use (a letter or _, then letters, "
                         f"digits or _, and not a keyword)")
    a = ls.analysis(uri)
    occ = ls.at(uri, params.position)
    if occ is None or occ.symbol not in a.definitions:
        return None
    edits = [lsp.TextEdit(range=ls.range(uri, o.place), new_text=f'"{new}"' if o.quoted else new)
             for o in a.references(occ.symbol)]
    return lsp.WorkspaceEdit(changes={uri: edits})


@server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                lsp.CompletionOptions(trigger_characters=["."]))
def completion(ls: RulelangServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    """The names in scope where the cursor is, every keyword, and the names
    of cards and pieces (quoted where they are not plain names)."""
    uri = params.text_document.uri
    a = ls.analysis(uri)
    source = a if a.rs is not None else ls.good.get(uri, a)
    p = ls.from_client(uri, params.position)
    items: List[lsp.CompletionItem] = []
    seen = set()
    offset = min(source.offset(p.line, p.character), len(source.text))
    for name, symbol in sorted(source.names_in_scope(offset).items()):
        label = name if _NAME.fullmatch(name) else f'"{name}"'
        if (label, symbol.kind) in seen:
            continue
        seen.add((label, symbol.kind))
        items.append(lsp.CompletionItem(
            label=label, kind=_KINDS.get(symbol.kind, lsp.CompletionItemKind.Text),
            detail=symbol.kind, sort_text=f"0{label}",
            documentation=_markup(source.hovers.get(symbol))))
    for word in sorted(KEYWORDS):
        items.append(lsp.CompletionItem(
            label=word, kind=lsp.CompletionItemKind.Keyword, detail="keyword",
            sort_text=f"{'1' if word in DECLARATION_WORDS else '2'}{word}"))
    return lsp.CompletionList(is_incomplete=False, items=items)


def _markup(text: Optional[str]) -> Optional[lsp.MarkupContent]:
    return lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text) if text else None


@server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulelangServer, params: lsp.DocumentSymbolParams) -> List[lsp.DocumentSymbol]:
    uri = params.text_document.uri
    a = ls.analysis(uri)

    def convert(o: Outline) -> lsp.DocumentSymbol:
        sl, sc, el, ec = o.range
        whole = lsp.Range(start=ls.to_client(uri, sl, sc), end=ls.to_client(uri, el, ec))
        sel = ls.range(uri, o.selection)
        if (sel.start.line, sel.start.character) < (sl, 0) or (sel.end.line, sel.end.character) > \
                (whole.end.line, whole.end.character):
            sel = lsp.Range(start=whole.start, end=whole.start)
        return lsp.DocumentSymbol(name=o.name, kind=_SYMBOL_KINDS.get(o.kind, lsp.SymbolKind.Key),
                                  detail=o.detail or None, range=whole, selection_range=sel,
                                  children=[convert(c) for c in o.children] or None)

    return [convert(o) for o in a.outline]


@server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
def formatting(ls: RulelangServer, params: lsp.DocumentFormattingParams) -> List[lsp.TextEdit]:
    """The document as ``rulelang fmt`` writes it, as one edit; no edits
    when it is already so, when it does not parse, or where this rulelang
    has no formatter."""
    uri = params.text_document.uri
    doc = ls.document(uri)
    try:
        fmt = importlib.import_module("rulelang.syntax.fmt")
    except ImportError:
        return []
    try:
        formatted = str(fmt.format_source(doc.source, _filename(uri)))
    except RulesetError:
        return []
    if formatted == doc.source:
        return []
    lines = doc.lines
    end = lsp.Position(line=len(lines), character=0)
    return [lsp.TextEdit(range=lsp.Range(start=lsp.Position(line=0, character=0), end=end),
                         new_text=formatted)]


@server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION,
                lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix]))
def code_action(ls: RulelangServer, params: lsp.CodeActionParams) -> List[lsp.CodeAction]:
    """For each problem in the range that the checker answered with "did
    you mean 'X'?": replace the misspelt name with X."""
    uri = params.text_document.uri
    a = ls.analysis(uri)
    start = ls.from_client(uri, params.range.start)
    end = ls.from_client(uri, params.range.end)
    actions: List[lsp.CodeAction] = []
    for p in a.problems:
        if p.fix is None:
            continue
        place, meant = p.fix
        if not _overlaps((p.place.line, p.place.start, place.line, place.end),
                         (start.line, start.character, end.line, end.character)):
            continue
        diagnostic = lsp.Diagnostic(range=ls.range(uri, p.place), message=p.message,
                                    source="rulelang", severity=lsp.DiagnosticSeverity.Error)
        actions.append(lsp.CodeAction(
            title=f"Change to '{meant}'", kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[diagnostic], is_preferred=True,
            edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=ls.range(uri, place),
                                                               new_text=meant)]})))
    return actions


def _overlaps(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether two (line, col, end line, end col) spans meet."""
    return (a[0], a[1]) <= (b[2], b[3]) and (b[0], b[1]) <= (a[2], a[3])


def main(argv: Optional[Sequence[Any]] = None) -> int:
    """Serve over stdin and stdout until the client says exit."""
    server.start_io()
    return 0
