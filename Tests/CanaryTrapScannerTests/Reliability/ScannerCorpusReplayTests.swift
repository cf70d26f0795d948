import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Replays `Fuzz/Corpus/scanner` through the invariants of the `scanner` fuzz target
/// (`Fuzz/FuzzScanner.swift`), like ``FuzzCorpusReplayTests`` replays the other corpora: findings
/// do not depend on chunking; with exact encodings every finding is a real occurrence of its
/// literal, and every isolated occurrence a naive byte search finds is reported; excerpts stay
/// within their radius. The input layout is the fuzz target's; see there.
@Suite("Fuzz corpus replay: scanner")
struct ScannerCorpusReplayTests {
  /// The fuzz target's alphabet for canary values.
  static let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789/+<&\"%= é".unicodeScalars)

  /// Reads bytes from an input, answering 0 once it runs out.
  struct Reader {
    let bytes: [UInt8]
    var index = 0
    mutating func next() -> UInt8 { nextIfAny() ?? 0 }
    mutating func nextIfAny() -> UInt8? {
      guard index < bytes.count else { return nil }
      defer { index += 1 }
      return bytes[index]
    }
  }

  /// The invariants the input breaks, empty when it holds them all.
  static func violations(of bytes: [UInt8]) -> (problems: [String], findings: Int) {
    var reader = Reader(bytes: bytes)
    let control = reader.next()
    let exactOnly = control & 0x04 == 0
    let chunkSize = 64 + Int(reader.next()) * 3
    var canaries: [Canary] = []
    for index in 0..<(Int(control % 3) + 1) {
      var value = ""
      for _ in 0..<(12 + Int(reader.next() % 20)) {
        value.unicodeScalars.append(alphabet[Int(reader.next()) % alphabet.count])
      }
      canaries.append(Canary(value: value, location: .custom("fuzz[\(index)]")))
    }
    var options = ScanOptions()
    if exactOnly {
      options.minFragment = nil
      options.encodings.remove(.caseInsensitive)
      options.joinsWrappedLines = false
      options.decodesPercentRuns = false
    }
    options.excerptRadius = Int(control >> 4)
    let scanner = LeakScanner(canaries: canaries, options: options, chunkSize: chunkSize)
    let patterns = scanner.patterns.filter { !$0.isAnchor }  // anchors are parts of leaks, not leaks
    var haystack: [UInt8] = []
    while let byte = reader.nextIfAny() {
      if byte < 0x08, !patterns.isEmpty {
        haystack += patterns[Int(reader.next()) % patterns.count].bytes
      } else {
        haystack.append(byte)
      }
    }
    var problems: [String] = []
    let whole = scanner.scan(Data(haystack), source: "fuzz")
    let stream = scanner.makeStream(source: "fuzz")
    var index = 0
    var piece = Int(control) + 1
    while index < haystack.count {
      let end = min(haystack.count, index + piece)
      stream.feed(haystack[index..<end])
      index = end
      piece = piece % 97 + 1
    }
    if stream.finish() != whole { problems.append("chunked findings differ") }
    for finding in whole {
      let match = patterns.first {
        $0.canary == finding.canary && $0.chain == finding.encodings
          && $0.isSpelled(in: haystack, at: finding.offset)
      }
      if exactOnly && match == nil { problems.append("spurious finding \(finding)") }
      let length = match?.bytes.count ?? finding.canary.bytes.count * 4
      if finding.excerpt.unicodeScalars.count > 4 * (length + 2 * options.excerptRadius) {
        problems.append("excerpt longer than its radius allows")
      }
    }
    guard exactOnly else { return (problems, whole.count) }
    var oracle: [(canary: Canary, encoding: String, range: Range<Int>)] = []
    for pattern in patterns where pattern.bytes.count <= haystack.count {
      for start in 0...(haystack.count - pattern.bytes.count)
      where pattern.isSpelled(in: haystack, at: start) {
        oracle.append((pattern.canary, pattern.chain.description, start..<start + pattern.bytes.count))
      }
    }
    for occurrence in oracle {
      let isolated = !oracle.contains {
        $0.canary == occurrence.canary && $0.range != occurrence.range && $0.range.overlaps(occurrence.range)
      }
      // Past `maxFindingsPerCanary` findings of a canary, the scanner counts the rest, unreported.
      let capped = whole.filter { $0.canary == occurrence.canary }.count >= options.maxFindingsPerCanary
      guard isolated, !capped else { continue }
      let found = whole.contains {
        $0.canary == occurrence.canary && $0.encoding == occurrence.encoding
          && $0.offset == occurrence.range.lowerBound
      }
      if !found {
        problems.append("oracle found \(occurrence.encoding) at \(occurrence.range), scanner did not")
      }
    }
    return (problems, whole.count)
  }

  @Test("scanner corpus: every seed holds the fuzz target's invariants, and the seeds plant leaks")
  func scannerCorpus() {
    let inputs = FuzzCorpus.files("scanner")
    if inputs.isEmpty {
      Issue.record("Fuzz/Corpus/scanner is empty or missing: the scanner corpus was not replayed")
      return
    }
    var findings = 0
    for (name, bytes) in inputs {
      let (problems, found) = Self.violations(of: bytes)
      #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
      findings += found
    }
    // The seeds plant patterns (bytes below 0x08), so a replay that finds nothing replays nothing.
    #expect(findings > 0, "no seed produced a finding")
  }
}
