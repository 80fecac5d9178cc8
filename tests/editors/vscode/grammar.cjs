// Tokenizes sample lines with editors/vscode's TextMate grammar through vscode-textmate and
// vscode-oniguruma (the engine VS Code itself uses) and checks the scope of chosen characters.
// Usage: node grammar.cjs path/to/sudoku.tmLanguage.json
const fs = require('fs');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const grammarPath = process.argv[2];
const one = '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......';
// [line, the character to look at (its first occurrence, or a column), the scope it must have]
const cases = [
  ['# just a comment', 'j', 'comment.line.number-sign.sudoku'],
  ['# title: Easy classic', 't', 'keyword.other.metadata.key.sudoku'],
  ['# title: Easy classic', 'E', 'string.unquoted.metadata.value.sudoku'],
  ['# title: Easy classic', '#', 'punctuation.definition.comment.sudoku'],
  ['# rating: 7', 'r', 'variable.other.metadata.key.sudoku'],
  ['..3|.2.|6..', 0, 'constant.language.empty.sudoku'],
  ['..3|.2.|6..', '3', 'constant.numeric.given.sudoku'],
  ['..3|.2.|6..', '|', 'punctuation.separator.box.sudoku'],
  ['. . 3 |. 2 . |6 . 2', '6', 'constant.numeric.given.sudoku'],
  ['_0_|...|...', 1, 'constant.language.empty.sudoku'],
  ['------+------+------', 0, 'punctuation.separator.border.sudoku'],
  ['---+---+---', '+', 'punctuation.separator.border.sudoku'],
  ['=========', 0, 'punctuation.separator.border.sudoku'],
  ['.........', 0, 'constant.language.empty.sudoku'],
  ['1.4.9..68 # a trailing comment', 'a', 'comment.line.number-sign.sudoku'],
  [`${one} hard 1.2`, 0, 'constant.numeric.given.sudoku'],
  [`${one} hard 1.2`, 1, 'constant.language.empty.sudoku'],
  [`${one} hard 1.2`, 'h', 'string.unquoted.trailing.sudoku'],
  ['1A2B|3C4D', 'A', 'constant.numeric.given.sudoku'],
];

async function main() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.sudoku' ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.sudoku');
  let failures = 0;
  for (const [line, at, want] of cases) {
    const column = typeof at === 'number' ? at : line.indexOf(at);
    const { tokens } = grammar.tokenizeLine(line, vsctm.INITIAL);
    const token = tokens.find((t) => t.startIndex <= column && column < t.endIndex);
    const scopes = token ? token.scopes : [];
    const ok = scopes.some((s) => s.split(' ').includes(want));
    if (!ok) failures++;
    const shown = line.length > 40 ? line.slice(0, 37) + '...' : line;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} grammar: ${JSON.stringify(line[column])} at ${column} in ${JSON.stringify(shown)} is ${want}${ok ? '' : `: got ${scopes.join(', ')}`}`);
  }
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
