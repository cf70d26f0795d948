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
  let budget: ExpansionBudget
  private(set) var findings: [LeakFinding] = []
  private(set) var scannedBytes = 0
  /// The findings counted past ``ScanOptions/maxFindingsPerCanary`` and not kept, per source.
  private(set) var omitted: [OmittedFindings] = []
  private(set) var failures: [String] = []
  /// The file being scanned, for formats read by random access (SQLite) at the top level.
  var topLevelFile: (any RandomAccessBytes)?
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

  func record(_ error: any Error, at name: String) {
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
      try ZipReader(reader: reader, budget: budget, name: name).read(scanner: self, depth: depth + 1)
      try drainRest(reader)
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

  /// Expands one archive member; a failure inside it is recorded unless it stops everything.
  func expandMember(_ source: any ByteSource, name: String, depth: Int) throws {
    do {
      try expand(ByteReader(source), name: name, depth: depth)
    } catch let error as ContainerError where !error.stopsEverything {
      record(error, at: name)
    }
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
      case .text(let bytes): stream.feed(bytes)
      case .data(let bytes):
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
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    var prefix = [UInt8](repeating: 0, count: ContainerKind.prefixLength)
    let peeked = prefix.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    guard peeked > 0,
      prefix.withUnsafeBufferPointer({
        ContainerKind.detect(UnsafeBufferPointer(rebasing: $0[0..<peeked]))
      }) != .plain
    else { return nil }
    let reader = ByteReader(FileDescriptorSource(fd: fd, path: name))
    let containers = ContainerScanner(
      scanner: self, limits: options.containerLimits, inputBytes: Int(info.st_size))
    containers.topLevelFile = FileBytes(fd: fd, size: Int(info.st_size))
    containers.scan(reader, name: name)
    return (containers.findings, containers.scannedSource(name: name))
  }
}

extension LeakScanner {
  /// Scans a stream read chunk by chunk (`read` returns an empty chunk at its end, and throws
  /// when it cannot read), such as standard input, through its containers, named `name`; plain
  /// text is scanned as it comes. The ratio limit counts the bytes read so far as the stored size.
  package func scanStream(name: String, read: @escaping () throws -> Data) -> (
    findings: [LeakFinding], source: ScannedSource
  ) {
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
      return (containers.findings, containers.scannedSource(name: name))
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
    return (
      found,
      ScannedSource(
        name: name, bytes: stream.bytesScanned, status: status, omittedFindings: stream.omittedFindings)
    )
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
