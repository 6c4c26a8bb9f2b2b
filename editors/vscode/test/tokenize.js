// Tokenize text with the real TextMate engine VS Code uses (vscode-textmate + vscode-oniguruma).
//
//   node test/tokenize.js < file.task        -> JSON: one array per line of
//                                               {"start", "end", "scopes"} tokens
//   node test/tokenize.js --self-test        -> tokenizes a sample and checks a few scopes
//
// Needs `npm install` in editors/vscode (the devDependencies). tests/test_textmate.py runs it,
// when the modules are there, and compares its tokens with those of its own small matcher.
'use strict';

const fs = require('fs');
const path = require('path');
const oniguruma = require('vscode-oniguruma');
const vsctm = require('vscode-textmate');

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'tasklang.tmLanguage.json');

async function loadGrammar() {
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== 'source.tasklang') {
        return null;
      }
      return vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR, 'utf8'), GRAMMAR);
    },
  });
  return registry.loadGrammar('source.tasklang');
}

function tokenize(grammar, text) {
  let state = vsctm.INITIAL;
  const out = [];
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    out.push(
      result.tokens.map((t) => ({
        start: t.startIndex,
        end: Math.min(t.endIndex, line.length),
        scopes: t.scopes,
      })),
    );
    state = result.ruleStack;
  }
  return out;
}

function scopeAt(lineTokens, column) {
  const token = lineTokens.find((t) => t.start <= column && column < t.end);
  return token ? token.scopes : [];
}

async function selfTest(grammar) {
  const line = 'task demo.x { goal "Call {who.name}" budget 5 steps }  # TODO';
  const [tokens] = tokenize(grammar, line);
  const expect = [
    ['task', 'keyword.declaration.task.tasklang'],
    ['demo.x', 'entity.name.function.task.tasklang'],
    ['who.name', 'variable.other.placeholder.tasklang'],
    ['budget', 'keyword.other.task.tasklang'],
    ['5', 'constant.numeric.integer.tasklang'],
    ['TODO', 'keyword.other.todo.tasklang'],
  ];
  let failed = 0;
  for (const [text, scope] of expect) {
    const scopes = scopeAt(tokens, line.indexOf(text));
    if (!scopes.includes(scope)) {
      failed += 1;
      console.error(`${text}: expected ${scope}, got ${scopes.join(' ')}`);
    }
  }
  console.log(failed ? `${failed} check(s) failed` : 'ok');
  return failed ? 1 : 0;
}

async function main() {
  const grammar = await loadGrammar();
  if (process.argv.includes('--self-test')) {
    process.exitCode = await selfTest(grammar);
    return;
  }
  const text = fs.readFileSync(0, 'utf8');
  process.stdout.write(JSON.stringify(tokenize(grammar, text)));
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exitCode = 2;
});
