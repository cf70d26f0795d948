import Foundation

#if os(Linux)
  import Glibc

  /// A child process for the tests, started with `posix_spawn` without Foundation's `Process`:
  /// the subset of `Process`'s interface the tests use.
  ///
  /// On Linux, swift-corelibs-foundation's `Process.run()` lists `/proc/self/fd` to close every
  /// descriptor in the child, copying each directory entry's whole 256-byte name field; with more
  /// than about 1,350 descriptors open (the parallel tests hold 1,600 to 2,100) an entry can end
  /// glibc's buffer next to an unmapped page, and the copy crashed the test process with SIGSEGV.
  /// This type lists the directory reading only each name's own bytes.
  public final class TestProcess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String]?
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `FileHandle` or a `Pipe` (its reading end), or nil to share the test's own.
    public var standardInput: Any?
    /// A `FileHandle` or a `Pipe` (its writing end), or nil to share the test's own.
    public var standardOutput: Any?
    /// A `FileHandle` or a `Pipe` (its writing end), or nil to share the test's own.
    public var standardError: Any?
    public private(set) var processIdentifier: Int32 = 0

    private let lock = NSLock()
    private var waitStatus: Int32?

    public init() {}

    /// Why the process ended.
    public var terminationReason: Process.TerminationReason {
      lock.withLock { waitStatus.map { ($0 & 0x7f) == 0 ? .exit : .uncaughtSignal } ?? .exit }
    }

    /// The exit status, or the signal that ended the process.
    public var terminationStatus: Int32 {
      lock.withLock {
        guard let status = waitStatus else { return 0 }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : status & 0x7f
      }
    }

    /// Whether the process has not ended yet (reaping it if it has).
    public var isRunning: Bool {
      lock.withLock {
        guard waitStatus == nil, processIdentifier > 0 else { return false }
        var status: Int32 = 0
        if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
          waitStatus = status
          return false
        }
        return true
      }
    }

    /// Starts the process.
    public func run() throws {
      guard let executableURL else { throw CocoaError(.fileNoSuchFile) }
      var actions = posix_spawn_file_actions_t()
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      var attributes = posix_spawnattr_t()
      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))

      var closeInParent: [FileHandle] = []
      func redirect(_ value: Any?, to target: Int32, reading: Bool) {
        if let pipe = value as? Pipe {
          let end = reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting
          posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
          if !closeInParent.contains(where: { $0 === end }) { closeInParent.append(end) }
        } else if let handle = value as? FileHandle {
          posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
        }
      }
      redirect(standardInput, to: 0, reading: true)
      redirect(standardOutput, to: 1, reading: false)
      redirect(standardError, to: 2, reading: false)
      // As Process does: the child keeps only its three standard descriptors.
      for descriptor in 3...max(3, Self.highestOpenDescriptor()) {
        posix_spawn_file_actions_addclose(&actions, descriptor)
      }
      // posix_spawn's chdir action is not in Swift's Glibc module: a shell changes directory and
      // becomes the program.
      var path = executableURL.path
      var words = [path] + (arguments ?? [])
      if let directory = currentDirectoryURL {
        words = ["/bin/sh", "-c", #"cd -- "$1" && shift && exec "$@""#, "sh", directory.path] + words
        path = "/bin/sh"
      }
      let argv = words.map { strdup($0) } + [nil]
      let variables = environment ?? ProcessInfo.processInfo.environment
      let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
      }
      var pid: pid_t = 0
      let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
      guard result == 0 else {
        throw NSError(
          domain: NSPOSIXErrorDomain, code: Int(result),
          userInfo: [NSLocalizedDescriptionKey: "cannot start \(path): \(String(cString: strerror(result)))"])
      }
      processIdentifier = pid
      closeInParent.forEach { try? $0.close() }
    }

    /// Waits until the process ends.
    public func waitUntilExit() {
      lock.withLock {
        guard waitStatus == nil, processIdentifier > 0 else { return }
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
        waitStatus = status
      }
    }

    /// Sends the process SIGTERM.
    public func terminate() {
      if processIdentifier > 0 { kill(processIdentifier, SIGTERM) }
    }

    /// The highest descriptor open in this process, read from `/proc/self/fd` name by name
    /// (`getdtablesize()` without `/proc`).
    static func highestOpenDescriptor() -> Int32 {
      guard let directory = opendir("/proc/self/fd") else { return getdtablesize() }
      defer { closedir(directory) }
      var highest: Int32 = 0
      while let entry = readdir(directory) {
        // The name's own bytes, from its offset: never a copy of the whole 256-byte field.
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
        let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
        highest = max(highest, Int32(name) ?? 0)
      }
      return highest
    }
  }
#else
  /// Foundation's `Process`, whose launch on Apple platforms closes descriptors without listing them.
  public typealias TestProcess = Process
#endif

/// Launches the tests' child processes.
public enum ChildProcessLaunch {
  /// Starts `process`.
  public static func run(_ process: TestProcess) throws {
    try process.run()
  }
}
