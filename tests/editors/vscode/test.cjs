// Drives VS Code (code-server) in Chromium through playwright-core, as a user would:
// language mode, conflict squiggles and Problems entries (an unopened file's too: workspace
// diagnostics), hover pencil marks, the code lenses
// (rating, Hint, Solve), "Sudoku: Solve Puzzle", "Sudoku: Insert New Puzzle" (classic and killer), "Format Document",
// the outline (Go to Symbol), semantic tokens (Inspect Editor Tokens and Scopes) and the live
// preview beside the text (a webview with the server's picture, redrawn after an edit).
// Run by tests/editors/vscode.sh, which sets URL, WORKSPACE, FIXTURES and SHOTS.
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const { URL, WORKSPACE, FIXTURES, SHOTS, MACHINE_DIR } = process.env;
const TIMEOUT = 30000;
let failures = 0;

function check(ok, what, detail) {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}${!ok && detail !== undefined ? `: ${detail}` : ''}`);
  if (!ok) failures++;
  return ok;
}

async function until(fn, timeout = TIMEOUT) {
  const end = Date.now() + timeout;
  let last;
  while (Date.now() < end) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = undefined;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return last;
}

async function main() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage({ viewport: { width: 1200, height: 720 } });
  page.setDefaultTimeout(TIMEOUT);
  const consoleErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  try {
    await run(page);
  } catch (e) {
    check(false, 'the test ran to the end', e.stack || String(e));
  }
  if (failures) {
    await page.screenshot({ path: path.join(SHOTS, 'vscode-failure.png') }).catch(() => {});
    console.log(`--- screenshot of the failure: ${path.join(SHOTS, 'vscode-failure.png')}`);
    console.log('--- browser console errors\n' + consoleErrors.slice(-20).join('\n'));
  }
  await browser.close();
  process.exit(failures ? 1 : 0);
}

// The extension's "Sudoku" output channel, as code-server writes it to its logs folder.
function sudokuLog() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/Sudoku\.log$/.test(entry.name)) found.push(file);
    }
  };
  walk(path.join(MACHINE_DIR, '..', 'logs'));
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

async function command(page, name) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill('>' + name);
  try {
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor();
  } catch (e) {
    await page.screenshot({ path: path.join(SHOTS, 'vscode-palette.png') });
    throw e;
  }
  await page.keyboard.press('Enter');
}

// Choose `label` in the quick pick a command opened.
async function pick(page, label) {
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first().waitFor();
  await input.fill(label);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).first().waitFor();
  await page.keyboard.press('Enter');
}

async function openFile(page, name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  // The text editor's own tab: a preview beside it is titled "Preview NAME" too.
  await page.locator(`.tab.active[data-resource-name="${name}"]`).waitFor();
  await page.locator('.editor-instance .monaco-editor .view-lines').first().click();
}

async function goTo(page, line, column) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
  await until(async () => (await page.locator('[id="status.editor.selection"]').innerText()).includes(`Ln ${line}, Col ${column}`));
}

// Shows the hover at the cursor and waits until `pick` finds what it wants in it. The first
// request can race the server's first analysis of a just-opened file (VS Code then shows an
// empty hover and does not ask again), so the hover is asked for again every few seconds.
async function hoverUntil(page, pick) {
  let asked = 0;
  return until(async () => {
    if (Date.now() - asked > 4000) {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+K');
      await page.keyboard.press('Control+I');
      asked = Date.now();
    }
    return pick();
  });
}

async function hoverTexts(page) {
  return (await page.locator('.monaco-hover-content').allInnerTexts().catch(() => [])).join(' | ').slice(0, 600) || '(no hover)';
}

async function run(page) {
  await page.goto(URL);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90000 });
  console.log('  workbench loaded');

  // The conflict file: language mode, squiggles on A5 and A9, Problems entries.
  await openFile(page, 'conflict.sudoku');
  const mode = await until(async () => {
    const text = (await page.locator('[id="status.editor.mode"]').innerText()).trim();
    return text === 'Sudoku' ? text : undefined;
  });
  check(mode === 'Sudoku', 'the language mode reads "Sudoku"', mode);
  const squiggles = await until(async () => {
    const n = await page.locator('.editor-instance .squiggly-error').count();
    return n >= 2 ? n : undefined;
  });
  check(squiggles >= 2, 'error squiggles on the two conflicting cells', `${squiggles} squiggles`);
  await page.keyboard.press('Control+Shift+M');
  const problems = await until(async () => {
    const text = await page.locator('.markers-panel').innerText();
    return /row A/.test(text) && /Ln 3, Col 19/.test(text) && /Ln 3, Col 10/.test(text) ? text : undefined;
  });
  check(!!problems, 'the Problems panel lists the conflict in row A at Ln 3, Col 10 and Col 19',
    await page.locator('.markers-panel').innerText().catch(() => '(no panel)'));
  if (problems) console.log('  problems: ' + problems.replace(/\s+/g, ' ').slice(0, 300));
  check(/sudoku/.test(problems || ''), 'the Problems entries name their source "sudoku"');
  // Workspace diagnostics: VS Code pulls them for every file of the folder, open or not.
  const unopened = await until(async () => {
    const text = await page.locator('.markers-panel').innerText();
    return /unopened\.sudoku/.test(text) ? text : undefined;
  });
  check(!!unopened, 'the Problems panel lists unopened.sudoku, never opened (workspace diagnostics)',
    await page.locator('.markers-panel').innerText().catch(() => '(no panel)'));

  // The easy puzzle: hover on the empty cell A8 (line 4, column 10) shows {5, 7, 8, 9}.
  await openFile(page, 'solve.sudoku');
  await goTo(page, 4, 10);
  const hover = await hoverUntil(page, async () => {
    // Several hover widgets may exist (hidden ones too): take the one showing a braced set.
    const texts = await page.locator('.monaco-hover-content').allInnerTexts();
    return texts.find((text) => /\{[^}]*\}/.test(text));
  });
  check(hover && hover.match(/\{[^}]*\}/)[0] === '{5, 7, 8, 9}', 'hover on A8 shows the pencil marks {5, 7, 8, 9}', hover || await hoverTexts(page));
  if (hover) console.log('  hover: ' + hover.replace(/\s+/g, ' ').slice(0, 300));
  const bulb = await until(() => page.locator('.editor-instance [class*="lightBulb"], .editor-instance [class*="lightbulb"]').first().isVisible());
  check(!!bulb, 'a light bulb offers code actions at the cursor');
  // The README's picture: editor, hover, Problems panel and status bar, without the side bar.
  await page.screenshot({ path: path.join(SHOTS, 'vscode.png'), clip: { x: 348, y: 36, width: 852, height: 684 } });
  // Hover on the title (line 2) draws the puzzle: an inline data: image that VS Code loads.
  await page.keyboard.press('Escape');
  await goTo(page, 2, 5);
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+I');
  const picture = await until(async () => {
    const images = page.locator('.monaco-hover-content img');
    for (let i = 0; i < await images.count(); i++) {
      const image = images.nth(i);
      const [src, width] = await image.evaluate((el) => [el.getAttribute('src') || '', el.naturalWidth]);
      if (src.startsWith('data:image/') && width > 0) return { src: src.slice(0, 30), width };
    }
    return undefined;
  });
  check(!!picture, "hover on the puzzle's title shows its picture, loaded (an inline data: image)",
    await page.locator('.monaco-hover-content').evaluateAll((els) => els.map((el) => el.innerHTML).join(' ').slice(0, 400)).catch(() => ''));
  if (picture) console.log(`  title hover picture: ${picture.src}… ${picture.width} px wide`);
  await page.screenshot({ path: path.join(SHOTS, 'vscode-title-hover.png') });
  await goTo(page, 4, 10);

  // Code lenses above the title: the rating (it arrives after the diagnostics; the server asks
  // for the lenses again), then Hint, a command the server runs: a message with the hint.
  await page.keyboard.press('Escape');
  const lensText = async () =>
    (await page.locator('.editor-instance .codelens-decoration').allInnerTexts()).join(' | ').replace(/\u00a0/g, ' ');
  const rated = await until(async () => {
    const text = await lensText();
    return /SE \d+\.\d · \w+ · unique · 32 givens/.test(text) ? text : undefined;
  });
  check(!!rated, 'a code lens shows the rating, "unique" and the givens', await lensText().catch(() => ''));
  if (rated) console.log('  lens: ' + rated.replace(/\s+/g, ' '));
  await page.locator('.editor-instance .codelens-decoration a', { hasText: /^Hint$/ }).first().click();
  const hinted = await until(async () => {
    const texts = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    return texts.find((t) => t.includes('Hint 1/3: look at'));
  });
  check(!!hinted, 'clicking the Hint lens shows "Hint 1/3: look at …"', hinted);
  if (hinted) console.log('  hint: ' + hinted);
  await page.screenshot({ path: path.join(SHOTS, 'vscode-lens.png') });

  // "Sudoku: Solve Puzzle" from the command palette writes the solution into the editor.
  await page.keyboard.press('Escape');
  await goTo(page, 5, 2);
  await command(page, 'Sudoku: Solve Puzzle');
  const solvedView = await until(async () => {
    const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
    return text.includes('483|921|657') && text.includes('695|417|382') ? text : undefined;
  });
  check(!!solvedView, '"Sudoku: Solve Puzzle" writes the solution into the editor',
    await page.locator('.editor-instance .view-lines').first().innerText().catch(() => ''));
  await page.keyboard.press('Control+S');
  const expected = fs.readFileSync(path.join(FIXTURES, 'solve.solved.sudoku'), 'utf8');
  const saved = await until(() => fs.readFileSync(path.join(WORKSPACE, 'solve.sudoku'), 'utf8') === expected, 10000);
  check(saved, 'the saved file is exactly the solved puzzle (layout and comments kept)',
    fs.readFileSync(path.join(WORKSPACE, 'solve.sudoku'), 'utf8'));
  await page.screenshot({ path: path.join(SHOTS, 'vscode-solved.png') });

  // Undo, then the Solve lens: the server asks VS Code to apply the solution.
  await page.keyboard.press('Control+Z');
  const unsolved = await until(async () => !(await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ').includes('483|921|657'));
  check(!!unsolved, 'undo brings the puzzle back');
  const solveLens = page.locator('.editor-instance .codelens-decoration a', { hasText: /^Solve$/ }).first();
  await until(() => solveLens.isVisible());
  await solveLens.click();
  const lensSolved = await until(async () => {
    const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
    return text.includes('483|921|657') && text.includes('695|417|382') ? text : undefined;
  });
  check(!!lensSolved, 'clicking the Solve lens writes the solution into the editor',
    await page.locator('.editor-instance .view-lines').first().innerText().catch(() => ''));
  await page.keyboard.press('Control+S');

  // "Sudoku: Insert New Puzzle": the server's generator, a new puzzle above the cursor's line.
  await goTo(page, 1, 1);
  await command(page, 'Sudoku: Insert New Puzzle');
  await pick(page, 'Classic');
  const newPuzzle = await until(async () => {
    const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
    return text.includes('# title: New puzzle') && /# source: sudoku-lsp new --seed \d+\n/.test(text) ? text : undefined;
  });
  check(!!newPuzzle, '"Sudoku: Insert New Puzzle" (Classic) inserts a new puzzle with its title and seed above the cursor',
    await page.locator('.editor-instance .view-lines').first().innerText().catch(() => ''));
  await page.keyboard.press('Control+Z');
  // Picked Killer: a killer's source line and its cages.
  await goTo(page, 1, 1);
  await command(page, 'Sudoku: Insert New Puzzle');
  await pick(page, 'Killer');
  const newKiller = await until(async () => {
    const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
    return /# source: sudoku-lsp new --seed \d+ --variant killer/.test(text) && /\ncage \d+: /.test(text) ? text : undefined;
  });
  check(!!newKiller, '"Sudoku: Insert New Puzzle" (Killer) inserts a killer: its source line and its cages',
    await page.locator('.editor-instance .view-lines').first().innerText().catch(() => ''));
  await page.keyboard.press('Control+Z');

  // "Format Document" lays out a loosely written grid; saved, the file is the formatted fixture.
  await openFile(page, 'format.sudoku');
  await command(page, 'Format Document');
  const formattedView = await until(async () => {
    const text = (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
    return text.includes('. . 3 | . 2 . | 6 . .') ? text : undefined;
  });
  check(!!formattedView, '"Format Document" writes the grid layout',
    await page.locator('.editor-instance .view-lines').first().innerText().catch(() => ''));
  await page.keyboard.press('Control+S');
  const formatted = fs.readFileSync(path.join(FIXTURES, 'format.formatted.sudoku'), 'utf8');
  const formattedSaved = await until(() => fs.readFileSync(path.join(WORKSPACE, 'format.sudoku'), 'utf8') === formatted, 10000);
  check(formattedSaved, '  ... saved, the file is exactly the formatted fixture',
    fs.readFileSync(path.join(WORKSPACE, 'format.sudoku'), 'utf8'));

  // The outline: "Go to Symbol in Editor" lists the puzzle by its title.
  await page.keyboard.press('Control+Shift+O');
  const symbol = await until(async () => {
    const rows = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    return rows.find((row) => row.includes('Loose'));
  });
  check(!!symbol, '"Go to Symbol in Editor" lists the puzzle "Loose"', symbol);
  await page.keyboard.press('Escape');

  // Semantic tokens, as "Developer: Inspect Editor Tokens and Scopes" shows them: the given 3
  // at A3 (line 3, column 5 after formatting) is a read-only number.
  await goTo(page, 3, 5);
  await command(page, 'Developer: Inspect Editor Tokens and Scopes');
  const inspected = await until(async () => {
    const text = await page.locator('.token-inspect-widget').innerText();
    return /semantic token type\s*number/.test(text) && /readonly/.test(text) ? text : undefined;
  });
  check(!!inspected, 'the given 3 at A3 has the semantic token type number, modifier readonly',
    await page.locator('.token-inspect-widget').innerText().catch(() => '(no inspector)'));
  await page.keyboard.press('Escape');

  // sudoku.server.path: a wrong path gives an error naming the setting; the right one (and
  // "Sudoku: Restart Server") brings the squiggles back.
  // It is a machine setting: code-server, being a remote, reads those from Machine/settings.json.
  const settingsFile = path.join(MACHINE_DIR, 'settings.json');
  const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'sudoku.server.path': '/nonexistent/sudoku-lsp' }, null, 2));
  const error = await until(async () => {
    const texts = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    return texts.find((t) => t.includes('sudoku.server.path'));
  });
  check(!!error, 'a wrong sudoku.server.path shows an error naming the setting', error);
  if (error) console.log('  error: ' + error);
  const cleared = await until(async () => /No problems have been detected/.test(await page.locator('.markers-panel').innerText()), 10000);
  check(!!cleared, 'with the server stopped, its diagnostics are cleared', await page.locator('.markers-panel').innerText().catch(() => ''));
  fs.writeFileSync(settingsFile, JSON.stringify({ ...settings, 'sudoku.server.path': process.env.SUDOKU_LSP }, null, 2));
  await new Promise((r) => setTimeout(r, 1500));
  await command(page, 'Sudoku: Restart Server');
  await openFile(page, 'conflict.sudoku');
  const again = await until(async () => (await page.locator('.editor-instance .squiggly-error').count()) >= 2);
  check(!!again, 'with sudoku.server.path set to the server, after "Sudoku: Restart Server", the squiggles are back');
  const starts = sudokuLog().split('\n').filter((l) => l.startsWith('Starting '));
  check(starts.length >= 2 && starts[0].includes('/extensions/') && starts.at(-1) === `Starting ${process.env.SUDOKU_LSP}`,
    'the Sudoku output shows the bundled server first, then the one sudoku.server.path names', starts.join('; '));

  // "Sudoku: Open Preview to the Side": the server's picture of the puzzle under the cursor,
  // beside the text, drawn again after an edit.
  await openFile(page, 'format.sudoku');
  await goTo(page, 3, 5);
  await command(page, 'Sudoku: Open Preview to the Side');
  const drawn = await until(() => previewPicture(page));
  check(!!drawn && /<svg[\s>]/.test(drawn) && drawn.includes('Loose'),
    'the preview beside the text draws the puzzle under the cursor, its title "Loose" above',
    (drawn || '(no picture)').slice(0, 200));
  const fives = (svg) => (svg.match(/>5<\/text>/g) || []).length;
  const before = drawn ? fives(drawn) : 0;
  await page.screenshot({ path: path.join(SHOTS, 'vscode-preview.png') });
  // Row A's first cell is empty: type a 5 over its dot.
  await goTo(page, 3, 1);
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.type('5');
  const redrawn = await until(async () => {
    const svg = await previewPicture(page);
    return svg && fives(svg) === before + 1 ? svg : undefined;
  });
  check(!!redrawn, `after typing a 5 into A1 the preview draws one 5 more (${before} before)`,
    `${fives((await previewPicture(page)) || '')} fives`);
  await page.screenshot({ path: path.join(SHOTS, 'vscode-preview-edited.png') });
  await page.keyboard.press('Control+Z');

  // A variant puzzle: the broken cage in Problems, the hover naming the cage behind a digit
  // ruled out of B1, and the links: the f-puzzles one onto the clipboard, the SudokuPad one
  // opened through VS Code's question before an external website.
  await openFile(page, 'variant.sudoku');
  const cageProblem = await until(async () => {
    const text = await page.locator('.markers-panel').innerText();
    return /cage 10 at A1 A2 is broken/.test(text) ? text : undefined;
  });
  check(!!cageProblem, 'variant: the Problems panel lists the broken cage "cage 10 at A1 A2"',
    await page.locator('.markers-panel').innerText().catch(() => '(no panel)'));
  await goTo(page, 19, 1);
  const cageHover = await hoverUntil(page, async () => {
    const texts = await page.locator('.monaco-hover-content').allInnerTexts();
    return texts.find((text) => text.includes('would leave 1 for B2'));
  });
  check(!!cageHover && cageHover.includes('cage 10 at B1 B2 would leave 1 for B2, which row B already holds (B5)'),
    'variant: hover on B1 names the cage that rules 9 out', cageHover || await hoverTexts(page));
  await page.screenshot({ path: path.join(SHOTS, 'vscode-variant-hover.png') });
  await page.keyboard.press('Escape');
  await command(page, 'Sudoku: Copy f-puzzles Link');
  const copied = await until(async () => {
    const texts = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    return texts.find((t) => t.includes('f-puzzles link copied'));
  });
  check(!!copied, '"Sudoku: Copy f-puzzles Link" copies the link', copied);
  await command(page, 'Sudoku: Open in SudokuPad');
  const asked = await until(async () => {
    const dialogs = page.locator('.monaco-dialog-box');
    if ((await dialogs.count()) === 0) return undefined;
    const text = await dialogs.first().innerText();
    return text.includes('sudokupad.app/fpuzzles') ? text : undefined;
  });
  check(!!asked, '"Sudoku: Open in SudokuPad" asks to open the puzzle\'s SudokuPad link',
    (asked || '').slice(0, 200));
  await page.keyboard.press('Escape');
}

/** The SVG the preview shows: its webview's picture, a data URI, decoded; found in any frame. */
async function previewPicture(page) {
  const prefix = 'data:image/svg+xml;base64,';
  for (const frame of page.frames()) {
    const src = await frame.locator('#picture').getAttribute('src', { timeout: 300 }).catch(() => null);
    if (src && src.startsWith(prefix)) return Buffer.from(src.slice(prefix.length), 'base64').toString('utf8');
  }
  return undefined;
}

main();
