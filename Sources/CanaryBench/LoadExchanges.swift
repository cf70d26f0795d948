import CanaryCLI
import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Phase 1 of `canary-bench load`: many concurrent exchanges with unique ids, each checked.
struct LoadExchanges {
  var requests = 0
  var seconds = 0.0
  var failures: [String] = []
  var mismatched = 0
  var missingFromRecord = 0
  var duplicatedInRecord = 0
  var misattributedInRecord = 0

  /// Whether every exchange succeeded and the record is exact.
  var isPerfect: Bool {
    failures.isEmpty && mismatched == 0 && missingFromRecord == 0 && duplicatedInRecord == 0
      && misattributedInRecord == 0
  }

  /// One line of figures.
  var summary: String {
    let rate = seconds > 0 ? Double(requests) / seconds : 0
    var line =
      "\(requests) exchanges in \(String(format: "%.2f", seconds)) s (\(Int(rate)) req/s); "
      + "failed \(failures.count), wrong body \(mismatched), missing from record \(missingFromRecord), "
      + "recorded twice \(duplicatedInRecord), misattributed \(misattributedInRecord)"
    if let first = failures.first { line += "; first failure: \(first)" }
    return line
  }

  /// Sends `settings.requests` exchanges, `settings.inFlight` at a time, and checks them.
  static func run(_ settings: LoadSettings, against server: LoopbackServer, idPrefix: String = "load")
    async -> LoadExchanges
  {
    let configuration = URLSessionConfiguration.uncachedEphemeral
    configuration.httpMaximumConnectionsPerHost = settings.inFlight
    configuration.timeoutIntervalForRequest = 30
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let run = "\(idPrefix)-\(UUID().uuidString.prefix(8))"
    let ids = (0..<settings.requests).map { "\(run)-\($0)" }
    var result = LoadExchanges(requests: settings.requests)
    let clock = ContinuousClock()
    let started = clock.now
    await withTaskGroup(of: String?.self) { group in
      var next = 0
      func launch() {
        let id = ids[next]
        next += 1
        group.addTask { await exchange(id, server: server, session: session) }
      }
      while next < min(settings.inFlight, ids.count) { launch() }
      while let outcome = await group.next() {
        if let outcome {
          if outcome.hasPrefix("wrong body") {
            result.mismatched += 1
          } else {
            result.failures.append(outcome)
          }
        }
        if next < ids.count { launch() }
      }
    }
    let elapsed = (clock.now - started).components
    result.seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    result.checkRecord(server.requests, ids: ids, run: run)
    return result
  }

  /// One exchange: nil when the body echoes `id`, otherwise what went wrong.
  private static func exchange(_ id: String, server: LoopbackServer, session: URLSession) async -> String? {
    var request = URLRequest(url: URL(string: "\(server.baseURL.absoluteString)/echo?id=\(id)")!)
    request.setValue(id, forHTTPHeaderField: "X-Request-ID")
    do {
      let (data, response) = try await Transport.urlSession(session).send(request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      let echoed = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Echo")
      guard status == 200, String(decoding: data, as: UTF8.self) == "id=\(id)", echoed == id else {
        return "wrong body for \(id): status \(status), \(String(decoding: data.prefix(80), as: UTF8.self))"
      }
      return nil
    } catch {
      return "\(id): \(error)"
    }
  }

  /// Every id recorded exactly once, by a request whose header names the same id.
  private mutating func checkRecord(_ recorded: [RecordedRequest], ids: [String], run: String) {
    var seen: [String: Int] = [:]
    for request in recorded {
      guard let id = request.queryItem("id"), id.hasPrefix(run + "-") else { continue }
      seen[id, default: 0] += 1
      if request.headers["X-Request-ID"] != id || request.malformed != nil { misattributedInRecord += 1 }
    }
    for id in ids {
      switch seen[id] ?? 0 {
      case 0: missingFromRecord += 1
      case 1: break
      default: duplicatedInRecord += 1
      }
    }
  }
}
