import CanaryTrap
import CanaryTrapPrimitives
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The streams a command reads and writes, injectable so tests can capture them.
public struct CommandIO: Sendable {
  /// Writes to standard output; a failure is ignored (commands that must know use ``writeOutputData``).
  public var writeOutput: @Sendable (String) -> Void
  /// Writes to standard error; a failure is ignored, as there is nowhere left to report it.
  public var writeError: @Sendable (String) -> Void
  /// Reads the next chunk of standard input; an empty chunk means its end.
  public var readInputChunk: @Sendable () -> Data
  /// Writes bytes to standard output, throwing a ``CommandIOError`` when they cannot be written.
  public var writeOutputData: @Sendable (Data) throws -> Void
  /// Reads the next chunk of standard input, throwing a ``CommandIOError`` when it cannot be read;
  /// an empty chunk means its end.
  public var readInput: @Sendable () throws -> Data
  /// The command line's arguments as bytes, when known, so that file names that are not UTF-8
  /// reach the file system unchanged (`CommandLine.arguments` repairs them).
  public var argumentBytes: [[UInt8]]

  /// Creates streams from closures; the throwing variants default to the plain ones.
  public init(
    writeOutput: @escaping @Sendable (String) -> Void,
    writeError: @escaping @Sendable (String) -> Void,
    readInputChunk: @escaping @Sendable () -> Data,
    writeOutputData: (@Sendable (Data) throws -> Void)? = nil,
    readInput: (@Sendable () throws -> Data)? = nil,
    argumentBytes: [[UInt8]] = []
  ) {
    self.writeOutput = writeOutput
    self.writeError = writeError
    self.readInputChunk = readInputChunk
    self.writeOutputData = writeOutputData ?? { writeOutput(String(decoding: $0, as: UTF8.self)) }
    self.readInput = readInput ?? { readInputChunk() }
    self.argumentBytes = argumentBytes
  }

  /// The process's real standard streams, read and written with POSIX calls so every failure is
  /// an error with its `errno` rather than a crash. Making it first reserves any of descriptors
  /// 0, 1 and 2 that is closed (so no file opened later takes its number, and using it fails
  /// with "is closed") and ignores `SIGPIPE` (a closed pipe becomes an error, exit 2).
  public static let standard: CommandIO = {
    StandardStreams.prepare()
    return CommandIO(
      writeOutput: { try? StandardStreams.write(Data($0.utf8), to: 1) },
      writeError: { try? StandardStreams.write(Data($0.utf8), to: 2) },
      readInputChunk: { (try? StandardStreams.read(from: 0)) ?? Data() },
      writeOutputData: { try StandardStreams.write($0, to: 1) },
      readInput: { try StandardStreams.read(from: 0) },
      argumentBytes: systemArgumentBytes())
  }()
}

extension CommandIO {
  /// These streams with every standard-output write checked: ``writeOutput`` no longer drops a
  /// failure silently, and the first failure of either write is kept in `failure`.
  func keepingOutputFailures(in failure: Locked<String?>) -> CommandIO {
    var checked = self
    let write = writeOutputData
    let checkedWrite: @Sendable (Data) throws -> Void = { data in
      do {
        try write(data)
      } catch {
        failure.withLock { $0 = $0 ?? "\(error)" }
        throw error
      }
    }
    checked.writeOutputData = checkedWrite
    checked.writeOutput = { text in try? checkedWrite(Data(text.utf8)) }
    return checked
  }
}

/// The process's arguments after the program name, as the bytes the system passed.
private func systemArgumentBytes() -> [[UInt8]] {
  (1..<max(1, Int(CommandLine.argc))).map { index in
    guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
  }
}

/// A standard stream that could not be read or written, worded for the person at the terminal.
public struct CommandIOError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One line saying which stream failed and why.
  public var description: String

  /// Creates an error with its one-line description.
  public init(_ description: String) { self.description = description }
}

/// POSIX access to descriptors 0, 1 and 2.
enum StandardStreams {
  private static let closedDescriptors = Locked<Set<Int32>>([])

  /// Reserves closed standard descriptors with `/dev/null` and ignores `SIGPIPE`; runs once.
  static func prepare() {
    signal(SIGPIPE, SIG_IGN)
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      closedDescriptors.withLock { _ = $0.insert(descriptor) }
      let placeholder = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if placeholder >= 0 && placeholder != descriptor {
        dup2(placeholder, descriptor)
        close(placeholder)
      }
    }
  }

  static func name(of descriptor: Int32) -> String {
    switch descriptor {
    case 0: "standard input"
    case 1: "standard output"
    default: "standard error"
    }
  }

  /// Writes all of `data` to `descriptor`, retrying short writes and interruptions.
  static func write(_ data: Data, to descriptor: Int32) throws {
    guard !closedDescriptors.current.contains(descriptor) else {
      throw CommandIOError("cannot write \(name(of: descriptor)): it is closed")
    }
    do {
      try DescriptorWrite.all(data, to: descriptor)
    } catch {
      throw CommandIOError("cannot write \(name(of: descriptor)): \(error)")
    }
  }

  /// Reads up to 1 MiB from `descriptor`; an empty result means its end.
  static func read(from descriptor: Int32) throws -> Data {
    guard !closedDescriptors.current.contains(descriptor) else {
      throw CommandIOError("cannot read \(name(of: descriptor)): it is closed")
    }
    var data = Data(count: 1 << 20)
    let count = try data.withUnsafeMutableBytes { raw in
      while true {
        let got = systemRead(descriptor, raw.baseAddress!, raw.count)
        if got >= 0 { return got }
        if errno == EINTR { continue }
        throw CommandIOError("cannot read \(name(of: descriptor)): \(String(cString: strerror(errno)))")
      }
    }
    data.count = count
    return data
  }

  private static func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
      Glibc.read(fd, bytes, count)
    #else
      Darwin.read(fd, bytes, count)
    #endif
  }
}

/// Exit statuses shared by every subcommand.
public enum ExitStatus {
  /// Success, and for `scan`: no leak, and every source held bytes to look at.
  public static let success: Int32 = 0
  /// Leaks found.
  public static let leaks: Int32 = 1
  /// Bad usage, bad input (such as a manifest without canaries), or an input or output that
  /// could not be read or written.
  public static let usage: Int32 = 2
  /// For `scan`: no leak, but nothing was proven: an input held no byte to look at.
  public static let inconclusive: Int32 = 3
}
