#!/bin/sh
# Peak memory per input byte, on inputs built to stress one part each.
#
#   tests/memory.sh [BINARY] [text|json|rate|server]   (defaults: target/release/sudoku-lsp, text)
#
# `text` and `json` time `BINARY check --format …`; `rate` times `BINARY rate` (its findings on
# stderr, its ratings on stdout); `server` opens each input in the language
# server (initialize, didOpen, the first diagnostics, shutdown). SCALE (default 1, or 0.1 for
# `server`, whose diagnostics are slow to send) multiplies the inputs' sizes.
#
# Not run by `cargo test` (it takes seconds and wants a release build): run it by hand after
# changing the parser, the findings or what holds them, and compare the bytes-per-byte column
# with the README's. Needs GNU time (/usr/bin/time) and python3.
set -eu
bin=${1:-target/release/sudoku-lsp}
mode=${2:-text}
case $mode in
text | json | rate) scale=${SCALE:-1} ;;
server) scale=${SCALE:-0.1} ;;
*)
    echo "usage: $0 [BINARY] [text|json|rate|server]" >&2
    exit 2
    ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" "$scale" <<'PY'
import random, sys
d, scale = sys.argv[1], float(sys.argv[2])
def write(name, line, count):
    with open(f"{d}/{name}", "w") as f:
        f.write(line * max(1, int(count * scale)))
write("blank", "\n", 20_000_000)
write("titles", "# title: x\n", 1_000_000)      # one group: each repeat is a warning
write("errors", "x\n", 16_000_000)              # one piece where every line is an error
write("comments", "# x\n", 2_750_000)
write("borders", "---\n", 1_000_000)
write("header", "# x\n", 1_000_000)             # then one puzzle: a huge header
with open(f"{d}/header", "a") as f:
    f.write("." * 81 + "\n")
random.seed(1)
chars = [chr(c) for c in range(32, 127) if chr(c) != "#"]
junk = "".join("".join(random.choice(chars) for _ in range(random.randint(5, 80))) + "\n"
               for _ in range(int(200_000 * scale)))
write("junk", junk, 1 / scale)
row = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"
write("oneline", row, 50_000)
PY
# The server's part: open a file, wait for its diagnostics, shut down; GNU time's peak last.
cat >"$dir/server.py" <<'PY'
import json, subprocess, sys
binary, path = sys.argv[1], sys.argv[2]
text = open(path).read()
p = subprocess.Popen(["/usr/bin/time", "-f", "%M %e", binary], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
def send(msg):
    body = json.dumps(msg).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    p.stdin.flush()
def read():
    headers = {}
    while (line := p.stdout.readline()) not in (b"\r\n", b""):
        key, value = line.decode().split(":", 1)
        headers[key.lower()] = value.strip()
    return json.loads(p.stdout.read(int(headers["content-length"]))) if headers else None
def until(test):
    while (m := read()) is not None and not test(m):
        pass
send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
      "params": {"processId": None, "rootUri": None, "capabilities": {}}})
until(lambda m: m.get("id") == 1)
send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
    "uri": "file:///memory.sudoku", "languageId": "sudoku", "version": 1, "text": text}}})
until(lambda m: m.get("method") == "textDocument/publishDiagnostics")
send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
until(lambda m: m.get("id") == 2)
send({"jsonrpc": "2.0", "method": "exit"})
p.stdin.close()
p.wait()
print(p.stderr.read().decode().strip().splitlines()[-1])
PY
printf '%-10s %10s %12s %8s %7s\n' input bytes peak_kB per_byte seconds
for input in blank titles errors comments borders header junk oneline; do
    file=$dir/$input
    size=$(wc -c <"$file")
    if [ "$mode" = server ]; then
        python3 "$dir/server.py" "$bin" "$file" >"$dir/time"
    elif [ "$mode" = rate ]; then
        /usr/bin/time -f '%M %e' -o "$dir/time" "$bin" rate "$file" >/dev/null 2>&1 || true
    else
        /usr/bin/time -f '%M %e' -o "$dir/time" "$bin" check --format "$mode" "$file" \
            >/dev/null 2>&1 || true
    fi
    # GNU time says first when the command failed (check exits 1 on errors): take the last line.
    read -r kb secs <<END
$(tail -n 1 "$dir/time")
END
    awk -v n="$input" -v s="$size" -v k="$kb" -v t="$secs" \
        'BEGIN { printf "%-10s %10d %12d %8.1f %7s\n", n, s, k, k * 1024 / s, t }'
done
