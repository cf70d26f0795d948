import Foundation

/// Fuzz target `scanner`: derives one to three canaries and a haystack from the bytes and checks
/// `LeakScanner` against a naive byte search of every literal it claims to search.
///
/// Layout: byte 0 picks the canary count, the chunk size and whether case-insensitive and fragment
/// matching are on; each canary is a length byte and that many bytes mapped into a small
/// alphabet. In the haystack a byte below 0x08 followed by an index byte plants that pattern;
/// every other byte is copied. Checks: findings do not depend on chunking; every exact finding is
/// a real occurrence of its literal (hex digits and base32 letters in any case, as the matcher
/// always reads them); every occurrence the oracle finds that overlaps no other
/// occurrence of the same canary is reported; excerpts stay within their radius.
func fuzzScanner(_ bytes: [UInt8]) {
  var reader = FuzzByteReader(bytes)
  let control = reader.next()
  let canaryCount = Int(control % 3) + 1
  let exactOnly = control & 0x04 == 0
  let chunkSize = 64 + Int(reader.next()) * 3
  var canaries: [Canary] = []
  for index in 0..<canaryCount {
    let length = 12 + Int(reader.next() % 20)
    var value = ""
    for _ in 0..<length {
      value.unicodeScalars.append(scannerFuzzAlphabet[Int(reader.next()) % scannerFuzzAlphabet.count])
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
  let chunked = stream.finish()
  fuzzCheck(chunked == whole, "chunked findings differ: \(chunked) vs \(whole)")

  for finding in whole {
    let match = patterns.first {
      $0.canary == finding.canary && $0.chain == finding.encodings
        && $0.isSpelled(in: haystack, at: finding.offset)
    }
    if exactOnly {
      fuzzCheck(match != nil, "spurious finding \(finding)")
    }
    let matchLength = match?.bytes.count ?? finding.canary.bytes.count * 4
    fuzzCheck(
      finding.excerpt.unicodeScalars.count <= 4 * (matchLength + 2 * options.excerptRadius),
      "excerpt longer than its radius allows")
  }
  guard exactOnly else { return }
  var oracle: [(canary: Canary, encoding: String, range: Range<Int>)] = []
  for pattern in patterns where pattern.bytes.count <= haystack.count {
    for start in 0...(haystack.count - pattern.bytes.count)
    where pattern.isSpelled(in: haystack, at: start) {
      oracle.append((pattern.canary, pattern.chain.description, start..<start + pattern.bytes.count))
    }
  }
  for occurrence in oracle {
    let isolated = !oracle.contains {
      $0.canary == occurrence.canary && $0.range != occurrence.range
        && $0.range.overlaps(occurrence.range)
    }
    // Past `maxFindingsPerCanary` findings of a canary, the scanner counts the rest, unreported.
    let capped = whole.filter { $0.canary == occurrence.canary }.count >= options.maxFindingsPerCanary
    guard isolated, !capped else { continue }
    let found = whole.contains {
      $0.canary == occurrence.canary && $0.encoding == occurrence.encoding
        && $0.offset == occurrence.range.lowerBound
    }
    fuzzCheck(found, "oracle found \(occurrence.encoding) at \(occurrence.range), scanner did not")
  }
}

/// Characters canary values are built from: letters, digits, characters that every text encoding
/// changes, and a non-ASCII letter.
let scannerFuzzAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789/+<&\"%= é".unicodeScalars)

/// Reads bytes from a fuzz input, answering 0 once it runs out.
struct FuzzByteReader {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The next byte, or 0 at the end.
  mutating func next() -> UInt8 { nextIfAny() ?? 0 }

  /// The next byte, or nil at the end.
  mutating func nextIfAny() -> UInt8? {
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return bytes[index]
  }
}
