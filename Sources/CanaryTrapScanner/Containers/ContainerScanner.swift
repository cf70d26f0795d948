import CanaryTrapPrimitives
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans one source that may be a container: detects each layer by its first bytes, decodes it
/// as a stream and scans every plain member it reaches, naming findings by their path through
/// the containers (`logs.zip!/net/app.log.gz!`).
///
/// A member that is cut short, corrupt or unsupported is recorded and the archive goes on with
/// its next member when its framing allows; passing a ``ContainerLimits`` limit stops the whole
/// source. Any failure makes the source ``ScannedSource/Status/failed(reason:)``, never clean.
final class ContainerScanner {
  private let scanner: LeakScanner
  fileprivate var scannerForRaw: LeakScanner { scanner }
  let budget: ExpansionBudget
  private(set) var findings: [LeakFinding] = []
  private(set) var scannedBytes = 0
  /// The findings counted past ``ScanOptions/maxFindingsPerCanary`` and not kept, per source.
  private(set) var omitted: [OmittedFindings] = []
  private(set) var failures: [String] = []
  /// The file being scanned, for formats read by random access (SQLite) at the top level.
  var topLevelFile: (any RandomAccessBytes)?
  /// The reader of the source's own bytes, when it is a file read by offset too.
  var topLevelReader: ByteReader?
  /// The local headers of a top-level zip that the stream read reached (at most maxMembers).
  private var zipLocalHeaders: Set<Int> = []
  /// The largest database (inside another container) or property list read into memory (64 MiB).
  static let maxDatabaseInMemory = 64 << 20
  private var droppedFailures = 0
  static let maxFailures = 20

  init(scanner: LeakScanner, limits: ContainerLimits, inputBytes: Int) {
    self.scanner = scanner
    budget = ExpansionBudget(limits: limits, inputBytes: inputBytes)
  }

  var limits: ContainerLimits { budget.limits }

  /// Scans `reader` named `name`; records every failure rather than throwing.
  func scan(_ reader: ByteReader, name: String) {
    do {
      try expand(reader, name: name, depth: 0)
    } catch {
      record(error, at: name)
    }
  }

  /// The source as the report lists it.
  func scannedSource(name: String) -> ScannedSource {
    guard !failures.isEmpty else {
      return ScannedSource(name: name, bytes: scannedBytes, omittedFindings: omitted)
    }
    var reason = failures.joined(separator: "; ")
    if droppedFailures > 0 { reason += "; and \(droppedFailures) more failures" }
    return ScannedSource(
      name: name, bytes: scannedBytes, status: .failed(reason: reason), omittedFindings: omitted)
  }

  /// Whether every failure recorded was a ``ContainerLimits`` limit (the scan was cut short, the
  /// bytes were not found bad): the source is then inconclusive rather than unreadable.
  var stoppedOnlyByLimits: Bool { !failures.isEmpty && onlyLimits }
  private var onlyLimits = true

  func record(_ error: any Error, at name: String) {
    if (error as? ContainerError)?.stopsEverything != true { onlyLimits = false }
    let text = "\(name): \(error)"
    if failures.contains(text) { return }
    if failures.count < Self.maxFailures { failures.append(text) } else { droppedFailures += 1 }
  }

  /// Scans the stream in `reader`, which may itself be a container.
  func expand(_ reader: ByteReader, name: String, depth: Int) throws {
    reader.prefetch(ContainerKind.prefixLength)
    let kind = ContainerKind.detect(
      UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available))
    if kind == .plain {
      try scanPlain(reader, name: name)
      return
    }
    if case .unopened(let format) = kind {
      // Its raw bytes may still show a value stored uncompressed (a literal run): scan them, then
      // fail the source, since the decompressed content was never looked at.
      try scanPlain(reader, name: name)
      throw format.error
    }
    // A container's own bytes are input too: what is not interpreted (names, comments, pax
    // records, what follows its end) is still searched. A top-level database is read by page.
    let topLevelDatabase = (kind == .sqlite || kind == .sqliteWAL) && depth == 0 && reader.offset == 0
    let raw = topLevelDatabase ? nil : RawBytesSearch(self, reader: reader, name: name)
    defer { raw?.finish(reader) }
    guard depth < budget.limits.maxDepth else {
      throw ContainerError.overLimit(
        "containers nest more than \(budget.limits.maxDepth) deep (ContainerLimits.maxDepth)")
    }
    switch kind {
    case .gzip: try expand(ByteReader(GzipSource(reader, budget: budget)), name: name + "!", depth: depth + 1)
    case .zlib: try expand(ByteReader(ZlibSource(reader, budget: budget)), name: name + "!", depth: depth + 1)
    case .appleLZ4:
      try expand(ByteReader(AppleLZ4Source(reader, budget: budget)), name: name + "!", depth: depth + 1)
    case .lzfse:
      #if canImport(Compression)
        try expand(ByteReader(LZFSESource(reader, budget: budget)), name: name + "!", depth: depth + 1)
      #else
        throw UnopenedFormat.lzfse.error
      #endif
    case .bzip2:
      try expand(ByteReader(Bzip2Source(reader, budget: budget)), name: name + "!", depth: depth + 1)
    case .tar:
      try TarReader(reader: reader, budget: budget, name: name).read(scanner: self, depth: depth + 1)
      try drainRest(reader)
    case .zip:
      do {
        // A zip appended to a zip (`cat a.zip b.zip`) is read as one more archive.
        repeat {
          try ZipReader(reader: reader, budget: budget, name: name).read(scanner: self, depth: depth + 1)
        } while try ZipReader.localHeaderFollows(reader)
        try drainRest(reader)
      } catch let error as ContainerError where !error.stopsEverything && topLevelZip(reader) != nil {
        record(error, at: name)  // the central directory may still reach the rest
      }
      if let file = topLevelZip(reader) {
        try ZipDirectorySweep(file: file, name: name).read(
          scanner: self, skipping: zipLocalHeaders, depth: depth + 1)
      }
    case .sqlite, .sqliteWAL:
      let bytes: any RandomAccessBytes
      if depth == 0, reader.offset == 0, let topLevelFile {
        bytes = topLevelFile
      } else {
        bytes = try InMemoryBytes(bytes: readWhole(reader))
      }
      try scanDatabase(bytes, wal: kind == .sqliteWAL, name: name)
    case .binaryPropertyList:
      try scanPropertyList(BinaryPropertyListReader(readWhole(reader)), name: name, depth: depth + 1)
    case .plain, .unopened: break
    }
  }

  /// The file of a zip at the top level of the source (read by offset), or nil.
  private func topLevelZip(_ reader: ByteReader) -> (any RandomAccessBytes)? {
    reader === topLevelReader ? topLevelFile : nil
  }

  /// Notes the offset of a local header the stream read reached, for a zip at the top level.
  func readLocalHeader(at offset: Int, of reader: ByteReader) {
    if reader === topLevelReader, zipLocalHeaders.count < budget.limits.maxMembers {
      zipLocalHeaders.insert(offset)
    }
  }

  /// Scans a top-level file that is not a container by its first bytes but ends with a zip's end
  /// record (a zip behind a stub): its bytes as text, then the members its central directory
  /// lists. A canary found in a member is not reported again from the plain bytes.
  func scanPlainWithZipDirectory(_ reader: ByteReader, file: any RandomAccessBytes, name: String) {
    let stream = scanner.makeStream(source: name)
    do {
      if reader.available > 0 {
        stream.feed(UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available))
        reader.position = reader.end
      }
      while try stream.fill({ try reader.read(into: $0, count: $1) }) > 0 {}
    } catch {
      record(error, at: name)
    }
    scannedBytes += stream.bytesScanned
    let start = findings.count
    do {
      try ZipDirectorySweep(file: file, name: name).read(scanner: self, skipping: [], depth: 1)
    } catch {
      record(error, at: name)
    }
    addRaw(stream, since: start)
  }

  /// Expands one archive member; a failure inside it is recorded unless it stops everything.
  func expandMember(_ source: any ByteSource, name: String, depth: Int) throws {
    do {
      try expand(ByteReader(source), name: name, depth: depth)
    } catch let error as ContainerError where !error.stopsEverything {
      record(error, at: name)
    }
  }

  /// Adds the findings of a container's raw-bytes search (see ``RawBytesSearch``).
  func addRaw(_ stream: ScanStream, since start: Int) {
    let inside = Set(findings[start...].map(\.canary))
    findings += stream.finish().filter { !inside.contains($0.canary) }
    omitted += stream.omittedFindings.filter { !inside.contains($0.canary) }
  }

  /// The name of archive member `path` of container `parent`.
  static func memberName(_ parent: String, _ path: String) -> String {
    var clean = path
    while clean.hasPrefix("./") { clean.removeFirst(2) }
    while clean.hasPrefix("/") { clean.removeFirst() }
    if clean.utf8.count > 1024 { clean = String(clean.prefix(1024)) + "…" }
    clean = String(
      String.UnicodeScalarView(clean.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    return parent.hasSuffix("!") ? parent + "/" + clean : parent + "!/" + clean
  }

  /// Reads what follows an archive's end (tar record padding), so the stream it sits in is read
  /// to its own end and checked (a gzip's CRC-32).
  private func drainRest(_ reader: ByteReader) throws {
    while try reader.skip(1 << 20) > 0 {}
  }

  private func readWhole(_ reader: ByteReader) throws -> [UInt8] {
    var bytes: [UInt8] = []
    while true {
      if reader.available == 0, !(try reader.fill()) { return bytes }
      bytes += UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available)
      reader.position = reader.end
      if bytes.count > Self.maxDatabaseInMemory {
        throw ContainerError.unsupported(
          "a database or property list larger than \(Self.maxDatabaseInMemory) bytes inside another container"
        )
      }
    }
  }

  /// Scans an SQLite database (a source per table, one line per row, and what no row holds) or a
  /// WAL file.
  private func scanDatabase(_ bytes: any RandomAccessBytes, wal: Bool, name: String) throws {
    let scan = SQLiteScan(scanner: scanner, name: name)
    defer {
      scannedBytes += scan.bytesScanned
      findings += scan.findings
      omitted += scan.omitted
    }
    try wal ? scan.scanWAL(bytes) : scan.scanDatabase(bytes)
  }

  /// Scans a binary property list: one line per object (line N is object N-1); a data object
  /// that is itself a container is also opened, named `list!/#N`.
  private func scanPropertyList(_ list: BinaryPropertyListReader, name: String, depth: Int) throws {
    let stream = scanner.makeStream(source: name + "!")
    defer {
      scannedBytes += stream.bytesScanned
      findings += stream.finish()
      omitted += stream.omittedFindings
      if let reason = stream.decodingCutShort {
        record(CompressedPayload.LimitReached(description: reason), at: name)
      }
    }
    let newline: [UInt8] = [0x0A]
    try list.read { index, object in
      switch object {
      case .text(let bytes):
        // Every object counts against the expansion limits: an offset table may name one large
        // object many times over.
        try budget.expand(bytes.count)
        stream.feed(bytes)
      case .data(let bytes):
        try budget.expand(bytes.count)
        stream.feed(bytes)
        let kind = bytes.withUnsafeBufferPointer {
          ContainerKind.detect(UnsafeBufferPointer(rebasing: $0.prefix(ContainerKind.prefixLength)))
        }
        if kind != .plain {
          try expandMember(DataSource(Data(bytes)), name: name + "!/#\(index)", depth: depth)
        }
      case .other: break
      }
      stream.feed(newline)
    }
  }

  private func scanPlain(_ reader: ByteReader, name: String) throws {
    let stream = scanner.makeStream(source: name)
    defer {
      scannedBytes += stream.bytesScanned
      findings += stream.finish()
      omitted += stream.omittedFindings
      if let reason = stream.decodingCutShort {
        record(CompressedPayload.LimitReached(description: reason), at: name)
      }
    }
    if reader.available > 0 {
      stream.feed(UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available))
      reader.position = reader.end
    }
    while try stream.fill({ try reader.read(into: $0, count: $1) }) > 0 {}
  }
}

extension LeakScanner {
  /// Scans `content` through its containers, or returns `nil` when it is not a container (or a
  /// file that is not regular, or cannot be opened: the plain scan reports that).
  ///
  /// A file region that starts past 0 (a file that grew during a scope) is scanned whole when the
  /// file is a container: its new bytes cannot be decoded without the start.
  func scanContainer(_ content: SinkContent) -> (
    findings: [LeakFinding], source: ScannedSource
  )? {
    switch content.storage {
    case .bytes(let data):
      let reader = ByteReader(DataSource(data))
      guard (try? reader.ensure(ContainerKind.prefixLength)) != nil,
        ContainerKind.detect(UnsafeBufferPointer(start: reader.buffer, count: reader.available)) != .plain
      else { return nil }
      let containers = ContainerScanner(
        scanner: self, limits: options.containerLimits, inputBytes: data.count)
      containers.topLevelFile = InMemoryBytes(bytes: Array(data))
      containers.scan(reader, name: content.name)
      return (containers.findings, containers.scannedSource(name: content.name))
    case .file(let url, _):
      // Never open what is not a regular file here: opening and closing a FIFO would lose what a
      // writer put in it before the plain scan opens it.
      var pathInfo = stat()
      guard stat(url.path, &pathInfo) == 0, (pathInfo.st_mode & S_IFMT) == S_IFREG else { return nil }
      let fd = open(url.path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      return scanContainer(descriptor: fd, name: content.name)
    }
  }

  /// Scans the open regular file `fd` through its containers, or returns `nil` (with the file's
  /// offset back at 0) when it is not a regular file or not a container, so a caller that opened
  /// an input once scans it plainly from the same descriptor.
  package func scanContainer(descriptor fd: Int32, name: String) -> (
    findings: [LeakFinding], source: ScannedSource
  )? {
    scanContainer(descriptor: fd, name: name, maxBytes: .max).map { ($0.findings, $0.source) }
  }

  /// Scans the open regular file `fd` through its containers reading at most `maxBytes` of it
  /// (`--max-bytes`; a database is read that far, rounded down to 64 KiB), or returns `nil` as
  /// ``scanContainer(descriptor:name:)`` does.
  package func scanContainer(descriptor fd: Int32, name: String, maxBytes: Int) -> ContainerScanOutcome? {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    var prefix = [UInt8](repeating: 0, count: ContainerKind.prefixLength)
    let peeked = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard peeked > 0 else { return nil }
    let size = Int(info.st_size)
    let plain =
      prefix.withUnsafeBufferPointer { ContainerKind.detect(UnsafeBufferPointer(rebasing: $0[0..<peeked])) }
      == .plain
    // A file that is text in front and a zip behind (a self-extractor) is read both ways.
    if plain {
      guard size <= maxBytes, ZipDirectorySweep.locate(FileBytes(fd: fd, size: size)) != nil else {
        return nil
      }
      let containers = ContainerScanner(scanner: self, limits: options.containerLimits, inputBytes: size)
      containers.scanPlainWithZipDirectory(
        ByteReader(FileDescriptorSource(fd: fd, path: name)), file: FileBytes(fd: fd, size: size), name: name)
      return ContainerScanOutcome(
        findings: containers.findings, source: containers.scannedSource(name: name), cut: false,
        stoppedByLimit: containers.stoppedOnlyByLimits)
    }
    let cut = size > maxBytes
    let reader = ByteReader(FileDescriptorSource(fd: fd, path: name, limit: maxBytes))
    let containers = ContainerScanner(scanner: self, limits: options.containerLimits, inputBytes: size)
    containers.topLevelFile = FileBytes(fd: fd, size: cut ? maxBytes - maxBytes % (64 << 10) : size)
    containers.topLevelReader = reader
    containers.scan(reader, name: name)
    return ContainerScanOutcome(
      findings: containers.findings, source: containers.scannedSource(name: name), cut: cut,
      stoppedByLimit: containers.stoppedOnlyByLimits)
  }
}

extension LeakScanner {
  /// Scans a stream read chunk by chunk (`read` returns an empty chunk at its end, and throws
  /// when it cannot read), such as standard input, through its containers, named `name`; plain
  /// text is scanned as it comes. The ratio limit counts the bytes read so far as the stored size.
  package func scanStream(name: String, read: @escaping () throws -> Data) -> ContainerScanOutcome {
    let source = ChunkSource(read)
    let reader = ByteReader(source)
    reader.prefetch(ContainerKind.prefixLength)
    let kind = ContainerKind.detect(
      UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available))
    guard kind == .plain else {
      let containers = ContainerScanner(scanner: self, limits: options.containerLimits, inputBytes: 0)
      source.budget = containers.budget
      containers.budget.inputBytes = source.bytesRead
      containers.scan(reader, name: name)
      return ContainerScanOutcome(
        findings: containers.findings, source: containers.scannedSource(name: name), cut: false,
        stoppedByLimit: containers.stoppedOnlyByLimits)
    }
    let stream = makeStream(source: name)
    var status = ScannedSource.Status.heard
    do {
      if reader.available > 0 {
        stream.feed(UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available))
        reader.position = reader.end
      }
      while try stream.fill({ try reader.read(into: $0, count: $1) }) > 0 {}
    } catch {
      status = .failed(reason: "\(error)")
    }
    let found = stream.finish()
    if let reason = stream.decodingCutShort { status = .failed(reason: "\(name): \(reason)") }
    return ContainerScanOutcome(
      findings: found,
      source: ScannedSource(
        name: name, bytes: stream.bytesScanned, status: status, omittedFindings: stream.omittedFindings),
      cut: false, stoppedByLimit: false)
  }
}

/// What scanning one file through its containers found.
package struct ContainerScanOutcome {
  package var findings: [LeakFinding]
  package var source: ScannedSource
  /// The file held more than the caller's `maxBytes` and was read only that far.
  package var cut: Bool
  /// Every failure was a ``ContainerLimits`` limit: the scan was cut short, so the source is
  /// inconclusive (not unreadable).
  package var stoppedByLimit: Bool
}

/// The search of a container's own bytes as they are read: headers, member names, comments, pax
/// records, gzip FNAME and FCOMMENT, and anything after the container's end. Its findings are
/// named by the container itself (`logs.zip`, where a member's are `logs.zip!/app.log`). A canary
/// found inside the container (a stored member) is not reported again from the raw bytes, so one
/// leak is counted once, at its most precise place. These bytes are not added to the source's
/// scanned bytes, which count content.
private final class RawBytesSearch {
  private let containers: ContainerScanner
  private let stream: ScanStream
  private let start: Int

  init(_ containers: ContainerScanner, reader: ByteReader, name: String) {
    self.containers = containers
    start = containers.findings.count
    let stream = containers.scannerForRaw.makeStream(source: name)
    self.stream = stream
    stream.feed(UnsafeBufferPointer(start: reader.buffer + reader.position, count: reader.available))
    reader.observer = { stream.feed($0) }
  }

  /// Reads what is left of the container's bytes (after a failure, the rest is still searched;
  /// a source that throws again stops it), then adds the findings.
  func finish(_ reader: ByteReader) {
    while ((try? reader.skip(1 << 20)) ?? 0) > 0 {}
    reader.observer = nil
    containers.addRaw(stream, since: start)
  }
}

/// Chunks from a closure (standard input), counted into a budget's stored size as they arrive.
final class ChunkSource: ByteSource {
  private let next: () throws -> Data
  private var pending = Data()
  private(set) var bytesRead = 0
  var budget: ExpansionBudget?

  init(_ next: @escaping () throws -> Data) { self.next = next }

  func read(into pointer: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
    if pending.isEmpty {
      pending = try next()
      bytesRead += pending.count
      budget?.inputBytes = bytesRead
      if pending.isEmpty { return 0 }
    }
    let taken = min(count, pending.count)
    pending.withUnsafeBytes { raw in
      pointer.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: taken)
    }
    pending = pending.count == taken ? Data() : Data(pending.dropFirst(taken))
    return taken
  }
}

/// An open file read by offset (`pread`); it does not own the descriptor.
struct FileBytes: RandomAccessBytes {
  let fd: Int32
  let size: Int

  func read(at offset: Int, count: Int, into pointer: UnsafeMutablePointer<UInt8>) throws {
    guard offset >= 0, count >= 0, offset + count <= size else {
      throw ContainerError.truncated("a read of \(count) bytes at \(offset) is past the end (\(size) bytes)")
    }
    var done = 0
    while done < count {
      let result = pread(fd, pointer + done, count - done, off_t(offset + done))
      if result > 0 {
        done += result
      } else if result == 0 {
        throw ContainerError.truncated("the file ends at \(offset + done) bytes")
      } else if errno != EINTR {
        throw ContainerError.corrupt("cannot read: \(String(cString: strerror(errno)))")
      }
    }
  }
}
