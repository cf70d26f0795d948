#if os(Linux)
  #if canImport(Glibc)
    import Glibc
  #endif

  /// A level-triggered epoll set (Linux).
  ///
  /// The Glibc module Swift ships does not import `sys/epoll.h`, so the three calls are looked up
  /// with `dlsym` and called through C function pointers; the event layout is spelled out here.
  final class EpollPoller: ReadinessPoller {
    private typealias CreateFunction = @convention(c) (Int32) -> Int32
    private typealias ControlFunction =
      @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias WaitFunction = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private static let readable: UInt32 = 0x001
    private static let writable: UInt32 = 0x004
    private static let error: UInt32 = 0x008
    private static let hangup: UInt32 = 0x010
    private static let readHangup: UInt32 = 0x2000
    private static let controlAdd: Int32 = 1
    private static let controlDelete: Int32 = 2
    private static let controlModify: Int32 = 3

    #if arch(x86_64)
      /// `struct epoll_event` is packed on x86_64: 4 bytes of events, then 8 bytes of data.
      private static let eventSize = 12
      private static let dataOffset = 4
    #else
      private static let eventSize = 16
      private static let dataOffset = 8
    #endif
    private static let capacity = 256

    private let epollFD: Int32
    private let control: ControlFunction
    private let waitForEvents: WaitFunction
    private let events: UnsafeMutableRawPointer

    /// An epoll set, or nil when the symbols cannot be found (the caller falls back to poll).
    static func make() throws -> EpollPoller? {
      guard let handle = dlopen(nil, RTLD_NOW),
        let create = dlsym(handle, "epoll_create1"), let control = dlsym(handle, "epoll_ctl"),
        let wait = dlsym(handle, "epoll_wait")
      else { return nil }
      let fd = unsafeBitCast(create, to: CreateFunction.self)(0)
      guard fd >= 0 else { throw SocketError(call: "epoll_create1", code: errno) }
      return EpollPoller(
        fd: fd, control: unsafeBitCast(control, to: ControlFunction.self),
        wait: unsafeBitCast(wait, to: WaitFunction.self))
    }

    private init(fd: Int32, control: ControlFunction, wait: WaitFunction) {
      epollFD = fd
      self.control = control
      self.waitForEvents = wait
      events = UnsafeMutableRawPointer.allocate(byteCount: Self.eventSize * Self.capacity, alignment: 8)
    }

    deinit { events.deallocate() }

    private func change(_ operation: Int32, _ fd: Int32, readable: Bool = true, writable: Bool) {
      var event = [UInt8](repeating: 0, count: Self.eventSize)
      event.withUnsafeMutableBytes { bytes in
        let mask = (readable ? Self.readable | Self.readHangup : 0) | (writable ? Self.writable : 0)
        bytes.storeBytes(of: mask, toByteOffset: 0, as: UInt32.self)
        bytes.storeBytes(of: Int32(fd), toByteOffset: Self.dataOffset, as: Int32.self)
        _ = control(epollFD, operation, fd, bytes.baseAddress)
      }
    }

    func add(_ fd: Int32, writable: Bool) { change(Self.controlAdd, fd, writable: writable) }
    func update(_ fd: Int32, readable: Bool, writable: Bool) {
      change(Self.controlModify, fd, readable: readable, writable: writable)
    }
    func remove(_ fd: Int32) { change(Self.controlDelete, fd, writable: false) }

    func wait(timeoutMilliseconds: Int32, _ body: (ReadinessEvent) -> Void) {
      let count = waitForEvents(epollFD, events, Int32(Self.capacity), timeoutMilliseconds)
      guard count > 0 else { return }
      let hangupMask = Self.hangup | Self.error | Self.readHangup
      for index in 0..<Int(count) {
        let base = index * Self.eventSize
        let mask = events.loadUnaligned(fromByteOffset: base, as: UInt32.self)
        let fd = events.loadUnaligned(fromByteOffset: base + Self.dataOffset, as: Int32.self)
        body(
          ReadinessEvent(
            fd: fd, readable: mask & Self.readable != 0, writable: mask & Self.writable != 0,
            hangup: mask & hangupMask != 0))
      }
    }

    func close() { SocketShims.closeDescriptor(epollFD) }
  }
#endif
