import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans the inputs of one `canary scan`, each read exactly once as a stream.
struct ScanRun {
  /// The findings, unless they were handed on as found instead (`-f jsonl`).
  var findings: [LeakFinding] = []
  /// Every finding listed, kept or handed on.
  var listedFindings = 0
  var sources: [ScannedSource] = []
  /// How many findings each source listed, in the order of ``sources``.
  var listedPerSource: [Int] = []
  /// One-line reasons for inputs that could not be read; each makes the exit status 2.
  var problems: [String] = []
  /// The sources that held more than ``Bounds/maxBytes``: each was scanned only that far, so it
  /// is silent (the run inconclusive).
  var cut: [String] = []
  /// The sources a container limit stopped, with the reason: inconclusive, like ``cut``.
  var limited: [String] = []

  /// How far one input is read.
  struct Bounds {
    /// The most bytes read from one input outside containers (which have their own limits).
    var maxBytes: Int
    /// How long a FIFO input waits for its writer.
    var fifoWait: Duration
  }

  /// Why a source with nothing in it proves nothing.
  static let emptyReason = "0 bytes: nothing was looked at"

  /// Scans every input, keeping every finding; a directory whose files were all empty makes its
  /// sources silent.
  static func scan(
    _ inputs: [ScanInputWalker.Input], with scanner: LeakScanner, bounds: Bounds, io: CommandIO
  ) -> ScanRun {
    scan(inputs, with: scanner, bounds: bounds, io: io, keepingFindings: true, found: { _ in })
  }

  /// Scans every input; a directory whose files were all empty makes its sources silent. Each
  /// source's findings go to `found` as soon as it is scanned, and are kept only when
  /// `keepingFindings` is true, so a run written as it goes holds one source's findings at a time.
  static func scan(
    _ inputs: [ScanInputWalker.Input], with scanner: LeakScanner, bounds: Bounds, io: CommandIO,
    keepingFindings: Bool, found: ([LeakFinding]) throws -> Void
  ) rethrows -> ScanRun {
    var run = ScanRun()
    var directoryBytes: [ScanPath: Int] = [:]
    var directoryOf: [Int: ScanPath] = [:]
    for input in inputs {
      switch input {
      case .standardInput:
        try run.add(
          scanStandardInput(with: scanner, bounds: bounds, io: io), explicit: true, keep: keepingFindings,
          found: found)
      case .file(let path, _, let directory):
        let source = try run.add(
          scanFile(path, with: scanner, bounds: bounds), explicit: directory == nil, keep: keepingFindings,
          found: found)
        if let directory, case .heard = source.status {
          directoryBytes[directory, default: 0] += source.bytes
          directoryOf[run.sources.count - 1] = directory
        }
      case .unreadable(let path, let reason):
        run.problems.append("cannot read \(path.displayName): \(reason)")
        run.sources.append(ScannedSource(name: path.displayName, bytes: 0, status: .failed(reason: reason)))
        run.listedPerSource.append(0)
      }
    }
    for (index, directory) in directoryOf where directoryBytes[directory] == 0 {
      run.sources[index].status = .silent(
        reason: emptyReason + " (every file under \(directory.displayName) is empty)")
    }
    return run
  }

  /// Adds one scanned source; an explicit PATH with 0 bytes is silent (inconclusive).
  @discardableResult
  private mutating func add(
    _ result: Result<(findings: [LeakFinding], source: ScannedSource), ScanInputError>, explicit: Bool,
    keep: Bool, found handOn: ([LeakFinding]) throws -> Void
  ) rethrows
    -> ScannedSource
  {
    switch result {
    case .success(let (found, source0)):
      var source = source0
      if explicit, source.bytes == 0, case .heard = source.status {
        source.status = .silent(reason: Self.emptyReason)
      }
      try handOn(found)
      if keep { findings += found }
      listedFindings += found.count
      sources.append(source)
      listedPerSource.append(found.count)
      if case .silent(let reason) = source.status, reason.hasPrefix(Self.cutPrefix) {
        cut.append(source.name)
      }
      if case .silent(let reason) = source.status, reason.hasPrefix(Self.limitPrefix) {
        limited.append("\(source.name): \(reason)")
      }
      // A container cut short, corrupt or over a limit keeps what was found before the damage,
      // and fails the run like any unreadable input.
      if case .failed(let reason) = source.status { problems.append("cannot read \(source.name): \(reason)") }
      return source
    case .failure(let error):
      problems.append(error.description)
      let source = ScannedSource(name: error.name, bytes: 0, status: .failed(reason: error.reason))
      sources.append(source)
      listedPerSource.append(0)
      return source
    }
  }

  /// The start of the reason a container stopped by a ``ContainerLimits`` limit is silent: the
  /// scan was cut short there (inconclusive, exit 3), the input was not found unreadable.
  static let limitPrefix = "stopped at a container limit: "

  /// The start of the reason a source cut at ``Bounds/maxBytes`` is silent.
  static let cutPrefix = "stopped after"

  /// Why a source cut at `maxBytes` proves nothing about the rest.
  static func cutReason(_ maxBytes: Int) -> String {
    "\(cutPrefix) \(maxBytes) bytes (--max-bytes): the rest was not looked at"
  }

  /// Streams standard input through the scanner, opening it when it is a container (a gzip or
  /// tar piped in), at most `bounds.maxBytes` of it; a read error is a failure, not the end.
  private static func scanStandardInput(with scanner: LeakScanner, bounds: Bounds, io: CommandIO)
    -> Result<(findings: [LeakFinding], source: ScannedSource), ScanInputError>
  {
    var readError: (any Error)?
    var delivered = 0
    var cut = false
    var result = scanner.scanStream(name: "-") {
      do {
        guard delivered < bounds.maxBytes else {
          // Past the limit: one more read tells a stream that ends there from one that goes on.
          if !cut, !(try io.readInput()).isEmpty { cut = true }
          return Data()
        }
        var chunk = try io.readInput()
        if chunk.count > bounds.maxBytes - delivered {
          chunk = chunk.prefix(bounds.maxBytes - delivered)
          cut = true
        }
        delivered += chunk.count
        return chunk
      } catch {
        readError = error
        throw error
      }
    }
    if let readError {
      return .failure(ScanInputError(name: "-", reason: "\(readError)", message: "\(readError)"))
    }
    // A container cut short by the limit fails as truncated; the limit is the reason.
    if cut { result.source.status = .silent(reason: cutReason(bounds.maxBytes)) }
    // A container stopped only by a ContainerLimits limit is inconclusive, as it is from a file.
    if result.stoppedByLimit, case .failed(let reason) = result.source.status {
      result.source.status = .silent(reason: limitPrefix + reason)
    }
    return .success((result.findings, result.source))
  }

  /// Opens `path` once (a FIFO waits a bounded time for its writer) and streams it through the
  /// scanner, at most `bounds.maxBytes` of it unless it is a container.
  private static func scanFile(_ path: ScanPath, with scanner: LeakScanner, bounds: Bounds)
    -> Result<(findings: [LeakFinding], source: ScannedSource), ScanInputError>
  {
    let name = path.displayName
    let fd: Int32
    do throws(BoundedOpen.Failure) {
      fd = try BoundedOpen.forReading(path.bytes, wait: bounds.fifoWait)
    } catch {
      return .failure(
        ScanInputError(name: name, reason: "\(error)" + BoundedOpen.hint(error, other: "writer")))
    }
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      return .failure(ScanInputError(name: name, reason: "is a directory"))
    }
    if let contained = scanner.scanContainer(descriptor: fd, name: name, maxBytes: bounds.maxBytes) {
      var source = contained.source
      // Read only as far as --max-bytes (a container then fails as truncated): the limit is the
      // reason, and the scan is inconclusive, as it is for a plain file.
      if contained.cut { source.status = .silent(reason: cutReason(bounds.maxBytes)) }
      if contained.stoppedByLimit, case .failed(let reason) = source.status {
        source.status = .silent(reason: limitPrefix + reason)
      }
      return .success((contained.findings, source))
    }
    do {
      let result = try scanner.scanDescriptor(fd, source: name, path: name, limit: bounds.maxBytes)
      var source = ScannedSource(name: name, bytes: result.bytes, omittedFindings: result.omitted)
      if result.cut { source.status = .silent(reason: cutReason(bounds.maxBytes)) }
      if let reason = result.decodingCutShort { source.status = .failed(reason: "\(name): \(reason)") }
      return .success((result.findings, source))
    } catch let error as ScanError {
      guard case .unreadable(_, let reason) = error else {
        return .failure(ScanInputError(name: name, reason: "\(error)"))
      }
      return .failure(ScanInputError(name: name, reason: reason))
    } catch {
      return .failure(ScanInputError(name: name, reason: "\(error)"))
    }
  }
}

/// An input that could not be read: its name, the reason, and the line shown on standard error.
struct ScanInputError: Error, CustomStringConvertible {
  let name: String
  let reason: String
  let description: String

  init(name: String, reason: String, message: String? = nil) {
    self.name = name
    self.reason = reason
    description = message ?? "cannot read \(name): \(reason)"
  }
}
