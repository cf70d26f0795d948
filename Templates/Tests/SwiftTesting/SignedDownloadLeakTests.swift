import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A redirect to a signed download URL: the API answers `302 Found` with a `Location` whose path
/// holds a one-time file token and whose query holds a signature; the transport follows it, so the
/// same secrets are in the final URL.
///
/// Template from `canary init signed-download`: replace the code marked `// Replace with your API client` with
/// your app's client, and keep every planted location your request can carry.
@Suite(.canaryTrap) struct SignedDownloadLeakTests {
  /// Replace with your request kind: a download answered with a `302` to a signed URL (a file
  /// token in its path, a signature and a credential in its query), which serves the file.
  static let signedDownload = RequestKind(
    name: "files", summary: "a redirect to a signed download URL"
  ) { p in
    let fileToken = p.canary(.token, at: .redirect(hop: 1, .path(2)))
    let signature = p.canary(.token, at: .redirect(hop: 1, .query("sig")))
    let credential = p.canary(.token, at: .redirect(hop: 1, .query("credential")))

    // Replace with your server's redirect: keep the signature where your storage provider puts it.
    p.server.on(
      .get, p.path("report"),
      respond: .redirect(
        302, to: "\(p.path(fileToken))?sig=\(signature)&credential=\(credential)&expires=600"))
    p.server.on(.get, p.path(fileToken), respond: .text("%PDF-1.7 report"))

    // Replace with your client's download call.
    return [p.request("GET", p.url(p.path("report")))]
  }

  @Test func downloadLogsNoSignedLocationOrFinalURL() async throws {
    let trap = try #require(CanaryTrap.current)  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), logging to `log`; the kind points its requests at the trap's server.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.finishTasksAndInvalidate() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    // Plants the kind's canaries, sends its requests through your transport, records every request
    // and response, and proves each canary's delivery.
    try await trap.runMatrix(through: transport, kinds: [Self.signedDownload])
  }  // the scope ends here: every sink is scanned; one issue per leak, undelivered canary or silent sink
}

/// Replace with your API client: this stand-in sends through `session` and logs one line per
/// exchange with the method, the route's first path segment (where the trap's tracer sits, so the
/// scope sees the log was written during the run), the status and the size, as a client with a
/// careful logger does. Delete it once the test builds your client instead.
private func standInClient(_ session: URLSession, logging log: MemoryLog) -> Transport {
  let network = Transport.urlSession(session)
  return Transport { request in
    let (data, response) = try await network.send(request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    let route = request.url?.pathComponents.dropFirst().first ?? ""
    log.write("\(request.httpMethod ?? "GET") /\(route)/… → \(status) \(data.count) bytes")
    return (data, response)
  }
}
