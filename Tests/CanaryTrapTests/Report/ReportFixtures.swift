import CanaryTrap

/// Fixed reports, with fixed canary values, that every report test renders.
enum ReportFixtures {
  static let session = Canary(
    value: "cnryFIXEDsession0001", location: .requestHeader("X-Session"), shape: .token)
  static let password = Canary(
    value: "cnryFIXEDpass0002!&", location: .requestBody(.json("user.password")), shape: .password)
  static let cookie = Canary(
    value: "cnryFIXEDcookie0003", location: .responseCookie("sid"), shape: .token)
  static let signature = Canary(
    value: "cnryFIXEDsig0000004", location: .requestURL(.query("sig")), shape: .token)

  static let location = ReportSourceLocation(
    fileID: "AppTests/SignInLeakTests.swift", filePath: "Tests/AppTests/SignInLeakTests.swift",
    line: 12, column: 4)

  /// Three leaks at two locations, one undelivered canary, one silent source.
  static let leaky = LeakReport(
    title: "SignInLeakTests.signIn()",
    canaries: [session, password, cookie, signature],
    findings: [
      LeakFinding(
        canary: session, encoding: "base64", source: "app.log", line: 3, column: 17, offset: 120,
        excerpt: "auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42"),
      LeakFinding(
        canary: password, encoding: "percent", source: "app.log", line: 5, column: 9, offset: 201,
        excerpt: "body: pw=cnryFIXEDpass0002%21%26"),
      LeakFinding(
        canary: session, encoding: "raw", source: "stdout", line: 1, column: 1, offset: 0,
        excerpt: "cnryFIXEDsession0001 sent"),
    ],
    sources: [
      ScannedSource(name: "app.log", bytes: 512),
      ScannedSource(name: "stdout", bytes: 128),
      ScannedSource(name: "stderr", bytes: 0, status: .silent(reason: "no bytes written")),
    ],
    deliveries: [
      CanaryDelivery(canary: session, status: .delivered),
      CanaryDelivery(canary: password, status: .delivered),
      CanaryDelivery(
        canary: cookie, status: .undelivered(reason: "the app never received the Set-Cookie header")),
      CanaryDelivery(canary: signature, status: .delivered),
    ],
    sourceLocation: location)

  /// Every canary delivered, nothing found, every source heard.
  static let clean = LeakReport(
    title: "SignInLeakTests.clean()",
    canaries: [session, signature],
    sources: [ScannedSource(name: "app.log", bytes: 40), ScannedSource(name: "stdout", bytes: 10)],
    deliveries: [
      CanaryDelivery(canary: session, status: .delivered),
      CanaryDelivery(canary: signature, status: .delivered),
    ],
    sourceLocation: location)

  /// Nothing leaked, but a canary was not delivered, a source failed and the transport threw.
  static let inconclusive = LeakReport(
    title: "SignInLeakTests.offline()",
    canaries: [session, cookie],
    sources: [
      ScannedSource(name: "app.log", bytes: 40),
      ScannedSource(name: "cache.db", bytes: 0, status: .failed(reason: "permission denied")),
    ],
    deliveries: [
      CanaryDelivery(canary: session, status: .delivered),
      CanaryDelivery(canary: cookie, status: .undelivered(reason: "no response")),
    ],
    errors: ["transport threw URLError(-1004)"])

  /// A `canary scan` style report whose every shown string tries to break out of markup.
  static let hostile: LeakReport = {
    let canary = Canary(
      value: "cnry<script>alert(\"v\")</script>'&", location: .custom("<script>alert('loc')</script>"),
      shape: .token)
    return LeakReport(
      title: "scan of \"<b>logs</b>\" & 'more'",
      canaries: [canary],
      findings: [
        LeakFinding(
          canary: canary, encoding: "raw", source: "logs/<img src=x onerror=alert(1)>.log", line: 2,
          column: 3, offset: 40, excerpt: "<script>alert(\"x\")</script> & 'q' \u{1}]]>")
      ],
      sources: [ScannedSource(name: "logs/<img src=x onerror=alert(1)>.log", bytes: 64)],
      errors: ["error with <tag> & \"quotes\""])
  }()
}

extension ReportFixtures {
  /// A `canary scan` of files: no source location, no delivery proof.
  static let scan = LeakReport(
    title: "canary scan",
    canaries: [session, password],
    findings: [
      LeakFinding(
        canary: session, encoding: "base64", source: "logs/app.log", line: 3, column: 17, offset: 120,
        excerpt: "auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE= user=42"),
      LeakFinding(
        canary: session, encoding: "base64", source: "logs/app.log", line: 9, column: 2, offset: 700,
        excerpt: "retry auth=Y25yeUZJWEVEc2Vzc2lvbjAwMDE="),
      LeakFinding(
        canary: password, encoding: "sha256-hex", source: "logs/app 2.log", line: 1, column: 5,
        offset: 4, excerpt: "pw=5e884898da28047151d0e56f8dc6292773603d0d"),
    ],
    sources: [
      ScannedSource(name: "logs/app.log", bytes: 900), ScannedSource(name: "logs/app 2.log", bytes: 80),
    ])
}

extension ReportFixtures {
  /// The fixtures by name, so that parameterized tests print a name rather than a whole report.
  static let named: [String: LeakReport] = [
    "leaky": leaky, "clean": clean, "inconclusive": inconclusive, "hostile": hostile, "scan": scan,
  ]
}
