// Recorded by GoldenTests with CANARY_TRAP_RECORD_GOLDEN=1; do not edit by hand.
// swift-format-ignore-file

extension Golden {
  static let leakyText = ##"""
CanaryTrap report: SignInLeakTests.signIn()
Written at: AppTests/SignInLeakTests.swift:12:4
Verdict: LEAKY: 3 leaks at 2 locations

Matrix (rows: planted locations; columns: sources; cells: encodings leaked, "." none):
  location                          delivery     app.log  stdout  stderr (silent)
  request.header[X-Session]         delivered    base64   raw     .
  request.body.json[user.password]  delivered    percent  .       .
  response.cookie[sid]              UNDELIVERED  .        .       .
  request.url.query[sig]            delivered    .        .       .

Findings (3):
  1. request.header[X-Session] -> app.log, base64, line 3:17
     excerpt: auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42
  2. request.body.json[user.password] -> app.log, percent, line 5:9
     excerpt: body: pw=cnryFIXEDpass0002%21%26
  3. request.header[X-Session] -> stdout, raw, line 1:1
     excerpt: cnryFIXEDsession0001 sent

Undelivered canaries (1):
  - response.cookie[sid]: the app never received the Set-Cookie header

Sources (3):
  - app.log: heard, 512 bytes
  - stdout: heard, 128 bytes
  - stderr: silent, 0 bytes (no bytes written)

LEAKY: 3 leaks at 2 locations

"""##
}
