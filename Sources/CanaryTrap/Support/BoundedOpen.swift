#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opens files that may be FIFOs without hanging: a FIFO's other end is waited for at most a
/// bounded time, then the open fails with a reason naming the wait. Every descriptor returned
/// blocks as usual once open. Paths are the system's bytes, without a terminating NUL.
package enum BoundedOpen {
  /// Why a path could not be opened, as the end of a sentence (`errno`'s text, or the wait).
  package struct Failure: Error, Sendable, CustomStringConvertible {
    package let description: String
    /// Whether the FIFO's other end did not come within the wait.
    package let timedOut: Bool

    package init(_ description: String, timedOut: Bool = false) {
      self.description = description
      self.timedOut = timedOut
    }

    /// The `errno` of the failed call.
    static func current() -> Failure { Failure(String(cString: strerror(errno))) }
  }

  /// How long a FIFO waits for its other end unless told otherwise: 10 seconds.
  package static let defaultWait = Duration.seconds(10)

  /// Opens `path` for reading; a FIFO must get a writer (one that writes or closes) within `wait`.
  package static func forReading(_ path: [UInt8], wait: Duration) throws(Failure) -> Int32 {
    let fd = withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
    guard fd >= 0 else { throw Failure.current() }
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO, !awaitWriter(fd, wait: wait) {
      close(fd)
      throw Failure("it is a FIFO and no process wrote to it within \(seconds(wait))", timedOut: true)
    }
    try blocking(fd)
    return fd
  }

  /// Opens `path` for writing without creating it; a FIFO must get a reader within `wait`.
  package static func forWriting(_ path: [UInt8], wait: Duration) throws(Failure) -> Int32 {
    let deadline = ContinuousClock.now + wait
    while true {
      let fd = withCString(path) { open($0, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
      if fd >= 0 {
        try blocking(fd)
        return fd
      }
      // ENXIO: a FIFO that nobody reads yet.
      guard errno == ENXIO else { throw Failure.current() }
      guard ContinuousClock.now < deadline else {
        throw Failure(
          "it is a FIFO and no process opened it for reading within \(seconds(wait))", timedOut: true)
      }
      usleep(20_000)
    }
  }

  /// Waits until the FIFO `fd` has data or has been closed by a writer; false after `wait`.
  /// (A FIFO no writer ever opened polls as neither.)
  private static func awaitWriter(_ fd: Int32, wait: Duration) -> Bool {
    let deadline = ContinuousClock.now + wait
    while true {
      let left = ContinuousClock.now.duration(to: deadline) / .milliseconds(1)
      let milliseconds = Int32(clamping: Int(max(0, left.rounded(.up))))
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready > 0 { return true }
      if ready < 0, errno == EINTR { continue }
      return false
    }
  }

  /// Clears `O_NONBLOCK`, so reads and writes wait as they would on any file.
  private static func blocking(_ fd: Int32) throws(Failure) {
    let flags = fcntl(fd, F_GETFL)
    guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
      let error = Failure.current()
      close(fd)
      throw error
    }
  }

  private static func withCString<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
    (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
    }
  }

  /// `10 s`; `0.25 s` below a second.
  static func seconds(_ duration: Duration) -> String {
    let (whole, fraction) = duration.components
    return fraction == 0 ? "\(whole) s" : "\(Double(whole) + Double(fraction) / 1e18) s"
  }
}
