#!/usr/bin/env bash
# Counts the public (and open) API of the library modules from their symbol graphs, per kind, so
# the figure can be compared before and after a change:
#
#   CI/count-public-api.sh                    builds into .build/api-count and prints the table
#   CI/count-public-api.sh --graphs DIR       counts the *.symbols.json already in DIR
#   CI/count-public-api.sh --modules DIR      extracts the graphs from modules built in DIR
#                                             (e.g. .build/debug/Modules)
#
# Two figures per module: `declared` counts the symbols written in the source; `total` adds the
# members the compiler synthesizes (protocol default implementations such as `!=` on every
# Equatable type), which a user also sees in completion. Symbols of the module's extensions of other
# modules' types (`CanaryTrap@Swift.symbols.json`) are counted with the module; symbols a module
# re-exports from another are counted only in the module that declares them.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(CanaryTrapServer CanaryTrapScanner CanaryTrap CanaryTrapTesting)
if [ "${1:-}" = "--graphs" ]; then
  graphs="$2"
elif [ "${1:-}" = "--modules" ]; then
  # Modules already built (such as .build/debug/Modules): extract their graphs without a build.
  graphs="$(mktemp -d)"
  triple=$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
  for module in "${modules[@]}"; do
    swift symbolgraph-extract -module-name "$module" -I "$2" -target "$triple" \
      -output-dir "$graphs" >&2
  done
else
  graphs="$PWD/.build/api-count/graphs"
  rm -rf "$graphs" && mkdir -p "$graphs"
  # Building CanaryTrapTesting compiles CanaryTrap too; both emit their public symbol graphs.
  swift build --target CanaryTrapTesting --scratch-path .build/api-count \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs" >&2
fi

python3 - "$graphs" "${modules[@]}" <<'PY'
import collections, glob, json, os, sys

graphs, modules = sys.argv[1], sys.argv[2:]
grand = 0
for module in modules:
    files = [os.path.join(graphs, f"{module}.symbols.json")] + sorted(
        glob.glob(os.path.join(graphs, f"{module}@*.symbols.json")))
    files = [f for f in files if os.path.exists(f)]
    if not files:
        sys.exit(f"count-public-api: no symbol graph for {module} in {graphs}")
    declared, total = collections.Counter(), collections.Counter()
    seen = set()
    for path in files:
        for symbol in json.load(open(path))["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            identifier = symbol["identifier"]["precise"]
            # A module that re-exports another (CanaryTrapTesting: @_exported import CanaryTrap)
            # lists that module's symbols too; count each where it is declared.
            uri = symbol.get("location", {}).get("uri", "")
            if uri and f"/Sources/{module}/" not in uri:
                continue
            if identifier in seen:
                continue
            seen.add(identifier)
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            total[kind] += 1
            if "::SYNTHESIZED::" not in identifier:
                declared[kind] += 1
    print(f"{module}: {sum(declared.values())} declared public symbols ({sum(total.values())} with synthesized members)")
    for kind in sorted(total, key=lambda k: (-declared[k], k)):
        print(f"  {kind:<16} {declared[kind]:>5} {total[kind]:>6}")
    grand += sum(declared.values())
print(f"all modules: {grand} declared public symbols")
PY
