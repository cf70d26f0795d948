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
# the first 4,000 px of each at both widths; `demo-open` is the demo page with every collapsed
# section opened (a copy with `open` added, since the page has no script to click with). It prints
# each page's full height at both widths, measured in Chromium on a temporary copy of the page
# with a one-line script appended (the reports themselves never carry a script).
#
# Exit 0 when it wrote the screenshots; 2 when Chromium is missing (nothing was checked: say so).
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
sed -e 's/<details class="matrix-family">/<details class="matrix-family" open>/' \
  -e 's/<details class="family-group \(f-[0-9]*\)">/<details class="family-group \1" open>/' \
  "$reports/demo.html" >"$reports/demo-open.html"

height() {  # page width -> "H px"
  local probe="$out/probe.html"
  cp "$reports/$1" "$probe"
  echo '<script>addEventListener("load",()=>{document.title="H="+document.documentElement.scrollHeight})</script>' >>"$probe"
  "$chromium" --headless --no-sandbox --disable-gpu --window-size="$2,900" --dump-dom "file://$probe" 2>/dev/null |
    sed -n 's/.*<title>H=\([0-9]*\)<.*/\1 px/p'
  rm -f "$probe"
}

for page in demo demo-open index; do
  shoot "$page.html" 1400 900 "$page-1400"
  shoot "$page.html" 500 900 "$page-500"
  shoot "$page.html" 1400 4000 "$page-1400-tall"
  shoot "$page.html" 500 4000 "$page-500-tall"
  echo "$page.html height: $(height "$page.html" 1400) at 1400, $(height "$page.html" 500) at 500"
done
