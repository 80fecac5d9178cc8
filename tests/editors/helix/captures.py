"""Checks the captures Helix's highlight query gives on puzzles/easy.sudoku, as the tree-sitter
CLI's `query --captures` prints them: the expected scope on a given, an empty cell, a separator,
a border, a comment and a metadata key and value, and only scopes Helix's themes know.

Usage: captures.py CAPTURES_FILE
"""
import re
import sys

# The top-level scopes of Helix's themes (helix-editor's book, "Themes": syntax highlighting).
HELIX_SCOPES = {"attribute", "type", "constructor", "constant", "string", "comment", "variable",
                "label", "punctuation", "keyword", "operator", "function", "tag", "namespace",
                "special", "markup", "diff"}
# (row, column) 0-based, the scope expected there, what stands there.
EXPECTED = [
    ((0, 2), "variable.other.member", "a metadata key"),
    ((0, 9), "string", "a metadata value"),
    ((4, 0), "comment", "a comment"),
    ((7, 0), "constant.numeric", "a given"),
    ((7, 2), "punctuation.special", "an empty cell"),
    ((7, 6), "punctuation.delimiter", "a box separator"),
    ((10, 0), "punctuation.delimiter", "a border line"),
]

line = re.compile(r"capture: \d+ - ([\w.]+), start: \((\d+), (\d+)\), end: \((\d+), (\d+)\)")
captures = []
with open(sys.argv[1], encoding="utf-8") as f:
    for text in f:
        m = line.search(text)
        if m:
            name, r0, c0, r1, c1 = m.group(1), *map(int, m.groups()[1:])
            captures.append((name, (r0, c0), (r1, c1)))

failures = 0


def check(ok, what, detail=None):
    global failures
    print(f"  {'ok  ' if ok else 'FAIL'} {what}" + (f": {detail}" if not ok and detail is not None else ""))
    failures += not ok


check(len(captures) > 50, f"the query captures on easy.sudoku ({len(captures)} captures)")
for (at, scope, what) in EXPECTED:
    here = [name for (name, start, end) in captures if start <= at < end]
    check(scope in here, f"{what} at {at[0] + 1}:{at[1] + 1} is {scope}", here)
unknown = sorted({name for (name, _, _) in captures if name.split(".")[0] not in HELIX_SCOPES})
check(not unknown, "every capture is a Helix scope", unknown)
sys.exit(1 if failures else 0)
