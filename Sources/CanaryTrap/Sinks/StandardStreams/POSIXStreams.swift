import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the POSIX calls the standard-stream capture needs, one spelling per platform.
enum POSIXStreams {
  /// The text of the current `errno`.
  static var lastError: String {
    String(cString: strerror(errno))
  }

  /// Flushes every C stdio output buffer (Swift's `print` writes through C's `stdout`).
  static func flushStdio() {
    fflush(nil)
  }

  /// Creates a pipe whose ends close on exec; returns (read, write).
  static func makePipe() throws -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else {
      throw SinkError(sink: "standard-streams", reason: "pipe() failed: \(lastError)")
    }
    _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    return (fds[0], fds[1])
  }

  /// Duplicates `fd` onto a new descriptor that closes on exec.
  static func duplicate(_ fd: Int32) throws -> Int32 {
    let copy = dup(fd)
    guard copy >= 0 else {
      throw SinkError(sink: "standard-streams", reason: "dup(\(fd)) failed: \(lastError)")
    }
    _ = fcntl(copy, F_SETFD, FD_CLOEXEC)
    return copy
  }

  /// Makes `target` refer to what `source` refers to, retrying on interruption.
  @discardableResult
  static func redirect(_ source: Int32, onto target: Int32) -> Bool {
    while dup2(source, target) < 0 {
      if errno != EINTR { return false }
    }
    return true
  }

  /// Closes a descriptor.
  static func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
  }

  /// Blocks until `fd` is readable or hung up; false if polling failed for good.
  static func waitReadable(_ fd: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let result = poll(&entry, 1, -1)
      if result > 0 { return true }
      if result < 0 && errno != EINTR { return false }
    }
  }

  /// What ``readChunk(_:into:)`` returns when a non-blocking descriptor has nothing yet.
  static let wouldBlock = -2

  /// Makes reads from `fd` return at once instead of waiting.
  static func makeNonBlocking(_ fd: Int32) {
    let flags = fcntl(fd, F_GETFL)
    if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
  }

  /// Reads what is available into `buffer`: the count, 0 at end of file, ``wouldBlock`` if
  /// nothing is there yet, -1 on a lasting error.
  static func readChunk(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      let count = read(fd, buffer.baseAddress, buffer.count)
      if count >= 0 { return count }
      if errno == EAGAIN || errno == EWOULDBLOCK { return wouldBlock }
      if errno != EINTR { return -1 }
    }
  }

  /// Writes every byte of `bytes` to `fd`, waiting while a non-blocking descriptor is full;
  /// gives up silently if the descriptor refuses for good (the echo is a courtesy).
  static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      let count = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if count > 0 {
        offset += count
      } else if count < 0 && errno == EINTR {
        continue
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if poll(&entry, 1, 1000) == 0 { return }  // stuck for a second: drop the echo, keep the capture
      } else {
        return
      }
    }
  }

  /// How many bytes wait unread in the pipe `fd`.
  static func pendingBytes(_ fd: Int32) -> Int {
    var count: Int32 = 0
    #if canImport(Darwin)
      let request: UInt = 0x4004_667F  // FIONREAD, a macro Swift does not import on Darwin
    #else
      let request = UInt(FIONREAD)
    #endif
    guard ioctl(fd, request, &count) == 0 else { return 0 }
    return Int(count)
  }
}
