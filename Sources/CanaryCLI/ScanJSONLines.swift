import CanaryTrap
import Foundation

/// `canary scan -f jsonl`: one JSON object a line. Each finding is written as soon as its source
/// is scanned (`"type":"leak"`, the fields of the JSON report's `leaks`), then one line a source
/// (`"type":"source"`), then one summary line (`"type":"summary"`) with the verdict and exact
/// counts, so a shard's report is complete only when its summary line is there.
enum ScanJSONLines {
  /// The `--format` word.
  static let formatName = "jsonl"

  /// A canary as the JSON report names it: its value, location and shape.
  typealias CanaryRef = JSONReportDocument.CanaryRef

  /// One finding.
  struct Leak: Codable, Equatable {
    var type = "leak"
    var canary: CanaryRef
    var encoding: String
    var source: String
    var line: Int
    var column: Int
    var offset: Int
    var excerpt: String

    init(_ finding: LeakFinding) {
      canary = CanaryRef(finding.canary)
      encoding = finding.encoding
      source = finding.source
      line = finding.line
      column = finding.column
      offset = finding.offset
      excerpt = finding.excerpt
    }
  }

  /// One scanned source, after its findings.
  struct Source: Codable, Equatable {
    var type = "source"
    var name: String
    var bytes: Int
    var status: String
    var reason: String?
    /// Findings in this source, listed or only counted.
    var leakCount: Int
    /// Findings counted beyond `--max-findings` and not listed.
    var omittedLeaks: Int

    init(_ source: ScannedSource, listed: Int) {
      name = source.name
      bytes = source.bytes
      switch source.status {
      case .heard: status = "heard"
      case .silent(let why):
        status = "silent"
        reason = why
      case .failed(let why):
        status = "failed"
        reason = why
      }
      omittedLeaks = source.omittedFindings.reduce(0) { $0 + $1.count }
      leakCount = listed + omittedLeaks
    }
  }

  /// The last line: the verdict and the exact counts.
  struct Summary: Codable, Equatable {
    var type = "summary"
    var title: String
    var verdict: String
    var clean: Bool
    var leakCount: Int
    var listedLeaks: Int
    var sourceCount: Int
    var bytes: Int
    var errors: [String]
  }

  /// `value` as one line of compact JSON with sorted keys.
  static func line(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(value)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  /// The lines of `findings`, joined.
  static func lines(_ findings: [LeakFinding]) throws -> Data {
    var data = Data()
    for finding in findings { data.append(try line(Leak(finding))) }
    return data
  }
}
