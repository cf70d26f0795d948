import Foundation

/// Launches the tests' child processes one at a time, never while a test holds a thousand
/// descriptors open.
///
/// On Linux, `Process.run()` lists `/proc/self/fd` to close every descriptor in the child, and
/// swift-corelibs-foundation up to Swift 6.3 copies each directory entry's whole 256-byte name
/// field: once about 1,350 descriptors are open, an entry can end a page of glibc's buffer and the
/// copy reads into an unmapped page (SIGSEGV in `Process.run()`). Tests run in parallel in one
/// process, so a test that opens a thousand connections crashed another test's launch.
public enum ChildProcessLaunch {
  private static let gate = NSLock()

  /// Starts `process`, waiting while a test holds many descriptors.
  public static func run(_ process: Process) throws {
    gate.lock()
    defer { gate.unlock() }
    try process.run()
  }

  /// Runs `body`, which opens many descriptors, while no child process is launched.
  public static func holdingManyDescriptors<T>(_ body: () throws -> T) rethrows -> T {
    gate.lock()
    defer { gate.unlock() }
    return try body()
  }
}
