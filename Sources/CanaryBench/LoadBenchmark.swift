import CanaryCLI
import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `canary-bench load [--requests N] [--in-flight N] [--wrk-seconds N] [--wrk-connections N] [--rounds N]`:
/// holds one ``LoopbackServer`` under load and checks that nothing is lost or mixed up.
///
/// Phase 1 sends N (10,000) exchanges through one `URLSession`, at most `--in-flight` (64) at a
/// time; each carries a unique id in its query and in a header, and the server echoes the id in
/// the body. Every response is checked against its own id, and the server's record must hold each
/// id exactly once with header and query agreeing. Phase 2 runs `wrk` (if installed) with 256
/// connections, then checks that the server still answers. Open descriptors are counted after
/// each round (2 by default, each on a fresh server) stops: the first round creates what the
/// process keeps for good, and later rounds must not add to it; no TCP socket may stay open.
enum LoadBenchmark {
  static let requestsOption = Option<Int?>.integer(
    "--requests", help: "Exchanges per round.", defaultValue: "10000", range: 1...10_000_000)

  static let inFlightOption = Option<Int?>.integer(
    "--in-flight", help: "Exchanges in flight at once.", defaultValue: "64", range: 1...4096)

  static let wrkSecondsOption = Option<Int?>.integer(
    "--wrk-seconds", help: "How long wrk runs; 0 skips it.", defaultValue: "10", range: 0...3600)

  static let wrkConnectionsOption = Option<Int?>.integer(
    "--wrk-connections", help: "wrk's connections.", defaultValue: "256", range: 1...10_000)

  static let roundsOption = Option<Int?>.integer(
    "--rounds", help: "Rounds, each on a fresh server.", defaultValue: "2", range: 1...100)

  static let command = CommandSpec(
    name: "load", abstract: "10,000 exchanges through URLSession, 64 in flight.",
    discussion: """
      Holds one LoopbackServer under load and checks that nothing is lost or mixed up: N exchanges \
      through one URLSession, each with a unique id checked against its response and the server's \
      record; then wrk (if installed) with many connections, after which the server must still \
      answer. Open descriptors are counted after each round; later rounds must not add to them.
      """,
    options: [requestsOption, inFlightOption, wrkSecondsOption, wrkConnectionsOption, roundsOption],
    run: { parsed, io in
      var settings = LoadSettings(
        requests: parsed[requestsOption] ?? 10_000, inFlight: parsed[inFlightOption] ?? 64)
      settings.wrkSeconds = parsed[wrkSecondsOption] ?? 10
      settings.wrkConnections = parsed[wrkConnectionsOption] ?? 256
      settings.rounds = parsed[roundsOption] ?? 2
      return await run(settings, io: io)
    })

  static func run(_ settings: LoadSettings, io: CommandIO) async -> Int32 {
    let initial = LoadProbe.openDescriptors()
    io.writeOutput("descriptors at start: \(initial) (\(LoadProbe.descriptorKinds()))\n")
    var afterRounds: [Int] = []
    var healthy = true
    for round in 1...settings.rounds {
      io.writeOutput("-- round \(round) of \(settings.rounds)\n")
      guard let held = await runRound(settings, io: io) else { return ExitStatus.usage }
      healthy = healthy && held
      let sockets = LoadProbe.openSockets()
      if !sockets.isEmpty {
        healthy = false
        io.writeOutput("TCP sockets still open after stop: \(sockets.joined(separator: ", "))\n")
      }
      afterRounds.append(LoadProbe.openDescriptors())
      io.writeOutput(
        "descriptors after round \(round): \(afterRounds.last!) (\(LoadProbe.descriptorKinds())), "
          + "TCP sockets open: \(sockets.count)\n")
    }
    // The first round also creates what the process keeps for good (dispatch's epoll and timer
    // descriptors, URLSession's handles); later rounds must not add to it.
    let growth = afterRounds.count > 1 ? afterRounds.last! - afterRounds[0] : 0
    let leaked = growth > LoadProbe.steadyStateAllowance
    io.writeOutput(
      "descriptors: \(initial) at start, after each round \(afterRounds.map(String.init).joined(separator: ", ")); "
        + "growth after the first round \(growth)\(leaked ? " — LEAK" : "")\n")
    io.writeOutput(healthy && !leaked ? "load held\n" : "load FAILED\n")
    return healthy && !leaked ? ExitStatus.success : ExitStatus.leaks
  }

  /// One round on a fresh server: the checked exchanges, then wrk, then a check that it still
  /// answers; nil when the server cannot start.
  private static func runRound(_ settings: LoadSettings, io: CommandIO) async -> Bool? {
    var configuration = LoopbackServer.Configuration()
    configuration.maxRecordedRequests = max(configuration.maxRecordedRequests, settings.requests)
    let server = LoopbackServer(configuration: configuration)
    server.on(.get, "/echo") { request in
      .text("id=\(request.queryItem("id") ?? "none")").header("X-Echo", request.headers["X-Request-ID"] ?? "")
    }
    do {
      try server.start()
    } catch {
      io.writeError("canary-bench load: cannot start the server: \(error)\n")
      return nil
    }
    defer { server.stop() }
    let exchanges = await LoadExchanges.run(settings, against: server)
    io.writeOutput(exchanges.summary + "\n")
    var healthy = exchanges.isPerfect
    if settings.wrkSeconds > 0 {
      let wrk = LoadProbe.runWrk(
        url: server.baseURL.absoluteString + "/echo?id=wrk", connections: settings.wrkConnections,
        seconds: settings.wrkSeconds)
      io.writeOutput(wrk + "\n")
      server.clearRequests()  // wrk filled the bounded record; the check below needs room.
      let alive = await LoadExchanges.run(
        LoadSettings(requests: 100, inFlight: 8), against: server, idPrefix: "after-wrk")
      io.writeOutput("after wrk: \(alive.summary)\n")
      healthy = healthy && alive.isPerfect
    }
    let counters = server.counters
    io.writeOutput(
      "server received \(counters.requestsReceived) requests; \(counters.requestsDropped) answered "
        + "past its record's cap of \(configuration.maxRecordedRequests)\n")
    server.stop()
    try? await Task.sleep(for: .milliseconds(300))
    return healthy
  }
}

/// The load benchmark's options.
struct LoadSettings {
  var requests = 10_000
  var inFlight = 64
  var wrkSeconds = 10
  var wrkConnections = 256
  var rounds = 2

  init(requests: Int, inFlight: Int) {
    self.requests = requests
    self.inFlight = inFlight
    wrkSeconds = 0
  }
}
