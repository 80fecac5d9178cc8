// Packages the extension into a .vsix with @vscode/vsce, offline.
//
// With a server binary in server/ (see copy-server.sh) the package is platform-specific
// (`--target linux-x64` etc.); without one it is universal and finds sudoku-lsp on PATH.
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { version, repository } = require('../package.json');
const binary = process.platform === 'win32' ? 'server/sudoku-lsp.exe' : 'server/sudoku-lsp';
const targets = { 'linux-x64': 'linux-x64', 'linux-arm64': 'linux-arm64', 'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64', 'win32-x64': 'win32-x64', 'win32-arm64': 'win32-arm64' };
const target = process.env.VSCE_TARGET ?? (existsSync(binary) ? targets[`${process.platform}-${process.arch}`] : undefined);
const out = target ? `sudoku-lsp-${target}-${version}.vsix` : `sudoku-lsp-${version}.vsix`;
// The extension lives in a sub-folder of the repository: README links must point there.
const base = `${repository.url.replace(/\.git$/, '')}`;
const dir = repository.directory ?? '';
const args = ['package', '--no-dependencies', '--out', out, ...(target ? ['--target', target] : []),
  '--baseContentUrl', `${base}/blob/HEAD/${dir}`, '--baseImagesUrl', `${base}/raw/HEAD/${dir}`];
const vsce = require.resolve('@vscode/vsce/vsce');
console.log(`vsce ${args.join(' ')}${target ? ` (bundling ${binary})` : ' (no bundled server)'}`);
execFileSync(process.execPath, [vsce, ...args], { stdio: 'inherit' });
console.log(out);
