#!/usr/bin/env bash
# se_compare.sh RATED [BIN] — our ratings against Sudoku Explainer's, puzzle by puzzle.
#
# RATED holds one puzzle per line as `serate --format="%g %r %R"` prints it: the 81-character
# puzzle, SE's rating, SE's hardest technique (Sukaku Explainer v1.15.10, built as
# ../shared/notes/se-rating.md says). BIN is the sudoku-lsp binary (default: the release build).
# Prints how many ratings are the same and how many within 0.2, then the commonest differences
# by SE's technique; every difference goes to se_compare.diff in the current folder.
set -euo pipefail
rated=${1:?usage: se_compare.sh RATED [BIN]}
bin=${2:-$(dirname "$0")/../target/release/sudoku-lsp}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cut -d' ' -f1 "$rated" > "$work/puzzles.txt"
"$bin" rate "$work/puzzles.txt" | sed -E 's/^[^:]*:[0-9]+:[0-9]+: //' > "$work/ours.txt" || true
paste -d'|' "$rated" "$work/ours.txt" | python3 -c '
import collections, sys
n = same = near = 0
differences = []
for line in sys.stdin:
    theirs, ours = line.rstrip("\n").split("|", 1)
    puzzle, rating, *technique = theirs.split(" ", 2)
    rating, technique = float(rating), (technique[0] if technique else "")
    words = ours.split()
    try:
        our_rating = float(words[1] if words[0] == ">=" else words[0])
    except (IndexError, ValueError):
        our_rating = -1.0
    n += 1
    same += abs(our_rating - rating) < 0.01
    near += abs(our_rating - rating) <= 0.2001
    if abs(our_rating - rating) >= 0.01:
        differences.append((rating, technique, ours, puzzle))
print(f"{n} puzzles: the same rating {same} ({100 * same / max(n, 1):.1f}%), "
      f"within 0.2 {near} ({100 * near / max(n, 1):.1f}%)")
for (rating, technique), k in collections.Counter((r, t) for r, t, _, _ in differences).most_common(12):
    print(f"  {k:5d} differ where SE says {rating} {technique}")
with open("se_compare.diff", "w") as out:
    for rating, technique, ours, puzzle in differences:
        out.write(f"{puzzle} SE {rating} {technique} | ours {ours}\n")
'
