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
/// ``ScanOptions/minFragment`` bytes are).
public final class LeakScanner: Sendable {
  /// The canaries searched for.
  public let canaries: [Canary]
  /// The options the scanner was built with.
  public let options: ScanOptions
  /// Every literal searched: each canary in each enabled encoding. Case-insensitive and fragment
  /// matches are searched from the `raw` pattern.
  /// Computed on demand from the canaries (the compiled matcher keeps only packed bytes).
  public var patterns: [ScanPattern] {
    canaries.filter { !$0.value.isEmpty }.flatMap {
      PatternEncoder.patterns(for: $0, encodings: options.encodings)
    }
  }
  let matcher: CompiledMatcher
  let chunkSize: Int

  /// Compiles the search for `canaries` with `options`.
  public convenience init(canaries: [Canary], options: ScanOptions = ScanOptions()) {
    self.init(canaries: canaries, options: options, chunkSize: ScanStream.defaultChunkSize)
  }

  /// Compiles with a custom buffer size; tests use small ones to exercise chunk boundaries.
  init(canaries: [Canary], options: ScanOptions, chunkSize: Int) {
    self.canaries = canaries
    self.options = options
    self.chunkSize = chunkSize
    matcher = CompiledMatcher(canaries: canaries, options: options)
  }

  /// A stream that scans one source fed in chunks.
  public func makeStream(source: String) -> ScanStream {
    ScanStream(
      matcher: matcher, canaries: canaries, source: source, excerptRadius: options.excerptRadius,
      chunkSize: chunkSize)
  }

  /// Every finding in `data`, in offset order.
  public func scan(_ data: Data, source: String) -> [LeakFinding] {
    let stream = makeStream(source: source)
    data.withUnsafeBytes { stream.feed($0.bindMemory(to: UInt8.self)) }
    return stream.finish()
  }

  /// Scans a sink's content; a file that cannot be read yields no findings and a `.failed`
  /// source naming the reason.
  public func scan(_ content: SinkContent) -> (findings: [LeakFinding], source: ScannedSource) {
    if let expanded = scanContainer(content) { return expanded }
    switch content.storage {
    case .bytes(let data):
      return (scan(data, source: content.name), ScannedSource(name: content.name, bytes: data.count))
    case .file(let url, let offset):
      do {
        let result = try scanFile(at: url, from: offset, source: content.name)
        return (result.findings, ScannedSource(name: content.name, bytes: result.bytes))
      } catch {
        let reason = (error as? ScanError)?.description ?? "\(error)"
        return ([], ScannedSource(name: content.name, bytes: 0, status: .failed(reason: reason)))
      }
    }
  }

  /// Scans a whole file, streaming it in chunks; throws ``ScanError`` when it cannot be read.
  public func scanFile(at url: URL, source: String) throws -> (findings: [LeakFinding], bytes: Int) {
    try scanFile(at: url, from: 0, source: source)
  }

  /// Scans a file from byte `offset` to its end; offsets, lines and columns in the findings
  /// count from the start of the file, so they point where an editor opening it would.
  public func scanFile(at url: URL, from offset: UInt64, source: String) throws -> (
    findings: [LeakFinding], bytes: Int
  ) {
    let stream = ScanStream(
      matcher: matcher, canaries: canaries, source: source, excerptRadius: options.excerptRadius,
      chunkSize: chunkSize, countsLines: false)
    try FileReader.read(url, from: offset) { fd in
      while try stream.fill({ try FileReader.readSome(fd, into: $0, count: $1, path: url.path) }) > 0 {}
    }
    let bytes = stream.bytesScanned
    var findings = stream.finish()
    if !findings.isEmpty {
      for index in findings.indices { findings[index].offset += Int(offset) }
      try FileReader.numberLines(of: &findings, in: url, from: 0)
    }
    return (findings, bytes)
  }
}
