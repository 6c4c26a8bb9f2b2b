// tasklang for VS Code: starts `<tasklang.serverPath> lsp` and talks LSP to it over stdio.
// Plain JavaScript (CommonJS), so the folder needs no build step: `npm install` and go.
'use strict';

const os = require('os');
const path = require('path');
const vscode = require('vscode');
const { LanguageClient, State } = require('vscode-languageclient/node');

const SECTION = 'tasklang';
let client;

/** The first workspace folder, if any: the base for relative server paths. */
function workspaceRoot() {
  const folders = vscode.workspace.workspaceFolders;
  return folders && folders.length > 0 ? folders[0].uri.fsPath : undefined;
}

/** `tasklang.serverPath` with `${workspaceFolder}`, `${userHome}` and `~` expanded. */
function resolveCommand(raw) {
  const root = workspaceRoot();
  let command = (raw || '').trim() || 'tasklang';
  command = command.replace(/\$\{userHome\}/g, os.homedir());
  if (root) {
    command = command.replace(/\$\{workspaceFolder\}/g, root);
  }
  if (command === '~' || command.startsWith('~/')) {
    command = path.join(os.homedir(), command.slice(1));
  }
  // A bare name (`tasklang`) is looked up on PATH; a relative path is taken from the workspace.
  if (root && !path.isAbsolute(command) && /[\\/]/.test(command)) {
    command = path.join(root, command);
  }
  return command;
}

function serverOptions() {
  const config = vscode.workspace.getConfiguration(SECTION);
  const command = resolveCommand(config.get('serverPath'));
  const extra = config.get('serverArgs') || [];
  // No `transport` key: with TransportKind.stdio the client would append `--stdio`;
  // without it, it spawns the command as given and speaks LSP on its stdin/stdout.
  return {
    run: { command, args: ['lsp', ...extra], options: { cwd: workspaceRoot() } },
    debug: { command, args: ['lsp', ...extra], options: { cwd: workspaceRoot() } },
  };
}

function clientOptions() {
  return {
    documentSelector: [
      { scheme: 'file', language: 'tasklang' },
      { scheme: 'untitled', language: 'tasklang' },
    ],
    synchronize: {
      // Tell the server when task or app files change on disk (app models are shared).
      fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{task,app}'),
    },
    outputChannelName: 'tasklang',
  };
}

async function startClient() {
  const options = serverOptions();
  client = new LanguageClient(SECTION, 'tasklang language server', options, clientOptions());
  try {
    await client.start();
  } catch (err) {
    const command = options.run.command;
    const message =
      `tasklang: could not start the language server (\`${command} lsp\`): ${err && err.message ? err.message : err}. ` +
      'Install tasklang (`pip install tasklang`) or set `tasklang.serverPath` to its executable, e.g. .venv/bin/tasklang.';
    const choice = await vscode.window.showErrorMessage(message, 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'tasklang.serverPath');
    }
  }
}

async function stopClient() {
  if (!client) {
    return;
  }
  const old = client;
  client = undefined;
  if (old.state !== State.Stopped) {
    try {
      await old.stop();
    } catch (_err) {
      // The server may already be gone; nothing to clean up then.
    }
  }
}

async function restartClient() {
  await stopClient();
  await startClient();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('tasklang.restartServer', restartClient),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (
        event.affectsConfiguration('tasklang.serverPath') ||
        event.affectsConfiguration('tasklang.serverArgs')
      ) {
        await restartClient();
      }
    }),
    { dispose: () => stopClient() },
  );
  await startClient();
}

function deactivate() {
  return stopClient();
}

module.exports = { activate, deactivate };
