#!/usr/bin/env bash
# The tree-sitter grammar (editors/tree-sitter-sudoku): the committed parser is the one
# grammar.js generates, the CLI's corpus and highlight tests pass, every shipped puzzle file
# parses without an ERROR node, and Helix's copy of the highlights has the same patterns.
#
#   bash tests/tree-sitter.sh
#
# Installs the tree-sitter CLI with tests/editors/install.sh (cached under $EDITORS_CACHE).
# Prints `tree-sitter: N passed, N failed` last; exits 1 if any check failed.
set -uo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${EDITORS_CACHE:-$REPO/.cache/editors}
GRAMMAR=$REPO/editors/tree-sitter-sudoku
export EDITORS_CACHE=$CACHE

passed=0 failed=0
ok() { echo "  ok   $*"; passed=$((passed + 1)); }
fail() { echo "  FAIL $*"; failed=$((failed + 1)); }
finish() { echo "tree-sitter: $passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?; }

if ! bash "$REPO/tests/editors/install.sh" tree-sitter; then
    fail "installing the tree-sitter CLI"
    finish
fi
ts=$CACHE/tree-sitter/bin/tree-sitter
echo "tree-sitter: $("$ts" --version)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The CLI keeps compiled parsers in its cache folder and reads its config from there: both
# go to the temporary folder, so the run depends on nothing of the user's.
export XDG_CACHE_HOME=$work/cache XDG_CONFIG_HOME=$work/config TREE_SITTER_DIR=$work/config

# 1. The committed generated files are those grammar.js gives.
cp -r "$GRAMMAR" "$work/grammar"
rm -rf "$work/grammar/src/parser.c" "$work/grammar/src/grammar.json" "$work/grammar/src/node-types.json" \
    "$work/grammar/src/tree_sitter"
if (cd "$work/grammar" && "$ts" generate --abi 14 --js-runtime native >"$work/generate.log" 2>&1); then
    stale=()
    for f in src/parser.c src/grammar.json src/node-types.json src/tree_sitter/parser.h \
        src/tree_sitter/alloc.h src/tree_sitter/array.h; do
        cmp -s "$work/grammar/$f" "$GRAMMAR/$f" || stale+=("$f")
    done
    if [ ${#stale[@]} = 0 ]; then
        ok "src/ is up to date with grammar.js"
    else
        fail "src/ is not what grammar.js generates (${stale[*]}): run tree-sitter generate in editors/tree-sitter-sudoku"
    fi
else
    cat "$work/generate.log"
    fail "tree-sitter generate"
fi

# 2. The corpus and highlight tests.
if (cd "$GRAMMAR" && "$ts" test 2>&1) >"$work/test.log"; then
    ok "tree-sitter test ($(grep -cE '✓|✔' "$work/test.log") corpus and highlight tests)"
else
    cat "$work/test.log"
    fail "tree-sitter test"
fi

# 3. Every shipped puzzle file parses without an ERROR (or MISSING) node.
mapfile -t files < <(find "$REPO/puzzles" -name '*.sudoku' | sort)
# (--quiet prints only the files with an error; its exit code says so too.)
if (cd "$GRAMMAR" && "$ts" parse --quiet "${files[@]}") >"$work/parse.log" 2>&1 \
    && ! grep -qE '\((ERROR|MISSING)' "$work/parse.log"; then
    ok "${#files[@]} files in puzzles/ parse without an error node"
else
    cat "$work/parse.log"
    fail "files in puzzles/ parse without an error node"
fi

# 4. Helix's highlights are the grammar's with Helix's scope names: the same patterns, so that a
#    change to one is made to the other.
patterns() { grep -v '^;' "$1" | grep -v '^$' | grep -v '(stray)'; }
if diff <(patterns "$GRAMMAR/queries/highlights.scm") \
    <(patterns "$REPO/editors/helix/queries/sudoku/highlights.scm" \
        | sed 's/@constant\.numeric$/@number/; s/@variable\.other\.member$/@property/') >"$work/queries.diff"; then
    ok "editors/helix/queries/sudoku/highlights.scm has the grammar's patterns"
else
    cat "$work/queries.diff"
    fail "editors/helix/queries/sudoku/highlights.scm differs from the grammar's highlights.scm beyond scope names"
fi

finish
