// The live preview: beside the text, a picture of the puzzle under the cursor, drawn by the
// server (the `sudoku.render` command, the same drawing as `sudoku-lsp render`) and drawn again
// after every edit and cursor move, as Markdown's preview follows its document.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

/** How long the preview waits after a keystroke or a cursor move before asking again. */
const SETTLE_MS = 80;

/** What the webview is told: a picture, or why there is none. */
type Shown = { picture: string; note?: string } | { picture?: undefined; note: string };

export class Preview implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The editor whose puzzle is shown: the last active `.sudoku` editor. */
  private editor: vscode.TextEditor | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The number of the latest request: an answer to an older one is dropped. */
  private asked = 0;
  private readonly listeners: vscode.Disposable[];

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.listeners = [
      vscode.window.onDidChangeTextEditorSelection((event) => this.follow(event.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor && this.follow(editor)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.editor && event.document === this.editor.document) {
          this.schedule();
        }
      }),
    ];
  }

  /** "Sudoku: Open Preview to the Side": opens the panel (or reveals it) for the active editor. */
  show(): void {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'sudoku') {
      void vscode.window.showInformationMessage('Sudoku: open a .sudoku file to preview its puzzles.');
      return;
    }
    if (this.panel) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      this.panel = vscode.window.createWebviewPanel(
        'sudoku.preview',
        'Sudoku Preview',
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [] },
      );
      this.panel.webview.html = page(nonce());
      this.panel.onDidDispose(() => {
        this.panel = undefined;
      });
    }
    this.follow(editor);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.panel?.dispose();
    for (const listener of this.listeners) {
      listener.dispose();
    }
  }

  private follow(editor: vscode.TextEditor): void {
    if (!this.panel || editor.document.languageId !== 'sudoku') {
      return;
    }
    this.editor = editor;
    this.panel.title = `Preview ${basename(editor.document.uri)}`;
    this.schedule();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), SETTLE_MS);
  }

  private async update(): Promise<void> {
    const [panel, editor, client] = [this.panel, this.editor, this.client()];
    if (!panel || !editor) {
      return;
    }
    const ask = ++this.asked;
    const shown = client ? await render(client, editor) : { note: 'The Sudoku language server is not running.' };
    if (ask === this.asked && this.panel === panel) {
      void panel.webview.postMessage(shown);
    }
  }
}

/** The server's picture of the puzzle at the cursor, as a data URI the webview can show. */
async function render(client: LanguageClient, editor: vscode.TextEditor): Promise<Shown> {
  const position = editor.selection.active;
  try {
    const svg = await client.sendRequest<unknown>('workspace/executeCommand', {
      command: 'sudoku.render',
      arguments: [
        {
          uri: editor.document.uri.toString(),
          position: { line: position.line, character: position.character },
          candidates: vscode.workspace.getConfiguration('sudoku').get<boolean>('preview.candidates', false),
        },
      ],
    });
    if (typeof svg !== 'string') {
      return { note: 'No picture: the server does not draw puzzles (an older sudoku-lsp?).' };
    }
    return { picture: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}` };
  } catch (error) {
    // Most often the cursor is outside every puzzle: the last picture stays, with why.
    const message = error instanceof Error ? error.message : String(error);
    return { note: `${message} (place the cursor in a puzzle)` };
  }
}

function basename(uri: vscode.Uri): string {
  return uri.path.split('/').pop() ?? uri.path;
}

function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length: 32 }, () => chars[Math.floor(Math.random() * chars.length)]).join('');
}

/**
 * The webview's page: an image and a note, changed by messages. The picture is an `<img>` of a
 * data URI, never inline markup, so nothing in a puzzle's title can run as script; the policy
 * allows only data images and this page's own script.
 */
function page(nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style>
  body { display: flex; flex-direction: column; align-items: center; padding: 1em; }
  #picture { max-width: 100%; max-height: 90vh; background: white; }
  #picture:not([src]) { display: none; }
  #note { color: var(--vscode-descriptionForeground); }
</style>
</head>
<body>
<img id="picture" alt="the puzzle under the cursor">
<p id="note">Drawing…</p>
<script nonce="${nonce}">
  const picture = document.getElementById('picture');
  const note = document.getElementById('note');
  window.addEventListener('message', (event) => {
    const shown = event.data;
    if (shown.picture) {
      picture.src = shown.picture;
    }
    note.textContent = shown.note || '';
  });
</script>
</body>
</html>`;
}
