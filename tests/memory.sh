#!/bin/sh
# Peak memory of `sudoku-lsp check` per input byte, on inputs built to stress one part each.
#
#   tests/memory.sh [BINARY] [FORMAT]   (defaults: target/release/sudoku-lsp, text)
#
# Not run by `cargo test` (it takes seconds and wants a release build): run it by hand after
# changing the parser or the findings, and compare the bytes-per-byte column with the README's.
# Needs GNU time (/usr/bin/time) and python3 to write the inputs.
set -eu
bin=${1:-target/release/sudoku-lsp}
format=${2:-text}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import random, sys
d = sys.argv[1]
def write(name, text):
    with open(f"{d}/{name}", "w") as f:
        f.write(text)
write("blank", "\n" * 20_000_000)
write("titles", "# title: x\n" * 1_000_000)      # one group: each repeat is a warning
write("comments", "# x\n" * 2_750_000)
write("borders", "---\n" * 1_000_000)
write("header", "# x\n" * 1_000_000 + "." * 81 + "\n")  # one puzzle, a huge header
random.seed(1)
chars = [chr(c) for c in range(32, 127) if chr(c) != "#"]
write("junk", "".join("".join(random.choice(chars) for _ in range(random.randint(5, 80))) + "\n"
                      for _ in range(200_000)))
row = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
write("oneline", row * 50_000)
PY
printf '%-10s %10s %12s %8s %7s\n' input bytes peak_kB per_byte seconds
for input in blank titles comments borders header junk oneline; do
    file=$dir/$input
    size=$(wc -c <"$file")
    /usr/bin/time -f '%M %e' -o "$dir/time" "$bin" check --format "$format" "$file" >/dev/null 2>&1 || true
    # GNU time says first when the command failed (check exits 1 on errors): take the last line.
    read -r kb secs <<END
$(tail -n 1 "$dir/time")
END
    awk -v n="$input" -v s="$size" -v k="$kb" -v t="$secs" \
        'BEGIN { printf "%-10s %10d %12d %8.1f %7s\n", n, s, k, k * 1024 / s, t }'
done
