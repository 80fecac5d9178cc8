#!/usr/bin/env bash
# Installs what tests/integration/cli_sarif_schema.rs validates with, under .cache/sarif: the
# SARIF 2.1.0 JSON schema (OASIS's, as Microsoft's SARIF Multitool ships it in its npm package;
# GitHub, where the schema lives, is out of reach) and Python's jsonschema in a venv.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE="$REPO/.cache/sarif"
mkdir -p "$CACHE"
if [ ! -f "$CACHE/node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json" ]; then
  npm_config_cache="$CACHE/npm" npm install --prefix "$CACHE" --no-audit --no-fund \
    --loglevel=error @microsoft/sarif-multitool-linux@5.7.0
fi
if ! "$CACHE/venv/bin/python" -c 'import jsonschema' 2>/dev/null; then
  python3 -m venv "$CACHE/venv"
  "$CACHE/venv/bin/pip" install -q --cache-dir "$CACHE/pip" jsonschema==4.26.0
fi
echo "SARIF schema and validator: $CACHE"
