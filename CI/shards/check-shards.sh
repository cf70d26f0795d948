#!/usr/bin/env bash
# Scans one set of files three ways and proves they agree: one direct `canary scan`, shards run
# by `xargs -P 2` (one machine's cores), and shards run by Apache Spark in local mode, each shard a
# `canary scan --files-from - -f jsonl` worker whose reports `canary report merge` joins. The
# merged reports must hold the direct scan's findings, sources, counts and verdict.
#
#   CI/shards/check-shards.sh [--files N] [--mb SIZE_PER_FILE] [--canary PATH] [--repeat N] [--keep]
#                             [--no-spark]
#
# Needs python3 with pyspark and a Java runtime for the Spark part (.ci/run installs both).
# With --mb large, it is the benchmark of BENCHMARKS.md ("Shards"): it prints each route's time,
# the median of --repeat rounds that run the three routes in turn.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
files=16
mb=1
canary=""
keep=""
spark=1
repeat=1
while [ $# -gt 0 ]; do
  case "$1" in
    --files) files="$2"; shift 2 ;;
    --mb) mb="$2"; shift 2 ;;
    --canary) canary="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --repeat) repeat="$2"; shift 2 ;;
    --no-spark) spark=""; shift ;;
    *) echo "check-shards: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$canary" ]; then
  (cd "$repo" && swift build --product canary 2>&1 | tail -1)
  canary="$(cd "$repo" && swift build --show-bin-path)/canary"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/canary-shards.XXXXXX")"
[ -n "$keep" ] && echo "work folder: $work" || trap 'rm -rf "$work"' EXIT
cd "$work"
"$canary" manifest -n 8 -o manifest.json 2>/dev/null

# The file set: log lines with a canary planted in every fourth file (raw, percent-encoded in a
# query, base64 in a header), one of them gzip-compressed by gzip, and clean files between.
python3 - "$files" "$mb" <<'PY'
import base64, json, os, random, sys, urllib.parse
files, mb = int(sys.argv[1]), float(sys.argv[2])
canaries = [c["value"] for c in json.load(open("manifest.json"))["canaries"]]
random.seed(7)
os.makedirs("logs", exist_ok=True)
line = "2026-12-06T04:00:00Z INFO net GET /v1/items?page=2 -> 200 (123 bytes) request-id=%08x\n"
for index in range(files):
    target = int(mb * (1 << 20))
    chunks, size = [], 0
    while size < target:
        text = line % random.getrandbits(32)
        chunks.append(text)
        size += len(text)
    if index % 4 == 0:
        value = canaries[index % len(canaries)]
        chunks.insert(len(chunks) // 3, f"GET /me?token={value} -> 200\n")
        chunks.insert(len(chunks) // 2, f"GET /search?q={urllib.parse.quote('x ' + value)} -> 200\n")
        chunks.insert(2 * len(chunks) // 3, f"Authorization: Basic {base64.b64encode(('u:' + value).encode()).decode()}\n")
    with open(f"logs/app-{index:02d}.log", "w") as handle:
        handle.writelines(chunks)
PY
gzip -n logs/app-04.log
find "$work/logs" -type f | sort >list.txt
count=$(wc -l <list.txt)

now() { date +%s.%N; }
elapsed() { python3 -c "print(f'{$2 - $1:.3f}')"; }
median() { python3 -c "import statistics,sys; print(f'{statistics.median(map(float, sys.argv[1:])):.2f}')" "$@"; }

mkdir xargs-lists
split -n r/4 -d list.txt xargs-lists/shard-
direct_times=() xargs_times=() spark_times=()
for round in $(seq "$repeat"); do
  start=$(now)
  set +e
  "$canary" scan -m manifest.json -f jsonl --files-from list.txt -o direct.jsonl --force 2>/dev/null
  status=$?
  set -e
  direct_times+=("$(elapsed "$start" "$(now)")")
  [ $status -eq 1 ] || { echo "check-shards: the direct scan exited $status, not 1 (leaky)" >&2; exit 1; }

  # xargs -P 2: the list cut into 4 shard lists, each scanned by its own worker, 2 at a time.
  rm -rf xargs-shards && mkdir xargs-shards
  start=$(now)
  set +e
  ls xargs-lists/* | xargs -P 2 -I{} sh -c \
    '"$0" scan -m manifest.json -f jsonl --files-from "$1" -o "xargs-shards/${1##*/}.jsonl" 2>/dev/null' \
    "$canary" {}
  set -e
  "$canary" report merge xargs-shards --expect 4 -o xargs.jsonl --force 2>/dev/null || [ $? -eq 1 ]
  xargs_times+=("$(elapsed "$start" "$(now)")")
  python3 "$repo/CI/shards/compare.py" direct.jsonl xargs.jsonl >/dev/null

  if [ -n "$spark" ]; then
    rm -rf "$work/spark-shards"
    start=$(now)
    python3 "$repo/CI/shards/spark_scan.py" "$canary" "$work/manifest.json" list.txt "$work/spark-shards" 4 \
      2>spark.log || { tail -20 spark.log >&2; exit 1; }
    "$canary" report merge spark-shards --expect 4 -o spark.jsonl --force 2>/dev/null || [ $? -eq 1 ]
    spark_times+=("$(elapsed "$start" "$(now)")")
    python3 "$repo/CI/shards/compare.py" direct.jsonl spark.jsonl >/dev/null
  fi
done
python3 "$repo/CI/shards/compare.py" direct.jsonl xargs.jsonl
[ -z "$spark" ] || python3 "$repo/CI/shards/compare.py" direct.jsonl spark.jsonl
direct_time=$(median "${direct_times[@]}")
xargs_time=$(median "${xargs_times[@]}")
spark_time="-"
[ -z "$spark" ] || spark_time=$(median "${spark_times[@]}")
echo "check-shards: rounds: direct ${direct_times[*]}; xargs ${xargs_times[*]}; spark ${spark_times[*]:-}"

# The twin: a shard lost on the way (its report deleted) makes the merge inconclusive, not clean.
rm "xargs-shards/$(ls xargs-shards | head -1)"
set +e
"$canary" report merge xargs-shards --expect 4 -o lost.jsonl 2>/dev/null
status=$?
set -e
grep -q '"expected 4 shard reports, found 3' lost.jsonl || { echo "check-shards: a lost shard went unnoticed" >&2; exit 1; }

bytes=$(du -cb logs | tail -1 | cut -f1)
echo "check-shards: $count files, $bytes bytes, median of $repeat: direct ${direct_time} s, xargs -P 2 ${xargs_time} s, Spark local[2] ${spark_time} s; all agree"
