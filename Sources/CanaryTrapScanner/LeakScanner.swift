import Foundation

/// Searches bytes for every canary of a set in every encoding, compiled once and reused for any
/// number of sources.
///
/// ```swift
/// let scanner = LeakScanner(canaries: trap.canaries.canaries)
/// let findings = scanner.scan(logData, source: "app.log")
/// ```
/// Matching works on bytes (UTF-8), never on `Character`s, so invalid UTF-8, NUL bytes and
/// combining marks cannot hide a canary. gzip, zlib, zip, tar, SQLite and binary plist containers
/// are opened (see
/// ``ContainerLimits``). Known limits: keyed hashes (HMAC with an unknown key), encryption, other
/// compression, and values a sink splits apart are not found (fragments of at least
/// ``ScanOptions/minFragment`` bytes are, and so is a value a wrapping logger cut once across
/// two lines).
package final class LeakScanner: Sendable {
  /// The canaries searched for.
  package let canaries: [Canary]
  /// The options the scanner was built with.
  package let options: ScanOptions
  /// Every literal searched: each canary in each enabled encoding, composed chains, and anchors
  /// (``ScanPattern/isAnchor``). Case-insensitive and fragment matches are searched from the
  /// `raw` pattern.
  /// Computed on demand from the canaries (the compiled matcher keeps only packed bytes).
  package var patterns: [ScanPattern] {
    var patterns: [ScanPattern] = []
    forEachPattern { patterns.append($0) }
    return patterns
  }

  /// Calls `body` with each of ``patterns`` in turn, building one canary's at a time (the
  /// literals of 100,000 canaries take gigabytes at once).
  package func forEachPattern(_ body: (ScanPattern) throws -> Void) rethrows {
    try Self.forEachPattern(of: canaries, options: options, body)
  }

  /// Calls `body` with each literal a scanner of `canaries` with `options` searches for, without
  /// compiling one.
  package static func forEachPattern(
    of canaries: [Canary], options: ScanOptions, _ body: (ScanPattern) throws -> Void
  ) rethrows {
    for canary in canaries where !canary.value.isEmpty {
      for pattern in PatternEncoder.patterns(for: canary, encodings: options.encodings) { try body(pattern) }
    }
  }
  let matcher: CompiledMatcher
  let chunkSize: Int

  /// Compiles the search for `canaries` with `options`.
  package convenience init(canaries: [Canary], options: ScanOptions = ScanOptions()) {
    self.init(canaries: canaries, options: options, chunkSize: ScanStream.defaultChunkSize)
  }

  /// Compiles with a custom buffer size; tests use small ones to exercise chunk boundaries, and a
  /// small `entryBudget` to compile a few canaries as a large set is.
  init(canaries: [Canary], options: ScanOptions, chunkSize: Int, entryBudget: Int = IndexLayout.entryBudget) {
    self.canaries = canaries
    self.options = options
    self.chunkSize = chunkSize
    matcher = CompiledMatcher(canaries: canaries, options: options, entryBudget: entryBudget)
  }

  /// A stream that scans one source fed in chunks.
  package func makeStream(source: String) -> ScanStream {
    ScanStream(matcher: matcher, canaries: canaries, source: source, options: options, chunkSize: chunkSize)
  }

  /// Every finding in `data`, in offset order (at most ``ScanOptions/maxFindingsPerCanary`` per
  /// canary).
  package func scan(_ data: Data, source: String) -> [LeakFinding] {
    scanCounted(data, source: source).findings
  }

  /// Scans a sink's content; a file that cannot be read yields no findings and a `.failed`
  /// source naming the reason. The source counts the findings the cap left out.
  package func scan(_ content: SinkContent) -> (findings: [LeakFinding], source: ScannedSource) {
    if let expanded = scanContainer(content) { return expanded }
    switch content.storage {
    case .bytes(let data):
      let result = scanCounted(data, source: content.name)
      var source = ScannedSource(name: content.name, bytes: data.count, omittedFindings: result.omitted)
      if let reason = result.decodingCutShort {
        source.status = .failed(reason: "\(content.name): \(reason)")
      }
      return (result.findings, source)
    case .file(let url, let offset):
      do {
        let result = try FileReader.read(url) { fd in
          try scanDescriptor(fd, from: offset, source: content.name, path: url.path, limit: .max)
        }
        var source = ScannedSource(name: content.name, bytes: result.bytes, omittedFindings: result.omitted)
        if let reason = result.decodingCutShort {
          source.status = .failed(reason: "\(content.name): \(reason)")
        }
        return (result.findings, source)
      } catch {
        let reason = (error as? ScanError)?.description ?? "\(error)"
        return ([], ScannedSource(name: content.name, bytes: 0, status: .failed(reason: reason)))
      }
    }
  }

  /// Scans a whole file, streaming it in chunks; throws ``ScanError`` when it cannot be read.
  package func scanFile(at url: URL, source: String) throws -> (
    findings: [LeakFinding], bytes: Int, omitted: [OmittedFindings]
  ) {
    try scanFile(at: url, from: 0, source: source)
  }

  /// Scans a file from byte `offset` to its end, opening it once; offsets, lines and columns in
  /// the findings count from the start of the file, so they point where an editor opening it would
  /// (the lines before `offset` are counted from the same descriptor first).
  package func scanFile(at url: URL, from offset: UInt64, source: String) throws -> (
    findings: [LeakFinding], bytes: Int, omitted: [OmittedFindings]
  ) {
    try FileReader.read(url) { fd in try scanDescriptor(fd, from: offset, source: source, path: url.path) }
  }

  /// Scans an open descriptor to its end, after counting the lines of its first `offset` bytes;
  /// it never seeks, so pipes and FIFOs work.
  package func scanDescriptor(_ fd: Int32, from offset: UInt64 = 0, source: String, path: String) throws -> (
    findings: [LeakFinding], bytes: Int, omitted: [OmittedFindings]
  ) {
    let result = try scanDescriptor(fd, from: offset, source: source, path: path, limit: .max)
    return (result.findings, result.bytes, result.omitted)
  }

  /// Scans at most `limit` bytes of an open descriptor (after counting the lines of its first
  /// `offset` bytes); `cut` says that more bytes followed, unread (an endless device such as
  /// `/dev/zero`, or a file larger than the limit), and `decodingCutShort` why decoding what the
  /// text shows stopped short (the source is then inconclusive).
  package func scanDescriptor(_ fd: Int32, from offset: UInt64 = 0, source: String, path: String, limit: Int)
    throws -> (
      findings: [LeakFinding], bytes: Int, omitted: [OmittedFindings], cut: Bool, decodingCutShort: String?
    )
  {
    let start = try FileReader.countLines(of: fd, upTo: Int(offset), path: path)
    let stream = ScanStream(
      matcher: matcher, canaries: canaries, source: source, options: options, chunkSize: chunkSize,
      startingAt: start)
    var remaining = max(0, limit)
    while remaining > 0 {
      let got = try stream.fill {
        try FileReader.readSome(fd, into: $0, count: min($1, remaining), path: path)
      }
      guard got > 0 else { break }
      remaining -= got
    }
    var cut = false
    if remaining == 0 {
      var probe: UInt8 = 0
      cut = try FileReader.readSome(fd, into: &probe, count: 1, path: path) > 0
    }
    let bytes = stream.bytesScanned
    let findings = stream.finish()
    return (findings, bytes, stream.omittedFindings, cut, stream.decodingCutShort)
  }

  private func scanCounted(_ data: Data, source: String) -> (
    findings: [LeakFinding], omitted: [OmittedFindings], decodingCutShort: String?
  ) {
    let stream = makeStream(source: source)
    data.withUnsafeBytes { stream.feed($0.bindMemory(to: UInt8.self)) }
    let findings = stream.finish()
    return (findings, stream.omittedFindings, stream.decodingCutShort)
  }
}
