#!/usr/bin/env bash
# Scans device and simulator logs collected after a UI test run for the canaries that run planted.
#
#   CI/scan-device-logs.sh --manifest canaries.json [--format text|json|junit|sarif|html]
#                          [--output FILE [--force]] [--min-fragment N] [--max-bytes SIZE] LOG...
#
# Each LOG may be a file, a directory (walked recursively), an archive or a compressed log of any
# name (gzip, zlib, zip, tar, tar.gz, SQLite and -wal, binary plists, nested: `canary scan` opens
# them itself, by content, and names findings by their path through them, such as
# logs.zip!/net/app.log.gz!:12:5), or on
# macOS a .logarchive (converted with `log show --archive`, because its tracev3 files are
# compressed; its findings are named after the archive, e.g. device.logarchive.log:12:5, never
# after a temporary file). The manifest is the one the UI test run wrote
# (`trap.canaries.manifest.jsonData()`, or the manifest `canary serve` writes).
#
# Exit status is `canary scan`'s: 0 no leak, 1 leaks found, 2 error, 3 inconclusive (nothing scanned).
# Set CANARY to the canary executable to use; by default `canary` from PATH, else `swift run canary`.
# Set LOG_SHOW to the command that converts a logarchive (default `log show`, macOS only).
set -euo pipefail

usage() {
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

manifest=""
output=""
scan_options=()
inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --manifest) [ $# -ge 2 ] || usage; manifest="$2"; shift 2 ;;
    --format|--min-fragment|--max-bytes) [ $# -ge 2 ] || usage; scan_options+=("$1" "$2"); shift 2 ;;
    --force) scan_options+=(--force); shift ;;
    --output) [ $# -ge 2 ] || usage; output="$2"; shift 2 ;;
    -h|--help) usage ;;
    --) shift; inputs+=("$@"); break ;;
    -*) echo "scan-device-logs: unknown option $1" >&2; exit 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[ -n "$manifest" ] || { echo "scan-device-logs: --manifest FILE is required" >&2; exit 2; }
[ -r "$manifest" ] || { echo "scan-device-logs: cannot read manifest $manifest" >&2; exit 2; }
[ ${#inputs[@]} -gt 0 ] || { echo "scan-device-logs: give at least one log file, directory or archive" >&2; exit 2; }

if [ -n "${CANARY:-}" ]; then
  read -r -a canary_command <<< "$CANARY"
elif command -v canary >/dev/null 2>&1; then
  canary_command=(canary)
else
  canary_command=(swift run --skip-build canary)
  swift build --product canary >/dev/null 2>&1 || canary_command=(swift run canary)
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/canary-device-logs.XXXXXX")"
trap 'rm -rf "$work"' EXIT

paths=()
converted=()
# canary scan runs from here when a logarchive was converted: every other input is linked in under
# the name it was given, so every finding keeps its name and none names this temporary directory.
names="$work/names"
mkdir -p "$names"
index=0
for input in "${inputs[@]}"; do
  index=$((index + 1))
  if [ ! -e "$input" ]; then
    echo "scan-device-logs: no such file or directory: $input" >&2
    exit 2
  fi
  case "$input" in
    *.logarchive|*.logarchive/)
      if [ -n "${LOG_SHOW:-}" ] || { command -v log >/dev/null 2>&1 && [ "$(uname)" = "Darwin" ]; }; then
        read -r -a log_show <<< "${LOG_SHOW:-log show}"
        # Named after the archive as given (its file name alone when the path is absolute or
        # climbs with ..), inside the directory canary scan runs from.
        name="${input%/}.log"
        case "/$name/" in */../*|//*) name="$(basename "${input%/}").log" ;; esac
        [ -e "$names/$name" ] && name="$index-$(basename "${input%/}").log"
        mkdir -p "$names/$(dirname "$name")"
        "${log_show[@]}" --archive "$input" --info --debug --style syslog > "$names/$name"
        paths+=("$name")
        converted+=("$name")
      else
        echo "scan-device-logs: $input is a logarchive; 'log show' is only on macOS, scanning its raw files" >&2
        paths+=("$input")
      fi
      ;;
    *)
      paths+=("$input")
      ;;
  esac
done

absolute() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(cd "$(dirname "$1")" && pwd)" "$(basename "$1")" ;;
  esac
}
if [ ${#converted[@]} -eq 0 ]; then
  [ -z "$output" ] || scan_options+=(--output "$output")
else
  manifest="$(absolute "$manifest")"
  [ -z "$output" ] || scan_options+=(--output "$(absolute "$output")")
  case "${canary_command[0]}" in
    */*) canary_command[0]="$(absolute "${canary_command[0]}")" ;;
    swift) canary_command=(swift run --package-path "$PWD" "${canary_command[@]:2}") ;;
  esac
  linked=()
  for path in "${paths[@]}"; do
    if printf '%s\n' "${converted[@]}" | grep -qxF -- "$path"; then
      linked+=("$path")
    elif case "/$path/" in */../*|//*) true ;; *) false ;; esac; then
      linked+=("$(absolute "${path%/}")")
    else
      mkdir -p "$names/$(dirname "$path")"
      ln -s "$(absolute "${path%/}")" "$names/${path%/}"
      linked+=("$path")
    fi
  done
  paths=("${linked[@]}")
  cd "$names"
fi

# canary scan's exit status: 0 clean, 1 leaks, 2 error, 3 inconclusive
set +e
"${canary_command[@]}" scan --manifest "$manifest" "${scan_options[@]+"${scan_options[@]}"}" "${paths[@]}"
exit $?
