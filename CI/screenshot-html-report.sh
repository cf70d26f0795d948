#!/usr/bin/env bash
# Renders the HTML report and the report-folder index in headless Chromium and writes
# screenshots, for a person to look at (the layout cannot be judged by a test).
#
# Usage: CI/screenshot-html-report.sh [OUT_DIR]   (default: a new temporary directory)
#   Needs a built package (`swift build --build-tests`; run this under the build lock when the
#   machine is shared) and Chromium (`apt-get install chromium`). Set CHROMIUM to another binary.
#
# Reports: `canary demo` (the full matrix against the example apps, several hundred canaries and
# many findings) and the template suites run with CANARY_TRAP_REPORT_DIR, which also writes the
# folder's index.html. Screenshots: each page at 1400 x 900 and 500 x 900 (a phone's width), and
# the first 4,000 px of each at both widths.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d "${TMPDIR:-/tmp}/canary-html.XXXXXX")}"
chromium="${CHROMIUM:-chromium}"
command -v "$chromium" >/dev/null || { echo "screenshot-html-report: $chromium not found" >&2; exit 2; }
reports="$out/reports"
mkdir -p "$reports"

swift run --skip-build canary demo --output-dir "$reports" >/dev/null || true   # leaky by design
CANARY_TRAP_REPORT_DIR="$reports" swift test --skip-build --filter CanaryTrapTemplates >/dev/null 2>&1 || true
[ -f "$reports/demo.html" ] || { echo "screenshot-html-report: canary demo wrote no demo.html" >&2; exit 1; }
[ -f "$reports/index.html" ] || { echo "screenshot-html-report: no index.html was written" >&2; exit 1; }

shoot() {  # page width height name
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --screenshot="$out/$4.png" --window-size="$2,$3" "file://$reports/$1" >/dev/null 2>&1
  echo "$out/$4.png"
}
for page in demo index; do
  shoot "$page.html" 1400 900 "$page-1400"
  shoot "$page.html" 500 900 "$page-500"
  shoot "$page.html" 1400 4000 "$page-1400-tall"
  shoot "$page.html" 500 4000 "$page-500-tall"
done
