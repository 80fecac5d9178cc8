// Packages the extension into a .vsix with @vscode/vsce, offline.
//
// With a server binary in server/ (see copy-server.sh) the package is platform-specific
// (`--target linux-x64` etc.); without one it is universal and finds sudoku-lsp on PATH.
import { existsSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { version, repository } = require('../package.json');
const targets = { 'linux-x64': 'linux-x64', 'linux-arm64': 'linux-arm64', 'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64', 'win32-x64': 'win32-x64', 'win32-arm64': 'win32-arm64' };
const bundled = ['server/sudoku-lsp', 'server/sudoku-lsp.exe'].find((file) => existsSync(file));
const target = process.env.VSCE_TARGET ?? (bundled ? targets[`${process.platform}-${process.arch}`] : undefined);
const binary = target?.startsWith('win32-') ? 'server/sudoku-lsp.exe' : 'server/sudoku-lsp';
// A platform package without its server (or with another platform's) would install and then
// find no server: stop here instead.
if (target && !targets[target]) {
  console.error(`package: unknown VSCE_TARGET ${target} (one of ${Object.keys(targets).join(', ')})`);
  process.exit(1);
}
if (target && bundled !== binary) {
  console.error(`package: --target ${target} needs ${binary} (scripts/copy-server.sh), found ${bundled ?? 'no server'}`);
  process.exit(1);
}
const out = target ? `sudoku-lsp-${target}-${version}.vsix` : `sudoku-lsp-${version}.vsix`;
// The extension lives in a sub-folder of the repository: README links must point there.
const base = `${repository.url.replace(/\.git$/, '')}`;
const dir = repository.directory ?? '';
const args = ['package', '--no-dependencies', '--out', out, ...(target ? ['--target', target] : []),
  '--baseContentUrl', `${base}/blob/HEAD/${dir}`, '--baseImagesUrl', `${base}/raw/HEAD/${dir}`];
const vsce = require.resolve('@vscode/vsce/vsce');
console.log(`vsce ${args.join(' ')}${target ? ` (bundling ${binary})` : ' (no bundled server)'}`);
execFileSync(process.execPath, [vsce, ...args], { stdio: 'inherit' });
console.log(`${out} (${(statSync(out).size / 1048576).toFixed(1)} MB)`);
