#!/usr/bin/env bash
# Runs every test suite that shells out to a tool or Python module with the optional ones out of
# reach (zstd, lz4, xz and Python's lz4 and websockets, as on a fresh Mac without Homebrew; xxd and
# hexdump, as on a minimal Linux), and fails unless those suites pass and say which checks did not
# run. The README promises that `swift test` passes with only the Swift toolchain; this stage keeps
# that promise checked while the main `swift test` stage runs with every tool installed.
#
#   CI/without-optional-tools.sh [--skip-build]
set -euo pipefail
cd "$(dirname "$0")/.."

hidden_tools=(zstd unzstd zstdcat lz4 lz4c lz4cat unlz4 xz unxz xzcat lzma unlzma lzcat xxd hexdump)
hidden_modules=(lz4 websockets)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/python"

# A PATH of one directory: a link to every command on the current PATH but the hidden ones (the
# first of each name, as the shell would pick it), then the toolchain's own directory.
IFS=: read -ra directories <<<"$PATH"
for directory in "${directories[@]}"; do
  [ -d "$directory" ] || continue
  for command in "$directory"/*; do
    name="${command##*/}"
    [ -x "$command" ] && [ ! -d "$command" ] || continue
    [ -e "$work/bin/$name" ] || [ -L "$work/bin/$name" ] && continue
    for hidden in "${hidden_tools[@]}"; do [ "$name" = "$hidden" ] && continue 2; done
    ln -s "$command" "$work/bin/$name"
  done
done
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")"

# Python packages that raise ImportError on import, ahead of site-packages on sys.path.
for module in "${hidden_modules[@]}"; do
  mkdir -p "$work/python/$module"
  echo "raise ImportError('hidden by CI/without-optional-tools.sh')" >"$work/python/$module/__init__.py"
done

restricted=(env "PATH=$work/bin:$toolchain" "PYTHONPATH=$work/python")
for tool in "${hidden_tools[@]}"; do
  if "${restricted[@]}" sh -c "command -v $tool" >/dev/null 2>&1; then
    echo "without-optional-tools: $tool is still reachable" >&2
    exit 1
  fi
done
for module in "${hidden_modules[@]}"; do
  if "${restricted[@]}" python3 -c "import $module" >/dev/null 2>&1; then
    echo "without-optional-tools: Python's $module is still importable" >&2
    exit 1
  fi
done

# The suites that run a tool: every test file naming ExternalTools (or the fixtures built on it),
# by the types it declares.
suites=$(grep -rlE 'ExternalTools?\.|ContainerFixtures\(|files\.(run|python)\(' Tests \
  | xargs grep -hoE '^(@Suite[^\n]*)?\s*(final class|struct|class) [A-Za-z0-9_]+Tests\b' \
  | grep -oE '[A-Za-z0-9_]+Tests$' | sort -u | paste -sd'|')
echo "without-optional-tools: suites: ${suites//|/ }"

[ "${1:-}" = "--skip-build" ] || swift build --build-tests 2>&1 | tail -1
log="$work/test.log"
set +e
"${restricted[@]}" swift test --skip-build --filter "($suites)" >"$log" 2>&1
status=$?
set -e
grep -E 'did not run: ' "$log" | sed -E 's/.*(did not run: [^"]*).*/\1/' | sort | uniq -c
tail -3 "$log"
if [ $status -ne 0 ]; then
  grep -E '✘|error:' "$log" | head -40
  echo "without-optional-tools: swift test failed (exit $status) with the optional tools out of reach" >&2
  exit 1
fi
# The stage proves something only if the hidden tools were actually wanted and missed.
for expected in 'zstd is not on PATH' 'xz is not on PATH' 'lz4 is not on PATH' 'xxd is not on PATH' \
  'hexdump is not on PATH' \
  "Python's lz4.block module is not importable" "Python's websockets.sync.client module is not importable"; do
  grep -q "$expected" "$log" || {
    echo "without-optional-tools: no test said \"$expected\"" >&2
    exit 1
  }
done
echo "without-optional-tools: passed with zstd, lz4, xz, xxd, hexdump and Python's lz4 and websockets out of reach"
