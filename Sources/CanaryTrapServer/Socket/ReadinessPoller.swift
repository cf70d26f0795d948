#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One descriptor that became ready.
struct ReadinessEvent {
  var fd: Int32
  var readable: Bool
  var writable: Bool
  /// The peer hung up or the socket is in error; a read tells which.
  var hangup: Bool
}

/// Waits for descriptors to become readable or writable (level-triggered).
protocol ReadinessPoller: AnyObject {
  /// Watches `fd` for reading, and for writing when `writable`.
  func add(_ fd: Int32, writable: Bool)
  /// Changes what `fd` is watched for (hang-ups and errors are always reported).
  func update(_ fd: Int32, readable: Bool, writable: Bool)
  /// Stops watching `fd` (call before closing it).
  func remove(_ fd: Int32)
  /// Waits up to `timeoutMilliseconds` (-1 = forever) and reports each ready descriptor.
  func wait(timeoutMilliseconds: Int32, _ body: (ReadinessEvent) -> Void)
  /// Releases the poller's own descriptor, if any.
  func close()
}

/// The best poller for this platform: epoll on Linux, poll elsewhere.
func makeReadinessPoller(preferPoll: Bool = false) throws -> any ReadinessPoller {
  #if os(Linux)
    if !preferPoll, let epoll = try EpollPoller.make() { return epoll }
  #endif
  return PollPoller()
}

/// A portable poller over `poll(2)`, used on Darwin and selectable on Linux for tests.
final class PollPoller: ReadinessPoller {
  private var descriptors: [pollfd] = []
  private var indexByFD: [Int32: Int] = [:]

  func add(_ fd: Int32, writable: Bool) {
    indexByFD[fd] = descriptors.count
    descriptors.append(pollfd(fd: fd, events: Self.mask(readable: true, writable: writable), revents: 0))
  }

  func update(_ fd: Int32, readable: Bool, writable: Bool) {
    if let index = indexByFD[fd] {
      descriptors[index].events = Self.mask(readable: readable, writable: writable)
    }
  }

  func remove(_ fd: Int32) {
    guard let index = indexByFD.removeValue(forKey: fd) else { return }
    let last = descriptors.removeLast()
    if index < descriptors.count {
      descriptors[index] = last
      indexByFD[last.fd] = index
    }
  }

  func wait(timeoutMilliseconds: Int32, _ body: (ReadinessEvent) -> Void) {
    let count = descriptors.withUnsafeMutableBufferPointer {
      poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
    }
    guard count > 0 else { return }
    let ready = descriptors.filter { $0.revents != 0 }
    for entry in ready {
      let events = Int32(entry.revents)
      body(
        ReadinessEvent(
          fd: entry.fd, readable: events & Int32(POLLIN) != 0, writable: events & Int32(POLLOUT) != 0,
          hangup: events & Int32(POLLHUP | POLLERR) != 0))
    }
  }

  func close() {}

  private static func mask(readable: Bool, writable: Bool) -> Int16 {
    (readable ? Int16(POLLIN) : 0) | (writable ? Int16(POLLOUT) : 0)
  }
}
