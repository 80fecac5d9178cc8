#!/usr/bin/env bash
# The pre-commit hooks (.pre-commit-hooks.yaml) as a user of pre-commit meets them: the real
# pre-commit (pip, in a venv cached under $PRE_COMMIT_CACHE), a fresh git repository holding a
# good and a bad .sudoku file, a .pre-commit-config.yaml naming this clone at its HEAD commit.
# sudoku-check must pass on the good file and fail naming the bad one; sudoku-fmt likewise on a
# formatted and an unformatted file. pre-commit builds the hooks from the commit (`cargo install`,
# release; about 3.5 minutes on a shared 2-core machine), once per commit: uncommitted changes are
# not tested.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${PRE_COMMIT_CACHE:-$REPO/.cache/pre-commit}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

if [ ! -x "$CACHE/venv/bin/pre-commit" ]; then
  python3 -m venv "$CACHE/venv"
  "$CACHE/venv/bin/pip" install -q --cache-dir "$CACHE/pip" pre-commit==4.7.0
fi
export PRE_COMMIT_HOME="$CACHE/home"
PRE_COMMIT="$CACHE/venv/bin/pre-commit"

if [ -n "$(git -C "$REPO" status --porcelain -- src Cargo.toml Cargo.lock .pre-commit-hooks.yaml)" ]; then
  echo "note: uncommitted changes are not in the hooks pre-commit builds (HEAD is)" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
git init -q
git config user.email ci@example.invalid
git config user.name CI
cp "$REPO/puzzles/easy.sudoku" good.sudoku
cp "$REPO/puzzles/broken/conflict.sudoku" bad.sudoku
printf '4.....8.5\n.3.......\n...7.....\n.2.....6.\n....8.4..\n....1....\n...6.3.7.\n5..2.....\n1.4......\n' >messy.sudoku
cat >tidy.sudoku <<'TIDY'
4 . . | . . . | 8 . 5
. 3 . | . . . | . . .
. . . | 7 . . | . . .
------+-------+------
. 2 . | . . . | . 6 .
. . . | . 8 . | 4 . .
. . . | . 1 . | . . .
------+-------+------
. . . | 6 . 3 | . 7 .
5 . . | 2 . . | . . .
1 . 4 | . . . | . . .
TIDY
cat >.pre-commit-config.yaml <<CONFIG
repos:
  - repo: $REPO
    rev: $(git -C "$REPO" rev-parse HEAD)
    hooks:
      - id: sudoku-check
      - id: sudoku-fmt
CONFIG
git add -A

fail() { echo "FAILED: $*" >&2; exit 1; }

# Expect exit `want` from `pre-commit run HOOK --files FILE`, and its output to hold `says`.
expect() {
  local want=$1 hook=$2 file=$3 says=$4 out code=0
  out=$("$PRE_COMMIT" run "$hook" --color never --files "$file" 2>&1) || code=$?
  printf '%s\n' "$out" | sed 's/^/    /'
  [ "$code" = "$want" ] || fail "$hook on $file: exit $code, expected $want"
  grep -qF -- "$says" <<<"$out" || fail "$hook on $file does not say '$says'"
}

echo "pre-commit: building the hooks (cargo install, release) if not cached, then running them"
start=$(date +%s)
"$PRE_COMMIT" install-hooks
echo "hooks ready in $(( $(date +%s) - start )) s"
expect 0 sudoku-check good.sudoku "Passed"
expect 1 sudoku-check bad.sudoku "bad.sudoku:5:3: error: 5 appears twice in row A"
expect 0 sudoku-fmt tidy.sudoku "Passed"
expect 1 sudoku-fmt messy.sudoku "messy.sudoku"
# And as a commit runs them, once installed as the repository's hook: the bad file stops it.
"$PRE_COMMIT" install >/dev/null
if git commit -qm "puzzles" >commit.log 2>&1; then fail "a commit with bad.sudoku went through"; fi
grep -qF "bad.sudoku" commit.log || fail "the refused commit does not name bad.sudoku"
echo "pre-commit hooks: ok"
