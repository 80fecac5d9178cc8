#!/usr/bin/env bash
# Kakoune 2022.10.31 (Debian) + kak-lsp 16.0.0 (cargo install, cached), headless (-ui dummy),
# driven through `kak -p`: filetype, kak-lsp diagnostics (*diagnostics*), hover (*hover*),
# sudoku-solve, lsp-definition and lsp-formatting-sync.
set -euo pipefail
: "${REPO:?}" "${CACHE:?}" "${SUDOKU_LSP:?}" "${OUT:?}"
bash "$REPO/tests/editors/install.sh" kakoune
kak_lsp="$CACHE/kak-lsp/bin/kak-lsp"
fixtures="$REPO/tests/editors/fixtures"
home="$OUT/kakoune-home"; rm -rf "$home"; mkdir -p "$home/config/kak" "$home/tmp"
export HOME="$home" XDG_CONFIG_HOME="$home/config" TMPDIR="$home/tmp" XDG_RUNTIME_DIR="$home/tmp"
session="sudoku-test-$$"
# kak-lsp's config: the shipped snippet, pointed at the server under test.
{ printf 'verbosity = 2\n[server]\ntimeout = 300\n'
  sed "s|^command = \"sudoku-lsp\"|command = \"$SUDOKU_LSP\"|" "$REPO/editors/kakoune/kak-lsp.toml"; } >"$home/kak-lsp.toml"
cat >"$home/config/kak/kakrc" <<KAK
source "$REPO/editors/kakoune/sudoku.kak"
evaluate-commands %sh{$kak_lsp --kakoune -s \$kak_session}
set-option global lsp_cmd "$kak_lsp -s %val{session} --config $home/kak-lsp.toml -vvv --log $home/kak-lsp.log"
hook global WinSetOption filetype=sudoku %{ lsp-enable-window }
KAK
echo "kak-lsp $("$kak_lsp" --version | cut -d' ' -f2), kakoune $(dpkg-query -W -f='${Version}' kakoune)"

failures=0
check() { # check OK WHAT [DETAIL]
    if [ "$1" = 0 ]; then echo "  ok   $2"; else echo "  FAIL $2${3:+: $3}"; failures=$((failures + 1)); fi
}
send() { printf "%s\n" "evaluate-commands -client client0 %{ $1 }" | kak -p "$session" 2>/dev/null || true; }
# Poll until FILE exists and matches the regex.
wait_for() { for _ in $(seq 1 100); do [ -s "$1" ] && grep -qE "$2" "$1" && return 0; sleep 0.2; done; return 1; }

kak -ui dummy -s "$session" "$fixtures/conflict.sudoku" </dev/null >"$home/kak.out" 2>&1 &
kak_pid=$!
cleanup() { printf 'kill!\n' | kak -p "$session" 2>/dev/null || true; sleep 0.5; kill "$kak_pid" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 1 50); do kak -l 2>/dev/null | grep -qx "$session" && break; sleep 0.2; done

send "echo -to-file $home/filetype %opt{filetype}"
wait_for "$home/filetype" . && ft=$(cat "$home/filetype") || ft=
check "$([ "$ft" = sudoku ]; echo $?)" "filetype is sudoku" "$ft"

# sudoku.kak's highlighters load without errors (Kakoune reports those in *debug*).
send "evaluate-commands -buffer *debug* %{ execute-keys '%'; echo -to-file $home/debug %val{selection} }"
wait_for "$home/debug" . || true
errors=$(grep -iE "error|no such|cannot|unknown" "$home/debug" 2>/dev/null | grep -vE "DISPLAY is not set|accepting connection failed" || true)
check "$([ -z "$errors" ]; echo $?)" "no errors in *debug* (sudoku.kak and its highlighters)" "$errors"

# Diagnostics: the error count in the modeline option, then the *diagnostics* listing.
ok=1
for _ in $(seq 1 100); do
    send "echo -to-file $home/errors %opt{lsp_diagnostic_error_count}"
    sleep 0.2
    [ "$(cat "$home/errors" 2>/dev/null)" = 2 ] && { ok=0; break; }
done
check $ok "kak-lsp counts 2 errors (lsp_diagnostic_error_count)" "$(cat "$home/errors" 2>/dev/null)"
send "lsp-diagnostics"
sleep 1
send "evaluate-commands -buffer *diagnostics* %{ execute-keys '%'; echo -to-file $home/diagnostics %val{selection} }"
wait_for "$home/diagnostics" 'row A' || true
sed 's/^/       /' "$home/diagnostics" 2>/dev/null || true
check "$(grep -qE 'conflict\.sudoku:3:10: error: .*row A' "$home/diagnostics" 2>/dev/null; echo $?)" "*diagnostics* lists the conflict at 3:10 naming row A"
check "$(grep -qE 'conflict\.sudoku:3:19: error: .*row A' "$home/diagnostics" 2>/dev/null; echo $?)" "*diagnostics* lists the conflict at 3:19 naming row A"

# Hover on A8 (line 4, column 10) of the easy puzzle, into the *hover* scratch buffer.
send "edit $fixtures/solve.sudoku"
sleep 1
send "select 4.10,4.10; lsp-hover-buffer client0"
for _ in $(seq 1 50); do
    send "try %{ evaluate-commands -buffer *hover* %{ execute-keys '%'; echo -to-file $home/hover %val{selection} } }"
    sleep 0.2
    grep -q '{' "$home/hover" 2>/dev/null && break
done
echo "       hover: $(tr '\n' ' ' <"$home/hover" 2>/dev/null | cut -c1-200)"
marks=$(grep -o '{[^}]*}' "$home/hover" 2>/dev/null | head -1 || true)
check "$([ "$marks" = '{5, 7, 8, 9}' ]; echo $?)" "lsp-hover-buffer on A8 shows the pencil marks {5, 7, 8, 9}" "$marks"

# sudoku-solve applies the "Solve puzzle" code action (kak-lsp's lsp-code-action).
send "edit $fixtures/solve.sudoku; select 5.2,5.2; sudoku-solve"
for _ in $(seq 1 50); do
    sleep 0.2
    send "evaluate-commands -buffer $fixtures/solve.sudoku %{ execute-keys '%'; echo -to-file $home/solved %val{selection} }"
    cmp -s "$home/solved" "$fixtures/solve.solved.sudoku" && break
done
check "$(cmp -s "$home/solved" "$fixtures/solve.solved.sudoku"; echo $?)" "sudoku-solve leaves the solved grid in the buffer" \
    "$(diff "$fixtures/solve.solved.sudoku" "$home/solved" 2>&1 | head -20)"

# lsp-definition on the 2 at A9 (line 3, column 19) of the conflict: the cursor goes to A5 (column 10).
send "edit $fixtures/conflict.sudoku; select 3.19,3.19; lsp-definition"
for _ in $(seq 1 50); do
    sleep 0.2
    send "echo -to-file $home/cursor %val{cursor_line} %val{cursor_column}"
    [ "$(cat "$home/cursor" 2>/dev/null)" = "3 10" ] && break
done
check "$([ "$(cat "$home/cursor" 2>/dev/null)" = "3 10" ]; echo $?)" "lsp-definition on the 2 at A9 jumps to A5" "$(cat "$home/cursor" 2>/dev/null)"

# lsp-formatting-sync lays out a loosely written grid.
send "edit $fixtures/format.sudoku"
sleep 1
send "lsp-formatting-sync"
for _ in $(seq 1 50); do
    sleep 0.2
    send "evaluate-commands -buffer $fixtures/format.sudoku %{ execute-keys '%'; echo -to-file $home/formatted %val{selection} }"
    cmp -s "$home/formatted" "$fixtures/format.formatted.sudoku" && break
done
check "$(cmp -s "$home/formatted" "$fixtures/format.formatted.sudoku"; echo $?)" "lsp-formatting-sync writes the grid layout" \
    "$(diff "$fixtures/format.formatted.sudoku" "$home/formatted" 2>&1 | head -20)"

if [ $failures != 0 ]; then
    echo "--- kak output"; cat "$home/kak.out"
    echo "--- kak-lsp log (last 80 lines)"; tail -n 80 "$home/kak-lsp.log" 2>/dev/null
    exit 1
fi
