import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

/// One set of sink instances shared by every test of the suites below, exactly as a user writes
/// `.canaryTrap(Configuration(sinks: [...]))` on a suite whose tests Swift Testing runs in parallel.
private enum SharedSinks {
  static let log = MemoryLog(name: "shared-log")
  static let directory: URL = {
    removeDirectoriesOfEndedProcesses()
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    // Shared by every test of the process, so no test can remove it: the process does, on exit.
    atexit { try? FileManager.default.removeItem(at: SharedSinks.directory) }
    return url
  }()
  private static let prefix = "canary-shared-"

  /// Removes the directories of test processes that ended without removing theirs: the child
  /// test process `InterimAndTrailerKindTests` lets FoundationNetworking stop evaluates every
  /// suite's traits, so it creates one, and never reaches its exit handler.
  private static func removeDirectoriesOfEndedProcesses() {
    let temporary = FileManager.default.temporaryDirectory
    let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
    for name in names where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }),
        kill(pid, 0) != 0 && errno == ESRCH
      else { continue }
      try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
    }
  }

  static let configuration = CanaryTrap.Configuration(
    captureStandardStreams: false,
    sinks: [log, FileSink(name: "files", urls: [directory]), StandardStreamsSink()],
    reportDirectory: nil)

  /// Writes `line` to every shared sink: the log, a file of this case's own, standard output.
  static func write(_ line: String, case index: Int) throws {
    log.write(line)
    try Data((line + "\n").utf8).write(to: directory.appendingPathComponent("case-\(index)-\(UUID()).log"))
    print(line)
  }
}

/// Ten parallel cases, each delivering a canary to its scope's server and writing only its tracer:
/// every case's scope begins its own window on the shared sinks (no "begin() was called twice"),
/// hears its run and is clean, so no issue is recorded. (A scope with no canary would be
/// inconclusive, so each case plants and delivers one that no sink holds.)
@Suite(.canaryTrap(SharedSinks.configuration))
struct SharedConfigurationTraitTests {
  @Test(arguments: 0..<10)
  func eachCaseHearsItsOwnRun(index: Int) async throws {
    let trap = try #require(CanaryTrap.current)
    let value = trap.canary(.token, at: .requestHeader("X-Session"))
    let log = MemoryLog(name: "unused")  // the case logs its line to the shared sinks below instead
    try await AdapterScenario.plantAndSend(in: trap, log: log, value: value, leak: false)
    try SharedSinks.write("case \(index) GET /\(trap.tracer)/users 200", case: index)
    try await Task.sleep(for: .milliseconds(20))  // keep the windows open together
  }
}

/// The twin: ten parallel cases each leaking their own canary into the shared log, with that leak
/// accepted. A case whose own leak were not found would record "known leak … did not occur".
@Suite(.canaryTrap(SharedSinks.configuration, knownLeaks: [.at(.custom("shared-token"), in: "shared-log")]))
struct SharedConfigurationLeakTraitTests {
  @Test(arguments: 0..<10)
  func eachCaseFindsItsOwnLeak(index: Int) async throws {
    let trap = try #require(CanaryTrap.current)
    let token = trap.canary(.token, at: .custom("shared-token"), proof: DeliveryProof { _, _ in .delivered })
    SharedSinks.log.write("case \(index) GET /\(trap.tracer)/users token=\(token)")
    try SharedSinks.write("case \(index) GET /\(trap.tracer)/users 200", case: index)
    try await Task.sleep(for: .milliseconds(20))
  }
}
