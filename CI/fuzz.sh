#!/usr/bin/env bash
# Builds the libFuzzer binary (every Sources/CanaryTrapPrimitives, Sources/CanaryTrapServer,
# Sources/CanaryTrapScanner and Sources/CanaryTrap file plus Fuzz/*.swift, one swiftc call, one
# module; the imports of the lower targets resolve to empty stand-in modules, since their code is
# compiled into this one)
# and runs each target for SECONDS seconds (default 60) from its seed corpus in Fuzz/Corpus/<target>.
# Prints the executions per target; exits non-zero when a target crashes (the input is kept in
# $FUZZ_WORK/crash-<target>-*) or the build fails.
#
#   CI/fuzz.sh [seconds-per-target] [target...]      targets: http multipart manifest scanner
#                                                    gzip zlib bzip2 lz4 zip tar sqlite wal bplist
#                                                    openapi har xmlpath websocket
#   FUZZ_WORK=/tmp/dir  keeps the binary, the grown corpora and any crash there (default: mktemp)
#   FUZZ_JOBS=2         how many targets run at once (default 2)
#   FUZZ_REUSE=1        reuse the binary already in FUZZ_WORK instead of building it again
#   FUZZ_SEED=N         libFuzzer's -seed=N and Swift's deterministic hashing: the same inputs in
#                       the same order on every machine (a slower one runs a prefix of them), so a
#                       gate replays what passed; unset, every run explores from a random seed
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(http multipart manifest scanner gzip zlib bzip2 lz4 zip tar sqlite wal bplist openapi har xmlpath websocket); fi
work="${FUZZ_WORK:-$(mktemp -d /tmp/canary-fuzz.XXXXXX)}"
jobs="${FUZZ_JOBS:-2}"
mkdir -p "$work"
binary="$work/canary-fuzz"

if [ "${FUZZ_REUSE:-0}" = "1" ] && [ -x "$binary" ]; then
  echo "== fuzz: reusing $binary"
else
echo "== fuzz: building $binary"
sources=$(find Sources/CanaryTrapPrimitives Sources/CanaryTrapServer Sources/CanaryTrapScanner Sources/CanaryTrap -name '*.swift' | sort)
stand_ins="$work/stand-in-modules"
mkdir -p "$stand_ins"
for module in CanaryTrapPrimitives CanaryTrapServer CanaryTrapScanner; do
  : >"$stand_ins/$module.swift"
  swiftc -parse-as-library -emit-module -module-name "$module" -package-name CanaryTrap \
    "$stand_ins/$module.swift" -emit-module-path "$stand_ins/$module.swiftmodule"
done
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name CanaryTrapFuzz -package-name CanaryTrap \
  -I "$stand_ins" $sources Fuzz/*.swift -o "$binary" >"$work/build.log" 2>&1; then
  grep -v 'Cannot export local symbol' "$work/build.log" | tail -40
  echo "fuzz: build failed"
  exit 1
fi
fi

run_target() {
  local target="$1"
  mkdir -p "$work/corpus-$target"
  local status=0
  local seed=() environment=()
  if [ -n "${FUZZ_SEED:-}" ]; then seed=(-seed="$FUZZ_SEED") environment=(SWIFT_DETERMINISTIC_HASHING=1); fi
  # The Swift backtracer would run inside AddressSanitizer and report a crash of its own.
  env "${environment[@]}" SWIFT_BACKTRACE=enable=no CANARY_FUZZ_TARGET="$target" \
    "$binary" "${seed[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -rss_limit_mb=2048 -timeout=20 -artifact_prefix="$work/crash-$target-" \
    "$work/corpus-$target" "Fuzz/Corpus/$target" >"$work/$target.log" 2>&1 || status=$?
  echo "$status" >"$work/$target.status"
}

pending=("${targets[@]}")
while [ ${#pending[@]} -gt 0 ]; do
  batch=("${pending[@]:0:$jobs}")
  pending=("${pending[@]:$jobs}")
  for target in "${batch[@]}"; do run_target "$target" & done
  wait
done

failed=0
for target in "${targets[@]}"; do
  status=$(cat "$work/$target.status")
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | grep -o '[0-9]*$' || echo "?")
  if [ "$status" = "0" ]; then
    echo "fuzz $target: ok, $runs executions in ${seconds}s"
  else
    failed=1
    echo "fuzz $target: CRASH (exit $status) after $runs executions; log $work/$target.log"
    grep -E 'ERROR|Fatal error|fuzz invariant|SUMMARY|Test unit written' "$work/$target.log" | head -10
  fi
done
exit $failed
