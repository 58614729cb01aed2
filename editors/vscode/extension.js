// The rulelang extension: starts `rulelang lsp` (the setting
// rulelang.server.command) as the language server for .rules files.
// Highlighting, brackets, comments and snippets need no code (package.json).
"use strict";
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulelang")
    .get("server.command", ["rulelang", "lsp"]);
  const server = { command, args, transport: TransportKind.stdio };
  client = new LanguageClient(
    "rulelang",
    "rulelang language server",
    { run: server, debug: server },
    {
      documentSelector: [{ scheme: "file", language: "rulelang" }, { scheme: "untitled", language: "rulelang" }],
    },
  );
  context.subscriptions.push(client);
  client.start().catch((e) => {
    vscode.window.showErrorMessage(
      `rulelang: could not start '${[command, ...args].join(" ")}' (${e.message || e}). ` +
      "Install rulelang with its 'lsp' extra, or set rulelang.server.command.");
  });
  context.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration("rulelang.server.command")) {
      vscode.window.showInformationMessage("rulelang: reload the window to use the new server command.");
    }
  }));
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
