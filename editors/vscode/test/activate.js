// Activate extension.js against stand-ins for `vscode` and `vscode-languageclient/node`, and
// print (JSON) what it would start: the client id, server options and document selector.
// Needs only node, no node_modules:
//
//   node test/activate.js '{"serverPath": ".venv/bin/tasklang", "workspace": "/w"}'
//
// tests/test_textmate.py runs it and checks the command line (`<serverPath> lsp ...`).
'use strict';

const Module = require('module');
const path = require('path');

const input = JSON.parse(process.argv[2] || '{}');
const settings = {
  serverPath: input.serverPath,
  serverArgs: input.serverArgs,
};
const created = [];
const disposable = { dispose() {} };

const vscodeStub = {
  workspace: {
    workspaceFolders: input.workspace ? [{ uri: { fsPath: input.workspace } }] : undefined,
    getConfiguration: (section) => ({
      get: (key) => (section === 'tasklang' ? settings[key] : undefined),
    }),
    createFileSystemWatcher: (glob) => ({ glob, dispose() {} }),
    onDidChangeConfiguration: () => disposable,
  },
  window: { showErrorMessage: async () => undefined },
  commands: {
    registerCommand: (id) => ({ id, dispose() {} }),
    executeCommand: async () => undefined,
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    this.state = 1;
    created.push({ id, name, serverOptions, clientOptions });
  }
  async start() {
    this.state = 2;
  }
  async stop() {
    this.state = 1;
  }
}
const clientStub = { LanguageClient, State: { Stopped: 1, Starting: 3, Running: 2 } };

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') {
    return vscodeStub;
  }
  if (request === 'vscode-languageclient/node') {
    return clientStub;
  }
  return load.call(this, request, parent, isMain);
};

async function main() {
  const extension = require(path.join(__dirname, '..', 'extension.js'));
  const context = { subscriptions: [] };
  await extension.activate(context);
  const [client] = created;
  const out = {
    clients: created.length,
    id: client.id,
    name: client.name,
    run: client.serverOptions.run,
    debug: client.serverOptions.debug,
    documentSelector: client.clientOptions.documentSelector,
    watch: client.clientOptions.synchronize.fileEvents.glob,
    commands: context.subscriptions.filter((s) => s.id).map((s) => s.id),
  };
  await extension.deactivate();
  process.stdout.write(JSON.stringify(out));
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  process.exitCode = 1;
});
