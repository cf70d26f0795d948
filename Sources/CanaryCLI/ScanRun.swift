import CanaryTrap
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Scans the inputs of one `canary scan`, each read exactly once as a stream.
struct ScanRun {
  var findings: [LeakFinding] = []
  var sources: [ScannedSource] = []
  /// One-line reasons for inputs that could not be read; each makes the exit status 2.
  var problems: [String] = []

  /// Why a source with nothing in it proves nothing.
  static let emptyReason = "0 bytes: nothing was looked at"

  /// Throws when `output` is one of `inputs` (or standard input), so the report never
  /// overwrites what it describes.
  static func refuseOverwriting(_ inputs: [ScanInputWalker.Input], with output: ScanOutput) throws {
    guard let target = output.identity else { return }
    for input in inputs {
      switch input {
      case .file(let path, let identity, _) where identity == target:
        throw ScanOutput.refusal(output.path, "it is also an input (\(path.displayName))")
      case .standardInput where FileIdentity(descriptor: 0) == target:
        throw ScanOutput.refusal(output.path, "it is also standard input")
      default: continue
      }
    }
  }

  /// Scans every input; a directory whose files were all empty makes its sources silent.
  static func scan(_ inputs: [ScanInputWalker.Input], with scanner: LeakScanner, io: CommandIO) -> ScanRun {
    var run = ScanRun()
    var directoryBytes: [ScanPath: Int] = [:]
    var directoryOf: [Int: ScanPath] = [:]
    for input in inputs {
      switch input {
      case .standardInput:
        run.add(scanStandardInput(with: scanner, io: io), explicit: true)
      case .file(let path, _, let directory):
        let source = run.add(scanFile(path, with: scanner), explicit: directory == nil)
        if let directory, case .heard = source.status {
          directoryBytes[directory, default: 0] += source.bytes
          directoryOf[run.sources.count - 1] = directory
        }
      case .unreadable(let path, let reason):
        run.problems.append("cannot read \(path.displayName): \(reason)")
        run.sources.append(ScannedSource(name: path.displayName, bytes: 0, status: .failed(reason: reason)))
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
    _ result: Result<(findings: [LeakFinding], source: ScannedSource), ScanInputError>, explicit: Bool
  )
    -> ScannedSource
  {
    switch result {
    case .success(let (found, source0)):
      var source = source0
      if explicit, source.bytes == 0, case .heard = source.status {
        source.status = .silent(reason: Self.emptyReason)
      }
      findings += found
      sources.append(source)
      // A container cut short, corrupt or over a limit keeps what was found before the damage,
      // and fails the run like any unreadable input.
      if case .failed(let reason) = source.status { problems.append("cannot read \(source.name): \(reason)") }
      return source
    case .failure(let error):
      problems.append(error.description)
      let source = ScannedSource(name: error.name, bytes: 0, status: .failed(reason: error.reason))
      sources.append(source)
      return source
    }
  }

  /// Streams standard input through the scanner, opening it when it is a container (a gzip or
  /// tar piped in); a read error is a failure, not the end.
  private static func scanStandardInput(with scanner: LeakScanner, io: CommandIO)
    -> Result<(findings: [LeakFinding], source: ScannedSource), ScanInputError>
  {
    var readError: (any Error)?
    let result = scanner.scanStream(name: "-") {
      do {
        return try io.readInput()
      } catch {
        readError = error
        throw error
      }
    }
    if let readError {
      return .failure(ScanInputError(name: "-", reason: "\(readError)", message: "\(readError)"))
    }
    return .success(result)
  }

  /// Opens `path` once and streams it through the scanner.
  private static func scanFile(_ path: ScanPath, with scanner: LeakScanner)
    -> Result<(findings: [LeakFinding], source: ScannedSource), ScanInputError>
  {
    let name = path.displayName
    let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
      return .failure(ScanInputError(name: name, reason: ScanPathError.current().description))
    }
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
      return .failure(ScanInputError(name: name, reason: "is a directory"))
    }
    if let contained = scanner.scanContainer(descriptor: fd, name: name) {
      return .success(contained)
    }
    do {
      let result = try scanner.scanDescriptor(fd, source: name, path: name)
      return .success(
        (result.findings, ScannedSource(name: name, bytes: result.bytes, omittedFindings: result.omitted)))
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
