#!/usr/bin/env bash
# Mutation check: applies each named mutation of CI/mutations.txt to a copy of the package, builds
# it once, runs the tests that must catch it, restores the file, and prints KILLED or SURVIVED.
#
#   CI/mutate.sh                 every mutation
#   CI/mutate.sh --fast          the ones marked `fast: yes` (about 5, for .ci/run)
#   CI/mutate.sh NAME...         only these
#   CI/mutate.sh --check         only check that every `original` text is still found (no build)
#   CI/mutate.sh --no-lock ...   do not take /tmp/swift-build.lock (CI running alone)
#
# The repository is never modified: the tree is copied (without .build and .git) to $MUTATE_WORK
# (default /tmp/mutate-work) and built there with its own --scratch-path. Each build-and-test holds
# the shared build lock for that one mutation only, so others can build in between. A mutation
# whose `original` text is not found exactly once is STALE and fails the run loudly; one that no
# longer compiles is INVALID. One run at a time per $MUTATE_WORK: a second one exits 2 at once.
# Exit status: 0 when every mutation was killed, 1 otherwise, 2 when the list is stale, the
# unmutated tests fail or the work directory is in use.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
list="${MUTATIONS:-$root/CI/mutations.txt}"
work="${MUTATE_WORK:-/tmp/mutate-work}"
mkdir -p "$work" && work="$(cd "$work" && pwd)"  # absolute: the script changes directory
lock="${MUTATE_LOCK:-/tmp/swift-build.lock}"
test_timeout="${MUTATE_TEST_TIMEOUT:-300}"
fast=0 check=0 names=()
for argument in "$@"; do
  case "$argument" in
    --fast) fast=1 ;;
    --check) check=1 ;;
    --no-lock) lock="" ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) names+=("$argument") ;;
  esac
done

locked() { if [ -n "$lock" ]; then flock "$lock" "$@"; else "$@"; fi; }

# One run per work directory: a second run there would delete the first one's files mid-run.
exec 9>"$work/.run-lock"
if ! flock -n 9; then
  echo "mutate.sh: another run is using $work; give this one its own MUTATE_WORK=DIR" >&2
  exit 2
fi

# Splits the list into one directory per mutation: file, tests, fast, original, mutant.
parsed="$work/parsed"
rm -rf "$parsed" && mkdir -p "$parsed"
python3 - "$list" "$parsed" <<'PY' || exit 2
import os, sys
lines = open(sys.argv[1]).read().split("\n")
out = sys.argv[2]
i, count = 0, 0
while i < len(lines):
    line = lines[i]
    if not line.startswith("== "):
        i += 1
        continue
    name = line[3:].strip()
    fields, i = {}, i + 1
    while i < len(lines) and not lines[i].startswith("--- original"):
        if ":" in lines[i]:
            key, value = lines[i].split(":", 1)
            fields[key.strip()] = value.strip()
        i += 1
    original, i = [], i + 1
    while lines[i] != "--- mutant":
        original.append(lines[i]); i += 1
    mutant, i = [], i + 1
    while lines[i] != "--- end":
        mutant.append(lines[i]); i += 1
    d = os.path.join(out, "%03d-%s" % (count, name))
    os.makedirs(d)
    for key in ("file", "tests", "fast", "why"):
        open(os.path.join(d, key), "w").write(fields.get(key, ""))
    open(os.path.join(d, "original"), "w").write("\n".join(original))
    open(os.path.join(d, "mutant"), "w").write("\n".join(mutant))
    count += 1
print(f"{count} mutations in {os.path.relpath(sys.argv[1])}")
PY

selected=()
for dir in "$parsed"/*; do
  name="${dir##*/}"; name="${name#*-}"
  if [ ${#names[@]} -gt 0 ]; then
    printf '%s\n' "${names[@]}" | grep -qx "$name" || continue
  elif [ $fast = 1 ] && [ "$(cat "$dir/fast")" != yes ]; then
    continue
  fi
  selected+=("$dir")
done
[ ${#selected[@]} -gt 0 ] || { echo "no mutation selected"; exit 2; }

# Replaces `original` by `mutant` in FILE (exactly one occurrence), or reports why not.
apply() {  # apply DIR TREE [check]
  python3 - "$1" "$2" "${3:-}" <<'PY'
import os, sys
d, tree, check_only = sys.argv[1], sys.argv[2], sys.argv[3] == "check"
read = lambda key: open(os.path.join(d, key)).read()
path = os.path.join(tree, read("file"))
if not os.path.exists(path):
    print(f"file {read('file')} is gone"); sys.exit(1)
text = open(path).read()
count = text.count(read("original"))
if count != 1:
    print(f"original text found {count} times in {read('file')}"); sys.exit(1)
if not check_only:
    open(path, "w").write(text.replace(read("original"), read("mutant"), 1))
PY
}

stale=0
for dir in "${selected[@]}"; do
  if ! reason=$(apply "$dir" "$root" check); then
    echo "STALE ${dir##*/[0-9][0-9][0-9]-}: $reason"
    stale=1
  fi
done
if [ $stale = 1 ]; then
  echo "The mutation list is stale: update CI/mutations.txt to the code as it is now."
  exit 2
fi
[ $check = 1 ] && { echo "every original text found"; exit 0; }

start=$(date +%s)
tree="$work/tree" scratch="$work/build"
mkdir -p "$tree"
# A fresh copy of the sources (the build directory under $scratch is kept between runs).
find "$tree" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
(cd "$root" && tar -c --exclude ./.build --exclude ./.git --exclude ./.swiftpm .) | (cd "$tree" && tar -x)
cd "$tree" || exit 2
filters=$(for dir in "${selected[@]}"; do cat "$dir/tests"; echo; done | tr '|' '\n' | sort -u | paste -sd '|')

# Runs `swift test` for FILTER on the built tree; prints the first failing test, if any.
run_tests() {  # run_tests FILTER LOG
  timeout "$test_timeout" swift test --skip-build --scratch-path "$scratch" --filter "$1" >"$2" 2>&1
}
first_failure() {  # first_failure LOG
  python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
for pattern in (r'✘ Test (.+?) recorded an issue', r"Test Case '([^']+)' failed", r'✘ Test (.+?) failed'):
    m = re.search(pattern, text)
    if m:
        print(re.sub(r' with \d+ argument.*', '', m.group(1))); sys.exit(0)
if re.search(r'signal|crash|Fatal error', text):
    print("a crash (" + (re.search(r'.*(signal|Fatal error).*', text).group(0).strip()[:120]) + ")"); sys.exit(0)
print("a failing run")
PY
}

echo "== baseline: build the unmutated copy and run the tests the mutations name"
if ! locked swift build --build-tests --scratch-path "$scratch" >"$work/baseline-build.log" 2>&1; then
  tail -20 "$work/baseline-build.log"; echo "the unmutated copy does not build"; exit 2
fi
if ! locked bash -c "$(declare -f run_tests); scratch='$scratch' test_timeout='$test_timeout' run_tests '$filters' '$work/baseline-test.log'"; then
  grep -E '✘|error' "$work/baseline-test.log" | head -20
  echo "the unmutated tests fail: fix them before judging mutations"; exit 2
fi
echo "baseline green ($(( $(date +%s) - start )) s)"

killed=0 survived=0 invalid=0
for dir in "${selected[@]}"; do
  name="${dir##*/}"; name="${name#*-}"
  file=$(cat "$dir/file") tests=$(cat "$dir/tests")
  began=$(date +%s)
  apply "$dir" "$tree" >/dev/null || { echo "STALE $name"; invalid=$((invalid + 1)); continue; }
  log="$work/$name.log"
  # Build and test under one hold of the lock; the original file is restored right after.
  locked bash -c "
    swift build --build-tests --scratch-path '$scratch' >'$log.build' 2>&1 || exit 100
    $(declare -f run_tests); scratch='$scratch' test_timeout='$test_timeout' run_tests '$tests' '$log'"
  status=$?
  cp "$root/$file" "$tree/$file"
  seconds=$(( $(date +%s) - began ))
  if [ $status = 100 ]; then
    echo "INVALID  $name: does not compile ($(grep -m1 'error:' "$log.build" | cut -c1-160))"
    invalid=$((invalid + 1))
  elif [ $status = 124 ]; then
    echo "KILLED   $name by a timeout (tests hung past ${test_timeout} s) [${seconds} s]"
    killed=$((killed + 1))
  elif [ $status != 0 ]; then
    echo "KILLED   $name by $(first_failure "$log") [${seconds} s]"
    killed=$((killed + 1))
  else
    echo "SURVIVED $name ($file; tests: $tests) [${seconds} s]"
    survived=$((survived + 1))
  fi
done
total=$(( killed + survived + invalid ))
echo "== $killed of $total killed, $survived survived, $invalid invalid, in $(( $(date +%s) - start )) s"
[ $survived = 0 ] && [ $invalid = 0 ]
