import CanaryTrap
import CanaryTrapTesting
import Foundation
import XCTest

// @testable import YourApp  // Replace with your app's module: the one that holds your API client

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A redirect to a signed download URL: the API answers `302 Found` with a `Location` whose path
/// holds a one-time file token and whose query holds a signature; the transport follows it, so the
/// same secrets are in the final URL.
///
/// Template from `canary init signed-download --xctest`: replace the code marked
/// `// Replace with your API client` with your app's client, and keep every planted location your
/// request can carry.
final class ___FILEBASENAMEASIDENTIFIER___: CanaryTrapTestCase {
  func testDownloadLogsNoSignedLocationOrFinalURL() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your API client: build it exactly as the app does (same session configuration,
    // interceptors and logger), pointed at `trap.baseURL`, logging to `log`.
    let log = trap.memoryLog()
    let urlSession = URLSession(configuration: .ephemeral)
    defer { urlSession.invalidateAndCancel() }
    let transport = standInClient(urlSession, logging: log)  // Replace with your API client

    let fileToken = trap.canary(.token, at: .redirect(hop: 1, .path(2)))
    let signature = trap.canary(.token, at: .redirect(hop: 1, .query("sig")))
    let credential = trap.canary(.token, at: .redirect(hop: 1, .query("credential")))

    // Replace with your server's redirect: keep the signature where your storage provider puts it.
    let route = "/\(trap.tracer)/files"
    trap.server.on(
      .get, "\(route)/report",
      respond: .redirect(
        302, to: "\(route)/\(fileToken)?sig=\(signature)&credential=\(credential)&expires=600"))
    trap.server.on(.get, "\(route)/\(fileToken)", respond: .text("%PDF-1.7 report"))

    // Replace with your client's download call.
    let request = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/report"))
    let (data, response) = try await exchange(request, through: transport, in: trap)

    XCTAssertTrue(
      response.statusCode == 200 && String(decoding: data, as: UTF8.self).hasPrefix("%PDF"),
      "the exchange did not go as scripted")
    await expectNoLeaks()  // ends the scope: one failure per leak, undelivered canary or silent sink
  }
}

/// Sends `request` through the app's transport and records the exchange, so the scope can prove
/// that every response-side canary reached the app.
private func exchange(
  _ request: URLRequest, through transport: Transport, in trap: CanaryTrap
) async throws -> (Data, HTTPURLResponse) {
  trap.observe(request: request)
  let (data, response) = try await transport.send(request)
  trap.observe(data, response)
  guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
  return (data, http)
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
