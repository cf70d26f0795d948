import Foundation

extension LeakReport {
  /// SARIF 2.1.0: one result per finding, one rule per location family and encoding (such as
  /// `canary-leak/request.header/base64`), each result located at the line of the user's code
  /// that planted the canary (``LeakFinding/plantedAt``), else where the scope was written
  /// (``sourceLocation``), else, for a `canary scan`, at the scanned file, line and column, with
  /// the exchange location and the sink as logical locations. Undelivered canaries, silent
  /// sources and errors become tool execution notifications.
  func sarifData() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return try encoder.encode(sarifLog())
    } catch {
      preconditionFailure("encoding a SARIF log failed: \(error)")
    }
  }

  /// The SARIF log; without `listingResults` its `results` are empty (the frame that
  /// `streamSARIF(_:)` fills in), its rules the same.
  func sarifLog(listingResults: Bool = true) -> SARIFLog {
    var numbering = SARIFResultNumbering()
    var results: [SARIFLog.Result] = []
    for finding in findings {
      // The frame only needs the rules: numbering them does not build the result.
      if listingResults {
        results.append(sarifResult(for: finding, numbering: &numbering))
      } else {
        _ = sarifRuleIndex(for: finding, numbering: &numbering)
      }
    }
    // A baseline entry nothing in a whole run matched: an `absent` result, which passes.
    let absent = baseline?.stale ?? []
    if listingResults {
      results += absent.map { sarifAbsentResult(for: $0, numbering: &numbering) }
    } else if !absent.isEmpty {
      _ = Self.sarifStaleRuleIndex(numbering: &numbering)
    }
    let rules = numbering.rules
    let notifications = problems.compactMap(Self.sarifNotification)
    var properties = ["title": title, "verdict": verdict.rawValue, "summary": verdictLine]
    if let baseline {
      properties["baselineEntries"] = String(baseline.entryCount)
      properties["baselineMatchedEntries"] = String(baseline.matched.count)
      if let stale = baseline.stale { properties["baselineStaleEntries"] = String(stale.count) }
    }
    if let summary = omittedFindingsSummary {
      properties["leakCount"] = String(totalFindingCount)
      properties["omittedLeaks"] = ([summary] + omittedFindingsLines).joined(separator: "; ")
    }
    let run = SARIFLog.Run(
      tool: .init(driver: .init(rules: rules)),
      automationDetails: .init(id: "canarytrap/\(SARIFMerge.runID(title))"),
      invocations: [
        .init(
          executionSuccessful: notifications.isEmpty,
          toolExecutionNotifications: notifications.isEmpty ? nil : notifications)
      ],
      results: results,
      properties: properties)
    return SARIFLog(runs: [run])
  }

  /// The rule of `finding` and its index, numbering the rule when it is new.
  private func sarifRuleIndex(for finding: LeakFinding, numbering: inout SARIFResultNumbering)
    -> (id: String, index: Int)
  {
    let family = finding.canary.location.family
    let id = "canary-leak/\(family)/\(finding.encoding)"
    if let index = numbering.ruleIndex[id] { return (id, index) }
    let index = numbering.rules.count
    numbering.ruleIndex[id] = index
    numbering.rules.append(Self.sarifRule(id: id, family: family, encoding: finding.encoding))
    return (id, index)
  }

  /// The result for `finding`, numbering its rule and fingerprint in the order findings come.
  private func sarifResult(for finding: LeakFinding, numbering: inout SARIFResultNumbering) -> SARIFLog.Result
  {
    let (id, ruleIndex) = sarifRuleIndex(for: finding, numbering: &numbering)
    let key = [
      finding.canary.location.description, finding.encoding, finding.source,
      finding.canary.shape?.rawValue ?? "",
    ].joined(separator: "\u{1F}")
    var fingerprint = StableHash.fnv1a64Hex(key)
    let uses = (numbering.fingerprintUses[fingerprint] ?? 0) + 1
    numbering.fingerprintUses[fingerprint] = uses
    if uses > 1 { fingerprint += ":\(uses)" }
    let entry = baseline?.entry(accepting: finding)
    return SARIFLog.Result(
      ruleId: id, ruleIndex: ruleIndex,
      baselineState: baseline == nil ? nil : entry == nil ? "new" : "unchanged",
      message: .init(text: finding.message),
      locations: [sarifLocation(for: finding)],
      partialFingerprints: ["canaryLeak/v1": fingerprint],
      properties: .init(
        canaryLocation: finding.canary.location.description,
        canaryShape: finding.canary.shape?.rawValue, encoding: finding.encoding,
        source: finding.source, sourceLine: finding.line, sourceColumn: finding.column,
        excerpt: finding.excerpt, baselineEntry: entry?.baselineKey, baselineReason: entry?.reason))
  }

  /// The rule of `absent` results, numbered when first used.
  static func sarifStaleRuleIndex(numbering: inout SARIFResultNumbering) -> Int {
    let id = SARIFLog.staleRuleID
    if let index = numbering.ruleIndex[id] { return index }
    numbering.ruleIndex[id] = numbering.rules.count
    numbering.rules.append(SARIFLog.staleRule)
    return numbering.rules.count - 1
  }

  /// The `absent` result of a baseline entry that matched nothing in the whole run.
  private func sarifAbsentResult(for entry: KnownLeak, numbering: inout SARIFResultNumbering)
    -> SARIFLog.Result
  {
    SARIFLog.absentResult(
      for: entry, ruleIndex: Self.sarifStaleRuleIndex(numbering: &numbering),
      site: sourceLocation.map { SARIFPath.uri(for: $0.filePath) })
  }

  /// The results encoded together in one piece of `streamSARIF(_:)`.
  static let sarifBatch = 16

  /// Writes the SARIF log (the same bytes as `sarifData()`) in pieces: the log around `results`,
  /// then `sarifBatch` results at a time, so a log with many results is never held whole.
  package func streamSARIF(_ emit: (Data) throws -> Void) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let frame = String(decoding: try encoder.encode(sarifLog(listingResults: false)), as: UTF8.self)
    let opening = "      \"results\" : [\n"
    guard !findings.isEmpty, let split = frame.range(of: opening + "\n      ]") else {
      return try emit(sarifData())
    }
    try emit(Data((frame[..<split.lowerBound] + opening).utf8))
    var numbering = SARIFResultNumbering()
    var batch: [SARIFLog.Result] = []
    var first = true
    // Results go out `sarifBatch` at a time: one encoder call each, not one per finding.
    let absent = baseline?.stale ?? []
    for (index, finding) in findings.enumerated() {
      batch.append(sarifResult(for: finding, numbering: &numbering))
      if index == findings.count - 1 {
        batch += absent.map { sarifAbsentResult(for: $0, numbering: &numbering) }
      }
      guard batch.count >= Self.sarifBatch || index == findings.count - 1 else { continue }
      let elements = try encoder.encode(batch)
      batch.removeAll(keepingCapacity: true)
      // `[\n  {…},\n  {…}\n]` at the top level: drop the brackets, indent to the depth of `results`.
      let lines = String(decoding: elements, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      let body = lines.dropFirst().dropLast().map { "      " + $0 }.joined(separator: "\n")
      try emit(Data(((first ? "" : ",\n") + body).utf8))
      first = false
    }
    try emit(Data(("\n      ]" + frame[split.upperBound...]).utf8))
  }

  /// Where a result points: the line that planted the leaked canary, else the line the scope was
  /// written on, else (a `canary scan`, which proves no delivery) the scanned file at the match,
  /// else the sink as `sink://NAME` at the match; with the exchange location and the sink as
  /// logical locations.
  private func sarifLocation(for finding: LeakFinding) -> SARIFLog.Location {
    let logical = Self.sarifLogicalLocations(for: finding)
    if let site = finding.plantedAt ?? sourceLocation {
      return .init(
        physicalLocation: .init(
          artifactLocation: .init(uri: SARIFPath.uri(for: site.filePath)),
          region: .init(startLine: max(site.line, 1), startColumn: max(site.column, 1))),
        logicalLocations: logical)
    }
    let uri = deliveries.isEmpty ? SARIFPath.uri(for: finding.source) : SARIFPath.sinkURI(for: finding.source)
    return .init(
      physicalLocation: .init(
        artifactLocation: .init(uri: uri),
        region: .init(startLine: max(finding.line, 1), startColumn: max(finding.column, 1))),
      logicalLocations: logical)
  }

  /// The exchange location the canary was planted in (`member`) and the sink it leaked into
  /// (`resource`).
  static func sarifLogicalLocations(for finding: LeakFinding) -> [SARIFLog.LogicalLocation] {
    let location = finding.canary.location.description
    return [
      .init(name: Self.lastBracketedName(location), fullyQualifiedName: location, kind: "member"),
      .init(name: nil, fullyQualifiedName: finding.source, kind: "resource"),
    ]
  }

  /// `Authorization` for `request.header[Authorization]`; nil when the location names no part.
  private static func lastBracketedName(_ location: String) -> String? {
    guard location.hasSuffix("]"), let open = location.lastIndex(of: "[") else { return nil }
    let name = location[location.index(after: open)..<location.index(before: location.endIndex)]
    return name.isEmpty ? nil : String(name)
  }

  private static func sarifRule(id: String, family: String, encoding: String) -> SARIFLog.Rule {
    let phrase = LeakFinding.phrase(forEncoding: encoding)
    return SARIFLog.Rule(
      id: id,
      name: "CanaryLeak",
      shortDescription: .init(text: "Secret from \(family) leaks \(phrase)"),
      fullDescription: .init(
        text:
          "A canary (a unique fake secret) planted in \(family) was found \(phrase) in a log, file or"
          + " other sink the app writes to; a real secret there would leak the same way."),
      help: .init(
        text:
          "Redact or drop values from \(family) before they reach logs, caches or exports, then run"
          + " the CanaryTrap test again."),
      properties: .init(tags: ["security", "secret-leak", "canary-trap"]))
  }

  private static func sarifNotification(_ problem: ReportProblem) -> SARIFLog.Notification? {
    let (level, id): (String, String)
    switch problem.kind {
    case .leak: return nil
    case .undelivered: (level, id) = ("warning", "canary-undelivered")
    case .silentSource: (level, id) = ("warning", "canary-source-silent")
    case .failedSource: (level, id) = ("error", "canary-source-failed")
    case .error: (level, id) = ("error", "canary-run-error")
    }
    return .init(level: level, message: .init(text: problem.message), descriptor: .init(id: id))
  }
}

/// The rules and fingerprints numbered so far, in the order findings come.
struct SARIFResultNumbering {
  var rules: [SARIFLog.Rule] = []
  var ruleIndex: [String: Int] = [:]
  var fingerprintUses: [String: Int] = [:]
}

/// Turns file paths and source names into SARIF artifact URIs.
enum SARIFPath {
  /// A relative path stays relative; an absolute path under the current directory (the package
  /// root under `swift test`) becomes relative to it, as code-scanning services expect; any other
  /// absolute path becomes a `file://` URI. Characters outside RFC 3986's unreserved set and `/`
  /// are percent-encoded.
  static func uri(for path: String) -> String {
    var path = path
    if path.hasPrefix("/") {
      let root = FileManager.default.currentDirectoryPath
      let prefix = root.hasSuffix("/") ? root : root + "/"
      if path.hasPrefix(prefix) && path.count > prefix.count {
        path.removeFirst(prefix.count)
      } else {
        return "file://" + percentEncoded(path)
      }
    }
    return percentEncoded(path)
  }

  /// A sink's stable name (`stdout`, `memory-log`, `file:app.log`) as `sink://` and the name
  /// percent-encoded: what a result names when it knows no line of the user's code.
  static func sinkURI(for name: String) -> String {
    "sink://" + percentEncoded(name)
  }

  private static func percentEncoded(_ path: String) -> String {
    var result = ""
    for byte in path.utf8 {
      let scalar = Unicode.Scalar(byte)
      let isUnreserved =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        || "-._~/".unicodeScalars.contains(scalar)
      if isUnreserved {
        result.unicodeScalars.append(scalar)
      } else {
        result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return result
  }
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    String(repeating: "0", count: max(0, length - count)) + self
  }
}
