import CanaryTrap
import CanaryTrapExamples
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct PrintingLoggerTests {
  @Test func printsTheWholeRequestAndResponse() async throws {
    try await withServer { server in
      let responseToken = secret("resp")
      let cookie = secret("cookie")
      server.on(.post, "/orders") { _ in
        .json(#"{"access_token":"\#(responseToken)"}"#).header("Set-Cookie", "sid=\(cookie)")
      }
      let bearer = secret("bearer")
      let query = secret("query")
      let printed = CollectedLines()
      let logger = PrintingLogger(
        session: URLSession(configuration: .uncachedEphemeral), output: printed.write)
      let request = makeRequest(
        "POST", URL(string: "\(server.baseURL)/orders?session=\(query)")!,
        headers: ["Authorization": "Bearer \(bearer)", "Content-Type": "application/json"],
        body: #"{"card":"4111"}"#)

      let (data, response) = try await logger.send(request)

      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self).contains(responseToken))
      let text = printed.text
      for expected in [
        "POST", "session=\(query)", "Authorization: Bearer \(bearer)", #"{"card":"4111"}"#, "200",
        "sid=\(cookie)", responseToken,
      ] {
        #expect(text.contains(expected), "missing \(expected) in \(text)")
      }
    }
  }

  @Test func printsTheFailureOfARequestThatCannotConnect() async throws {
    let printed = CollectedLines()
    let logger = PrintingLogger(session: URLSession(configuration: .uncachedEphemeral), output: printed.write)
    let token = secret("unreachable")
    // Port 9 on loopback: nothing listens, so the connection is refused at once.
    let request = makeRequest("GET", URL(string: "http://127.0.0.1:9/reset/\(token)")!)
    await #expect(throws: (any Error).self) { try await logger.send(request) }
    #expect(printed.text.contains("failed"))
    #expect(printed.text.contains(token))
  }
}
