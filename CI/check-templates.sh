#!/usr/bin/env bash
# Proves every `canary init` template builds and passes in a package a user would write: a fresh
# package in a temporary folder outside this repository, with its own module, depending on a copy
# of this package exactly as README.md says (`.package(path: "../CanaryTrap")` and
# `.product(name: "CanaryTrap", …)` and `.product(name: "CanaryTrapTesting", …)` in the test target only).
# It is a full build of its own (its own .build), so .ci/run calls it rather than `swift test`.
# Usage: CI/check-templates.sh [--keep]   (--keep leaves the temporary folder for a look)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
keep="${1:-}"

work="$(mktemp -d "${TMPDIR:-/tmp}/canary-templates.XXXXXX")"
if [ "$keep" != "--keep" ]; then trap 'rm -rf "$work"' EXIT; fi
echo "fresh package in $work"

# The dependency: this repository's files as a user's checkout named CanaryTrap (no .build, no .git).
mkdir -p "$work/CanaryTrap"
(cd "$repo" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null) \
  | tar -xf - -C "$work/CanaryTrap"

# The `canary` executable that writes the templates.
(cd "$repo" && swift build --product canary 2>&1 | tail -1)
canary="$(cd "$repo" && swift build --show-bin-path)/canary"

app="$work/App"
mkdir -p "$app/Sources/App" "$app/Tests/AppTests"
cat > "$app/Package.swift" <<'MANIFEST'
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "App",
  platforms: [.macOS(.v13), .iOS(.v16)],
  dependencies: [
    .package(path: "../CanaryTrap")
  ],
  targets: [
    .target(name: "App"),
    .testTarget(
      name: "AppTests",
      dependencies: [
        "App", .product(name: "CanaryTrap", package: "CanaryTrap"),
        .product(name: "CanaryTrapTesting", package: "CanaryTrap"),
      ]),
  ]
)
MANIFEST
cat > "$app/Sources/App/APIClient.swift" <<'SOURCE'
/// The user's own module: the templates must build beside it without any CanaryTrap example code.
public struct APIClient: Sendable {
  public init() {}
}
SOURCE
# The project's own OpenAPI document, where the `openapi` template's default path points (the
# package root, two folders up from Tests/AppTests).
cp "$repo/Templates/openapi.json" "$app/openapi.json"

kinds=$("$canary" init --list | awk 'NF { print $1 }')
count=0
for kind in $kinds; do
  "$canary" init "$kind" --output "$app/Tests/AppTests" >/dev/null
  "$canary" init "$kind" --xctest --output "$app/Tests/AppTests" >/dev/null
  count=$((count + 2))
done
written=$(ls "$app/Tests/AppTests" | wc -l)
echo "canary init wrote $written templates ($count asked)"
[ "$written" -eq "$count" ] && [ "$count" -ge 16 ] || { echo "expected every template written" >&2; exit 1; }

# The Xcode file templates, written from the same embedded sources: one folder per kind.
"$canary" init --xcode-templates "$work/Xcode" >/dev/null
xcode=$(ls -d "$work/Xcode/"*.xctemplate | wc -l)
echo "canary init --xcode-templates wrote $xcode Xcode file templates"
[ "$xcode" -eq $((count / 2)) ] || { echo "expected one Xcode file template per kind" >&2; exit 1; }

cd "$app"
swift build --build-tests 2>&1 | grep -E "error|warning: .*AppTests|Compiling App|Build complete" || true
log="$work/test.log"
if ! swift test > "$log" 2>&1; then
  tail -40 "$log" >&2
  echo "templates FAILED in the fresh package" >&2
  exit 1
fi
grep -E "Test run with|Executed [0-9]+ tests" "$log"
# Every suite must have run: one Swift Testing suite and one XCTest class per kind, none skipped.
passed_suites=$(grep -cE "^✔ Suite .*LeakTests passed" "$log" || true)
passed_classes=$(grep -cE "Test Suite '.*LeakXCTests' passed" "$log" || true)
echo "Swift Testing suites passed: $passed_suites, XCTest classes passed: $passed_classes"
[ "$passed_suites" -eq $((count / 2)) ] && [ "$passed_classes" -eq $((count / 2)) ] \
  || { echo "not every template ran" >&2; exit 1; }
echo "every template builds and passes in a fresh package"
