#!/usr/bin/env bash
# The editor tests: each real editor, headless, against the built sudoku-lsp.
#
#   bash tests/editors/run.sh [EDITOR...]     (default: all; e.g. `run.sh neovim emacs`)
#
# Installs what it needs (apt, a Python venv, npm, cargo install), caching downloads under
# $EDITORS_CACHE (default .cache/editors). The server is $SUDOKU_LSP, else the newer of
# target/debug and target/release/sudoku-lsp, else one `cargo build` makes. Logs and
# screenshots go to $EDITORS_OUT (default target/editors). Prints `editors: N passed, N failed` last; exits 1 if any failed.
set -uo pipefail

export REPO=$(cd "$(dirname "$0")/../.." && pwd)
export CACHE=${EDITORS_CACHE:-$REPO/.cache/editors}
export OUT=${EDITORS_OUT:-$REPO/target/editors}
mkdir -p "$CACHE" "$OUT"
export CI=${CI:-}

if [ -z "${SUDOKU_LSP:-}" ]; then
    for candidate in $(ls -t "$REPO/target/debug/sudoku-lsp" "$REPO/target/release/sudoku-lsp" 2>/dev/null); do
        SUDOKU_LSP=$candidate; break
    done
fi
if [ -z "${SUDOKU_LSP:-}" ]; then
    echo "editors: no built server; running cargo build"
    (cd "$REPO" && cargo build -q --bin sudoku-lsp) && SUDOKU_LSP=$REPO/target/debug/sudoku-lsp
fi
if [ -z "${SUDOKU_LSP:-}" ] || [ ! -x "$SUDOKU_LSP" ]; then
    echo "editors: no server binary (set SUDOKU_LSP or run cargo build first)" >&2
    echo "editors: 0 passed, 1 failed"
    exit 1
fi
export SUDOKU_LSP=$(cd "$(dirname "$SUDOKU_LSP")" && pwd)/$(basename "$SUDOKU_LSP")
echo "editors: server $SUDOKU_LSP"

all=(helix neovim emacs vim kakoune vscode)
editors=("$@")
[ ${#editors[@]} = 0 ] && editors=("${all[@]}")

start=$SECONDS
if ! bash "$REPO/tests/editors/install.sh" apt; then
    echo "editors: apt install failed" >&2
fi

passed=0 failed=0 failed_names=()
for editor in "${editors[@]}"; do
    echo
    echo "=== $editor"
    t0=$SECONDS
    if bash "$REPO/tests/editors/$editor.sh" </dev/null; then
        echo "=== $editor: passed ($((SECONDS - t0)) s)"
        passed=$((passed + 1))
    else
        echo "=== $editor: FAILED ($((SECONDS - t0)) s)"
        failed=$((failed + 1)); failed_names+=("$editor")
    fi
done
echo
echo "editor tests took $((SECONDS - start)) s${failed_names:+; failed: ${failed_names[*]}}"
echo "editors: $passed passed, $failed failed"
[ "$failed" = 0 ]
