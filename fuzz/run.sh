#!/usr/bin/env bash
# Run every fuzz target for SECONDS each (default 60), starting from the committed corpus in
# fuzz/corpus/<target>; new inputs go to fuzz/corpus-new/<target> (not committed). One line per
# target, then `fuzz: N passed, N failed`; exits non-zero on any crash, leaving the crash input
# and the command that reproduces it in the output.
#
# Works on the stable toolchain: cargo-fuzz needs nightly-only rustc flags (-Z sanitizer,
# coverage passes), which RUSTC_BOOTSTRAP=1 unlocks; stable ships the AddressSanitizer runtime,
# so the default `-s address` works (set FUZZ_SANITIZER=none for about twice the throughput).
# A panic anywhere, even one the server catches, aborts the run: libFuzzer counts it a crash.
# FUZZ_JOBS=N runs N targets at a time (CI: 2).
#   usage: fuzz/run.sh [SECONDS] [TARGET...]
#          fuzz/run.sh --build-only      (build the targets and stop: CI builds on both cores,
#                                         then fuzzes beside the editor tests)
set -uo pipefail
cd "$(dirname "$0")"

build_only=false
if [ "${1:-}" = --build-only ]; then
  build_only=true
  shift
fi
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(server parse roundtrip reparse analyze import)

export RUSTC_BOOTSTRAP=1
flags=(-s "${FUZZ_SANITIZER:-address}")
# FUZZ_CODEGEN_UNITS=16 builds in a fraction of the time for somewhat slower runs (cargo-fuzz
# builds each crate as one codegen unit by default); CI sets it, its fuzzing being short.
if [ -n "${FUZZ_CODEGEN_UNITS:-}" ]; then
  flags+=(--codegen-units "$FUZZ_CODEGEN_UNITS")
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked || exit 2
fi

echo "fuzz: building ${targets[*]}"
if ! cargo fuzz build "${flags[@]}" >build.log 2>&1; then
  tail -40 build.log
  echo "fuzz: the build failed"
  exit 2
fi
if $build_only; then
  echo "fuzz: built"
  exit 0
fi

# One target's run; its line (and on a crash the end of its log, the input and the command that
# reproduces it) goes to artifacts/<target>.result, printed in the targets' order at the end.
run_target() {
  local target=$1 log status runs cov crash
  mkdir -p "corpus/$target" "corpus-new/$target" "artifacts/$target"
  log="artifacts/$target.log"
  # The server target leaves each session's analysis threads to wind down on their own
  # (`shutdown_background`), so an input's allocations never balance its frees and LeakSanitizer
  # would stop the world to scan the whole heap after nearly every one: its committed corpus
  # took minutes instead of two. Its memory is the server's to bound (the memory tests).
  local leaks=()
  [ "$target" = server ] && leaks=(-detect_leaks=0)
  # -timeout: one input running this long is a hang; the server target bounds its own waits
  # well below it.
  cargo fuzz run "${flags[@]}" "$target" "corpus-new/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 "${leaks[@]}" \
    >"$log" 2>&1
  status=$?
  runs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | awk '{print $2}')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')
  {
    if [ "$status" -eq 0 ]; then
      echo "fuzz: $target ok: ${runs:-?} runs in ${seconds}s, coverage ${cov:-?} edges"
    else
      echo "fuzz: $target FAILED (exit $status); the end of its log ($log):"
      tail -60 "$log"
      crash=$(grep -o 'Test unit written to [^ ]*' "$log" | tail -1 | awk '{print $5}')
      if [ -n "$crash" ] && [ -f "$crash" ]; then
        echo "fuzz: crash input $crash (base64):"
        base64 "$crash"
        echo "fuzz: reproduce with: (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run ${flags[*]} $target $crash)"
      fi
    fi
  } >"artifacts/$target.result"
  return "$status"
}

# FUZZ_JOBS targets at a time (1 by default: each target has the machine to itself). CI runs
# two: the server target spends most of its time replaying its corpus, a core's worth.
jobs=${FUZZ_JOBS:-1}
passed=0
failed=0
running=0
for target in "${targets[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait
for target in "${targets[@]}"; do
  cat "artifacts/$target.result"
  if grep -q "^fuzz: $target ok" "artifacts/$target.result"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
