// The Sudoku extension: starts sudoku-lsp for `.sudoku` files and adds a few commands.
//
// Everything about puzzles (diagnostics, hover, code actions, pictures) comes from the server;
// this file only finds the server, starts and restarts it, and exposes "Solve puzzle" and the
// preview (`preview.ts`) in the palette.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { Preview } from './preview';

const SERVER_NAME = process.platform === 'win32' ? 'sudoku-lsp.exe' : 'sudoku-lsp';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel('Sudoku');
  const preview = new Preview(() => client);
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand('sudoku.restartServer', () => restart(context)),
    vscode.commands.registerCommand('sudoku.solvePuzzle', () => applyNamedAction(/^Solve puzzle/)),
    vscode.commands.registerCommand('sudoku.fillForcedCells', () =>
      applyNamedAction(/^Fill all forced cells/),
    ),
    vscode.commands.registerCommand('sudoku.insertNewPuzzle', (variant?: unknown) =>
      insertNewPuzzle(typeof variant === 'string' ? variant : undefined)),
    vscode.commands.registerCommand('sudoku.openPuzzleInSudokuPad', () =>
      applyNamedAction(/^Open in SudokuPad$/),
    ),
    vscode.commands.registerCommand('sudoku.copyPuzzleLink', () =>
      applyNamedAction(/^Copy f-puzzles link$/),
    ),
    vscode.commands.registerCommand('sudoku.convertLink', () =>
      applyNamedAction(/^Convert link to \.sudoku/),
    ),
    preview,
    vscode.commands.registerCommand('sudoku.showPreview', () => preview.show()),
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration('sudoku.server.path')) {
        await restart(context);
      }
    }),
  );
  await start(context);
}

export async function deactivate(): Promise<void> {
  await stop();
}

/** Where the server is: the setting, else the binary shipped in the extension, else PATH. */
function findServer(context: vscode.ExtensionContext): { command?: string; problem?: string } {
  const configured = vscode.workspace.getConfiguration('sudoku').get<string>('server.path', '').trim();
  if (configured) {
    const expanded = configured.startsWith('~') ? path.join(os.homedir(), configured.slice(1)) : configured;
    if (isExecutable(expanded)) {
      return { command: expanded };
    }
    return {
      problem: `The setting sudoku.server.path points to "${configured}", which is not an executable file. Fix the path or clear the setting to use the bundled server or sudoku-lsp on PATH.`,
    };
  }
  const bundled = context.asAbsolutePath(path.join('server', SERVER_NAME));
  if (isExecutable(bundled)) {
    return { command: bundled };
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = dir && path.join(dir, SERVER_NAME);
    if (candidate && isExecutable(candidate)) {
      return { command: candidate };
    }
  }
  return {
    problem:
      'Sudoku: the sudoku-lsp language server was not found. Install it (`cargo install sudoku-lsp`, or `cargo install --path .` in the sudoku-lsp repository) so that `sudoku-lsp` is on PATH, or set "sudoku.server.path" to the binary.',
  };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, process.platform === 'win32' ? fs.constants.F_OK : fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const found = findServer(context);
  if (!found.command) {
    output?.appendLine(found.problem ?? 'no server');
    const choice = await vscode.window.showErrorMessage(found.problem ?? '', 'Open Settings');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'sudoku.server.path');
    }
    return;
  }
  output?.appendLine(`Starting ${found.command}`);
  const serverOptions: ServerOptions = {
    run: { command: found.command, transport: TransportKind.stdio },
    debug: { command: found.command, transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'sudoku' },
      { scheme: 'untitled', language: 'sudoku' },
    ],
    outputChannel: output,
    // The server's own settings, at start and on every change (it ignores the editor-side
    // `server` and `trace` entries of the section). `hoverPictures`: VS Code draws the image a
    // hover on a puzzle's title carries, which LSP has no capability to say. `copiesLinks`:
    // the middleware below puts the f-puzzles link on the clipboard, so the server need not
    // show it in a message.
    initializationOptions: { ...serverSettings(), hoverPictures: true, copiesLinks: true },
    synchronize: { configurationSection: 'sudoku' },
    middleware: {
      // "Copy f-puzzles link" (a code action running the server's command): the link is the
      // command's result; LSP has no clipboard, VS Code has.
      executeCommand: async (command, args, next) => {
        const result: unknown = await next(command, args);
        if (command === 'sudoku.copyFpuzzlesLink' && typeof result === 'string') {
          await vscode.env.clipboard.writeText(result);
          void vscode.window.showInformationMessage('Sudoku: f-puzzles link copied to the clipboard.');
        }
        return result;
      },
    },
  };
  // The id `sudoku` makes the client read the `sudoku.trace.server` setting.
  client = new LanguageClient('sudoku', 'Sudoku', serverOptions, clientOptions);
  try {
    await client.start();
  } catch (error) {
    void vscode.window.showErrorMessage(`Sudoku: the language server failed to start: ${String(error)}`);
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch (error) {
      output?.appendLine(`Stopping the server: ${String(error)}`);
    }
  }
}

async function restart(context: vscode.ExtensionContext): Promise<void> {
  await stop();
  await start(context);
}

/** Asks the server for the code actions at the cursor and applies the one whose title matches. */
async function applyNamedAction(title: RegExp): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.languageId !== 'sudoku') {
    void vscode.window.showInformationMessage('Sudoku: open a .sudoku file and place the cursor in a puzzle.');
    return;
  }
  const position = editor.selection.active;
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      new vscode.Range(position, position),
      undefined,
      // The server offers its actions without their edits (VS Code resolves them when one is
      // chosen): resolve them all here, since the one wanted may be far down the list.
      100,
    )) ?? [];
  const action = actions.find((a) => title.test(a.title));
  if (!action) {
    void vscode.window.showInformationMessage(
      'Sudoku: nothing to do here. Place the cursor inside a puzzle that has a solution.',
    );
    return;
  }
  if ('disabled' in action && action.disabled) {
    void vscode.window.showWarningMessage(`Sudoku: ${action.title}: ${action.disabled.reason}`);
    return;
  }
  if ('edit' in action && action.edit) {
    const applied = await vscode.workspace.applyEdit(action.edit);
    if (!applied) {
      void vscode.window.showWarningMessage('Sudoku: the edit could not be applied (the file changed meanwhile?).');
    }
  }
  const command = 'command' in action ? action.command : undefined;
  if (typeof command === 'string') {
    const plain = action as vscode.Command;
    await vscode.commands.executeCommand(plain.command, ...(plain.arguments ?? []));
  } else if (command) {
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
  }
}

// The kinds "Sudoku: Insert New Puzzle" offers: `sudoku-lsp new --variant` of each.
const NEW_PUZZLE_KINDS: (vscode.QuickPickItem & { variant: string })[] = [
  { label: 'Classic', variant: 'classic', detail: 'Rows, columns and boxes' },
  { label: 'Diagonal', variant: 'diagonal', detail: 'Both main diagonals hold every digit once too' },
  { label: 'Killer', variant: 'killer', detail: 'Cages with their sums covering the grid, mostly no given' },
  { label: 'Kropki', variant: 'kropki', detail: 'Every white (consecutive) and black (double) dot' },
  { label: 'XV', variant: 'xv', detail: 'Every X (sum 10) and V (sum 5)' },
  { label: 'Thermo', variant: 'thermo', detail: 'Thermometers rising from their bulbs' },
];

// "Sudoku: Insert New Puzzle": the kind picked (or passed by a keybinding's `args`), then the
// server's generator makes a 9×9 of it with one solution and asks VS Code to insert it above
// the cursor's line.
async function insertNewPuzzle(variant?: string): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || !client) {
    void vscode.window.showInformationMessage('Sudoku: open a .sudoku file to insert a puzzle into.');
    return;
  }
  if (!variant) {
    const picked = await vscode.window.showQuickPick(NEW_PUZZLE_KINDS, { placeHolder: 'Sudoku: which kind of puzzle?' });
    if (!picked) {
      return;
    }
    variant = picked.variant;
  }
  const line = editor.selection.active.line;
  await client.sendRequest('workspace/executeCommand', {
    command: 'sudoku.newPuzzle',
    arguments: [{ uri: editor.document.uri.toString(), position: { line, character: 0 }, variant }],
  });
}

/** The settings the language server reads (see its README). */
function serverSettings(): {
  checkAgainstSolution: boolean;
  redundantGivens: boolean;
  formatStyle: string;
  inlayHints: string;
  maxDocumentMB: number;
} {
  const config = vscode.workspace.getConfiguration('sudoku');
  return {
    checkAgainstSolution: config.get<boolean>('checkAgainstSolution', false),
    redundantGivens: config.get<boolean>('redundantGivens', false),
    formatStyle: config.get<string>('formatStyle', 'grid'),
    inlayHints: config.get<string>('inlayHints', 'off'),
    maxDocumentMB: config.get<number>('maxDocumentMB', 16),
  };
}
