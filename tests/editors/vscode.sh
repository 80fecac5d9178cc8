#!/usr/bin/env bash
# VS Code: packages editors/vscode into a linux-x64 .vsix with the stripped release server inside
# (as published), installs it into code-server 4.100.3 (= VS Code 1.100.3) and drives the real
# workbench in Chromium (playwright-core).
set -euo pipefail
: "${REPO:?}" "${CACHE:?}" "${SUDOKU_LSP:?}" "${OUT:?}"
bash "$REPO/tests/editors/install.sh" code-server node
code_server="$CACHE/code-server-4.100.3/node_modules/.bin/code-server"

# 0. The TextMate grammar, tokenized as VS Code does.
NODE_PATH="$CACHE/node/node_modules" node "$REPO/tests/editors/vscode/grammar.cjs" \
    "$REPO/editors/vscode/syntaxes/sudoku.tmLanguage.json"

# 1. Package the extension as it is published: from a staged copy, the release server bundled and
# stripped (scripts/copy-server.sh), `--target linux-x64` (per-platform .vsix). SUDOKU_LSP_RELEASE
# names a release build of this tree (CI passes the one pre-commit installed); without it, one
# `cargo build --release` makes it (a few minutes, once).
release=${SUDOKU_LSP_RELEASE:-}
if [ -z "$release" ]; then
    (cd "$REPO" && cargo build --release --locked --bin sudoku-lsp)
    release="$REPO/target/release/sudoku-lsp"
fi
stage="$OUT/vscode-ext"
rm -rf "$stage"; mkdir -p "$stage"
(cd "$REPO/editors/vscode" && tar --exclude=./node_modules --exclude=./dist --exclude='./*.vsix' --exclude=./server -cf - .) \
    | tar -C "$stage" -xf -
(cd "$stage" && npm_config_cache="$CACHE/npm" npm ci --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null \
    && bash scripts/copy-server.sh "$release" && VSCE_TARGET=linux-x64 npm run -s package)
vsix="$stage/sudoku-lsp-linux-x64-$(node -p 'require(process.argv[1]).version' "$stage/package.json").vsix"
[ -f "$vsix" ] || { echo "FAIL no $vsix"; exit 1; }
echo "packaged $vsix: $(( $(wc -c <"$vsix") / 1024 )) KiB, server $(( $(wc -c <"$stage/server/sudoku-lsp") / 1024 )) KiB (target/release: $(( $(wc -c <"$release") / 1024 )) KiB)"
# Every setting documented: a description in package.json (Settings UI) and a row in the README.
node -e '
  const [pkg, readme] = [require(process.argv[1]), require("fs").readFileSync(process.argv[2], "utf8")];
  let bad = 0;
  for (const [key, p] of Object.entries(pkg.contributes.configuration.properties)) {
    const ok = (p.description || p.markdownDescription) && readme.includes("`" + key + "`");
    console.log(`  ${ok ? "ok  " : "FAIL"} setting ${key} has a description and a README row`);
    bad += !ok;
  }
  process.exit(bad ? 1 : 0);' "$stage/package.json" "$stage/README.md"

# 2. A fresh code-server profile with the .vsix installed.
cs="$OUT/code-server"
rm -rf "$cs"; mkdir -p "$cs/user-data/User" "$cs/user-data/Machine" "$cs/workspace"
echo '{}' >"$cs/user-data/Machine/settings.json"
cat >"$cs/user-data/User/settings.json" <<'JSON'
{
  "security.workspace.trust.enabled": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": false,
  "extensions.autoCheckUpdates": false,
  "editor.hover.delay": 300,
  "files.autoSave": "off",
  "git.enabled": false,
  "git.openRepositoryInParentFolders": "never",
  "sudoku.trace.server": "messages"
}
JSON
printf 'bind-addr: 127.0.0.1:0\nauth: none\ncert: false\n' >"$cs/config.yaml"
cp "$REPO/tests/editors/fixtures/conflict.sudoku" "$REPO/tests/editors/fixtures/solve.sudoku" \
    "$REPO/tests/editors/fixtures/format.sudoku" "$REPO/tests/editors/fixtures/variant.sudoku" \
    "$cs/workspace/"
# Never opened: its conflict reaches the Problems panel through workspace diagnostics alone.
cp "$REPO/tests/editors/fixtures/conflict.sudoku" "$cs/workspace/unopened.sudoku"
"$code_server" --config "$cs/config.yaml" --user-data-dir "$cs/user-data" --extensions-dir "$cs/extensions" \
    --install-extension "$vsix"
# The installed extension runs the stripped release server that was packaged, nothing else.
installed=$(ls "$cs"/extensions/sudoku-lsp.sudoku-lsp-*/server/sudoku-lsp)
if cmp -s "$installed" "$stage/server/sudoku-lsp" && ! readelf -S "$installed" | grep -E '\.symtab|\.debug_(info|line)' >/dev/null; then
    echo "  ok   the installed extension holds the stripped release server ($installed)"
else
    echo "  FAIL the installed extension's server is not the stripped release build: $installed"; exit 1
fi

# 3. Serve it on a free port, drive it, stop it.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# In its own process group, so that stopping it also stops the extension host and the server.
setsid "$code_server" --config "$cs/config.yaml" --auth none --bind-addr "127.0.0.1:$port" --disable-telemetry \
    --disable-update-check --disable-workspace-trust --disable-getting-started-override \
    --user-data-dir "$cs/user-data" --extensions-dir "$cs/extensions" "$cs/workspace" >"$cs/code-server.log" 2>&1 &
server_pid=$!
trap 'kill -- -$server_pid 2>/dev/null || kill $server_pid 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    sleep 0.5
done
status=0
NODE_PATH="$CACHE/node/node_modules" URL="http://127.0.0.1:$port/?folder=$cs/workspace" \
    WORKSPACE="$cs/workspace" SHOTS="$OUT" MACHINE_DIR="$cs/user-data/Machine" FIXTURES="$REPO/tests/editors/fixtures" \
    timeout 300 node "$REPO/tests/editors/vscode/test.cjs" || status=$?
if [ "$status" != 0 ]; then
    echo "--- code-server log"; tail -n 50 "$cs/code-server.log"
    for f in $(find "$cs/user-data/logs" -name '*Sudoku*.log' -o -name 'exthost.log' 2>/dev/null); do
        echo "--- $f"; tail -n 80 "$f"
    done
fi
exit "$status"
