// Tokenizes rule files with ../syntaxes/rulelang.tmLanguage.json through
// vscode-textmate and vscode-oniguruma, the libraries VS Code itself uses,
// and prints for each file, for each line, its tokens as
// [startIndex, endIndex, [scopes...]] (JSON on stdout).
//
//     node tokenize.js FILE...
"use strict";
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
const onigLib = oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength))
  .then(() => ({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }));

const grammarPath = path.join(__dirname, "..", "syntaxes", "rulelang.tmLanguage.json");
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scopeName) => {
    if (scopeName !== "source.rulelang") return null;
    return vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath);
  },
});

async function main(files) {
  const grammar = await registry.loadGrammar("source.rulelang");
  const out = {};
  for (const file of files) {
    const lines = fs.readFileSync(file, "utf8").split("\n");
    let stack = vsctm.INITIAL;
    out[file] = lines.map((line) => {
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      return result.tokens.map((t) => [t.startIndex, t.endIndex, t.scopes]);
    });
  }
  process.stdout.write(JSON.stringify(out));
}

main(process.argv.slice(2)).catch((e) => {
  console.error(String(e && e.stack || e));
  process.exit(1);
});
