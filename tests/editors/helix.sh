#!/usr/bin/env bash
# Helix cannot be installed here: check that its languages.toml snippet parses and is wired up.
set -euo pipefail
: "${REPO:?}"
python3 "$REPO/tests/editors/helix/check.py" "$REPO/editors/helix/languages.toml"
