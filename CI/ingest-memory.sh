#!/usr/bin/env bash
# Memory of `canary serve --ingest` under hostile uploads: one 100 MB upload (refused with 413 past
# the 16 MiB body limit), 15 of 1 MiB (the 16 MiB store nearly full, each split into items),
# 20 gzip bombs (each 100 MiB decoded), then 10,000 small ones (kept until the count or byte limit, the rest dropped and counted), measured
# with /usr/bin/time -v. usage: CI/ingest-memory.sh [path/to/canary]   (default .build/debug/canary)
set -euo pipefail
canary=${1:-.build/debug/canary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo '{"version":1,"canaries":[{"value":"cnryIngestMemory01","location":"request.url.query[session]"}]}' \
  >"$work/manifest.json"
/usr/bin/time -v -o "$work/time.txt" "$canary" serve -m "$work/manifest.json" --record /dev/null \
  --ingest 0 --ingest-report "$work/ingest.json" 2>"$work/stderr.txt" >/dev/null &
timer=$!
for _ in $(seq 200); do grep -q "ingest on" "$work/stderr.txt" 2>/dev/null && break; sleep 0.05; done
url=$(sed -n 's/^canary serve: ingest on //p' "$work/stderr.txt")
python3 - "$url" <<'PY'
import http.client, sys, time, urllib.parse
url = urllib.parse.urlparse(sys.argv[1])
start = time.time()
big = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
big.putrequest("POST", "/api/v2/logs")
big.putheader("Content-Length", str(100 * 1024 * 1024))
big.endheaders()
chunk = b"x" * (1 << 20)
try:
    for _ in range(100): big.send(chunk)
    status = big.getresponse().status
except OSError as error:
    status = "connection closed (%s)" % type(error).__name__
print("100 MB upload:", status)
small = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
line = b'{"log":"' + b"z" * 1000 + b'"}\n'
for n in range(15):  # 15 MiB of newline-delimited JSON: the sink's 16 MiB store nearly full
    small.request("POST", "/api/v2/rum", body=line * 1024, headers={"Content-Type": "text/plain"})
    small.getresponse().read()
print("15 uploads of 1 MiB (1,024 JSON lines each): sent")
import gzip
bomb = gzip.compress(bytes(100 << 20), 9)  # 100 MiB of zeros in about 100 KB
for n in range(20):
    small.request("POST", "/api/1/envelope/", body=bomb, headers={"Content-Encoding": "gzip"})
    small.getresponse().read()
print("20 gzip bombs of %d bytes (100 MiB each decoded): sent" % len(bomb))
statuses = {}
for n in range(10_000):
    body = (b'{"n":%d,"pad":"' % n) + b"y" * 1000 + b'"}'
    small.request("POST", "/api/v2/logs", body=body, headers={"Content-Type": "application/json"})
    response = small.getresponse(); response.read()
    statuses[response.status] = statuses.get(response.status, 0) + 1
print("10,000 uploads of 1 KB:", statuses, "in %.1f s" % (time.time() - start))
PY
child=$(pgrep -P "$timer")  # the canary process /usr/bin/time started
kill -TERM "$child"
wait "$timer" || true
cat "$work/stderr.txt"
grep -E "Maximum resident set size|Elapsed" "$work/time.txt"
python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print('verdict:', r['verdict']); print([s.get('reason','')[:300] for s in r['sources'] if s.get('status')!='heard'][:1])" "$work/ingest.json"
