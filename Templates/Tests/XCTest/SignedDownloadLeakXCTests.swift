import CanaryTrapExamples  // Replace with your app's module
import CanaryTrapTesting
import Foundation
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A redirect to a signed download URL: the API answers `302 Found` with a `Location` whose path
/// holds a one-time file token and whose query holds a signature; the transport follows it, so the
/// same secrets are in the final URL.
///
/// Template from `canary init signed-download --xctest`: replace the code marked
/// `// Replace with your client` with your app's client, and keep every planted location your
/// request can carry.
final class SignedDownloadLeakXCTests: CanaryTrapTestCase {
  func testDownloadLogsNoSignedLocationOrFinalURL() async throws {
    let trap = self.trap  // fresh per test: canaries, server, sinks
    // Replace with your client: build it exactly as the app does (same session configuration,
    // interceptors and logger), pointed at `trap.baseURL`, logging to `log`.
    let log = trap.memoryLog()
    let client = RedactingTransport(sink: log)
    defer { client.invalidate() }
    let transport = Transport { try await client.send($0) }

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
