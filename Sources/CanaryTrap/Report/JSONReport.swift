import Foundation

extension LeakReport {
  /// The report as the stable JSON document: `clean`, `leaks` and `sources`, plus
  /// `verdict`, `title`, `undelivered` and `errors`. When more findings were counted than kept
  /// (``ScanOptions/maxFindingsPerCanary``), `leakCount` gives the exact total and `omittedLeaks`
  /// counts, per canary and source, those `leaks` does not list.
  package func jsonData(prettyPrinted: Bool = true) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting =
      prettyPrinted ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys]
    return try encoder.encode(JSONReportDocument(self))
  }
}

extension LeakReport {
  /// Writes the pretty-printed JSON report (the same bytes as ``jsonData(prettyPrinted:)``) in
  /// pieces: the document around `leaks`, then one finding at a time, so a report with many
  /// findings is never held whole in memory.
  package func streamJSON(_ emit: (Data) throws -> Void) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    let frame = String(
      decoding: try encoder.encode(JSONReportDocument(self, listingLeaks: false)), as: UTF8.self)
    let opening = "  \"leaks\" : [\n"
    guard !findings.isEmpty, let split = frame.range(of: opening + "\n  ]") else {
      return try emit(Data(frame.utf8))
    }
    try emit(Data((frame[..<split.lowerBound] + opening).utf8))
    for (index, finding) in findings.enumerated() {
      let single = LeakReport(title: "", canaries: [], findings: [finding])
      let element = try encoder.encode(JSONReportDocument(single).leaks)
      // `[\n  {…}\n]` at the top level: drop the brackets and indent one level deeper.
      let lines = String(decoding: element, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      let body = lines.dropFirst().dropLast().map { "  " + $0 }.joined(separator: "\n")
      try emit(Data(((index == 0 ? "" : ",\n") + body).utf8))
    }
    try emit(Data(("\n  ]" + frame[split.upperBound...]).utf8))
  }
}

/// The shape of the JSON report: encoded by ``LeakReport/jsonData(prettyPrinted:)``, decoded by
/// `canary report merge` when it joins scan shards.
package struct JSONReportDocument: Codable {
  package struct CanaryRef: Codable, Equatable {
    package let value: String
    package let location: String
    package let shape: String?

    package init(_ canary: Canary) {
      value = canary.value
      location = canary.location.description
      shape = canary.shape?.rawValue
    }
  }

  package struct Leak: Codable {
    package let canary: CanaryRef
    package let encoding: String
    package let source: String
    package let line: Int
    package let column: Int
    package let offset: Int
    package let excerpt: String
  }

  package struct Source: Codable {
    package let name: String
    package let bytes: Int
    package let status: String
    package let reason: String?
  }

  package struct Omitted: Codable {
    package let canary: CanaryRef
    package let source: String
    package let count: Int
  }

  package struct Undelivered: Codable {
    package let canary: CanaryRef
    package let reason: String
  }

  package let clean: Bool
  package let verdict: String
  package let title: String
  package let leaks: [Leak]
  /// Every finding, listed in `leaks` or only counted in `omittedLeaks`; present only when the
  /// cap left findings out.
  package let leakCount: Int?
  /// Findings counted beyond the cap per canary and source, and not listed; present only then.
  package let omittedLeaks: [Omitted]?
  package let sources: [Source]
  package let undelivered: [Undelivered]
  package let errors: [String]

  init(_ report: LeakReport, listingLeaks: Bool = true) {
    clean = report.isClean
    verdict = report.verdict.rawValue
    title = report.title
    leaks = (listingLeaks ? report.findings : []).map {
      Leak(
        canary: CanaryRef($0.canary), encoding: $0.encoding, source: $0.source, line: $0.line,
        column: $0.column, offset: $0.offset, excerpt: $0.excerpt)
    }
    let omitted = report.omittedFindings.map {
      Omitted(canary: CanaryRef($0.canary), source: $0.source, count: $0.count)
    }
    leakCount = omitted.isEmpty ? nil : report.totalFindingCount
    omittedLeaks = omitted.isEmpty ? nil : omitted
    sources = report.sources.map { source in
      switch source.status {
      case .heard: Source(name: source.name, bytes: source.bytes, status: "heard", reason: nil)
      case .silent(let reason):
        Source(name: source.name, bytes: source.bytes, status: "silent", reason: reason)
      case .failed(let reason):
        Source(name: source.name, bytes: source.bytes, status: "failed", reason: reason)
      }
    }
    undelivered = report.undelivered.map { delivery in
      guard case .undelivered(let reason) = delivery.status else { fatalError("filtered above") }
      return Undelivered(canary: CanaryRef(delivery.canary), reason: reason)
    }
    errors = report.errors
  }
}
