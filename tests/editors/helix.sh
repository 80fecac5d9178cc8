#!/usr/bin/env bash
# Helix cannot be installed here (see editors/helix/README.md): check that its languages.toml
# snippet parses and is wired up, build the tree-sitter grammar into a Helix runtime folder as
# `hx --grammar build` does, and check the Helix highlight query's scopes with the tree-sitter
# CLI. With `hx` on PATH, `hx --health sudoku` must find the parser and the queries.
set -euo pipefail
: "${REPO:?}" "${CACHE:?}" "${OUT:?}"
python3 "$REPO/tests/editors/helix/check.py" "$REPO/editors/helix/languages.toml"

grammar="$REPO/editors/tree-sitter-sudoku"
runtime="$OUT/helix-runtime"
rm -rf "$runtime"; mkdir -p "$runtime/grammars" "$runtime/queries"
command -v cc >/dev/null || { echo "  FAIL no C compiler (cc) to build the grammar"; exit 1; }
cc -shared -fPIC -O1 -I "$grammar/src" "$grammar/src/parser.c" "$grammar/src/scanner.c" -o "$runtime/grammars/sudoku.so"
if nm -D --defined-only "$runtime/grammars/sudoku.so" | grep -q ' T tree_sitter_sudoku$'; then
    echo "  ok   the grammar builds into grammars/sudoku.so, exporting tree_sitter_sudoku"
else
    echo "  FAIL grammars/sudoku.so does not export tree_sitter_sudoku"; exit 1
fi
cp -r "$REPO/editors/helix/queries/sudoku" "$runtime/queries/"

EDITORS_CACHE=$CACHE bash "$REPO/tests/editors/install.sh" tree-sitter
export XDG_CACHE_HOME="$OUT/helix-ts-cache" XDG_CONFIG_HOME="$OUT/helix-ts-config"
"$CACHE/tree-sitter/bin/tree-sitter" query --lib-path "$runtime/grammars/sudoku.so" --lang-name sudoku \
    --captures "$runtime/queries/sudoku/highlights.scm" "$REPO/puzzles/easy.sudoku" >"$OUT/helix-captures.txt" 2>&1 \
    || { cat "$OUT/helix-captures.txt"; echo "  FAIL the Helix highlight query does not run on the grammar"; exit 1; }
python3 "$REPO/tests/editors/helix/captures.py" "$OUT/helix-captures.txt"

if ! command -v hx >/dev/null; then
    echo "  SKIPPED: hx --health sudoku (Helix is not installed, and not installable here)"
    [ -z "${SUDOKU_LSP_REQUIRE_HELIX:-}" ] || { echo "  FAIL SUDOKU_LSP_REQUIRE_HELIX is set"; exit 1; }
    exit 0
fi
# The snippet with the path to this checkout, in a throwaway config.
mkdir -p "$OUT/helix-config/helix"
sed "s|/path/to/sudoku-lsp|$REPO|" "$REPO/editors/helix/languages.toml" >"$OUT/helix-config/helix/languages.toml"
health=$(XDG_CONFIG_HOME="$OUT/helix-config" HELIX_RUNTIME="$runtime" hx --health sudoku 2>&1 | sed 's/\x1b\[[0-9;]*m//g')
echo "$health"
for what in "Tree-sitter parser" "Highlight queries"; do
    if echo "$health" | grep -qE "$what: *✓"; then echo "  ok   hx --health sudoku: $what ✓"
    else echo "  FAIL hx --health sudoku: $what not found"; exit 1; fi
done
