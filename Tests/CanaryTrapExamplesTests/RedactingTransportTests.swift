import CanaryTrap
import CanaryTrapExamples
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite struct RedactingTransportTests {
  /// Nine secrets in nine places, as in a first canary test; returns the log and the secrets.
  private func runNineSecretExchange(redactor: Redactor = Redactor()) async throws -> (
    log: CollectedLines, secrets: [String], serverRequestID: String?
  ) {
    try await withServer { server in
      let secrets = (1...9).map { secret("s\($0)") }
      server.on(.post, "/users/\(secrets[0])@example.com/books") { _ in
        .json(#"{"id":"b-7","access_token":"\#(secrets[8])","next":null}"#)
          .header("Set-Cookie", "session=\(secrets[6]); HttpOnly").header("X-Debug-Token", secrets[7])
      }
      let log = CollectedLines()
      let transport = RedactingTransport(redactor: redactor, sink: log)
      defer { transport.invalidate() }
      let request = makeRequest(
        "POST",
        URL(
          string: "\(server.baseURL)/users/\(secrets[0])@example.com/books?limit=20&session=\(secrets[1])")!,
        headers: [
          "Authorization": "Bearer \(secrets[2])", "Cookie": "theme=dark; sid=\(secrets[3])",
          "X-New-Secret-Header": secrets[4], "Content-Type": "application/json",
        ],
        body: #"{"password":"\#(secrets[5])","id":"b-7"}"#)
      let (data, response) = try await transport.send(request)
      #expect((response as? HTTPURLResponse)?.statusCode == 200)
      #expect(String(decoding: data, as: UTF8.self).contains(secrets[8]))
      return (log, secrets, server.requests.last?.headers[RedactingTransport.requestIDHeader])
    }
  }

  @Test func logsOneUsefulLineWithoutAnySecret() async throws {
    let (log, secrets, serverRequestID) = try await runNineSecretExchange()
    #expect(log.all.count == 1)
    let line = log.text
    #expect(secrets.allSatisfy { !line.contains($0) }, "leaked into: \(line)")
    #expect(line.contains("POST"))
    #expect(line.contains("/users/:email/books?limit=20&session=REDACTED"))
    #expect(line.contains(" 200 "))
    #expect(line.contains(#""id":"b-7""#))
    let requestID = try #require(serverRequestID)
    #expect(line.hasPrefix("[\(requestID)]"), "the server received the logged request ID")
  }

  @Test func theSameCheckCatchesAHeaderSomeoneAllowlisted() async throws {
    var careless = Redactor()
    careless.safeHeaders.insert("authorization")
    let (log, secrets, _) = try await runNineSecretExchange(redactor: careless)
    #expect(log.text.contains(secrets[2]))
  }

  @Test func redirectLocationAndFinalURLAreRedacted() async throws {
    try await withServer { server in
      let signature = secret("sig")
      let fileToken = secret("file")
      server.on(.get, "/download", respond: .redirect(302, to: "/files/\(fileToken)?sig=\(signature)"))
      server.on(.get, "/files/\(fileToken)", respond: .text("content"))
      let log = CollectedLines()
      let transport = RedactingTransport(sink: log)
      defer { transport.invalidate() }
      _ = try await transport.send(makeRequest("GET", URL(string: "\(server.baseURL)/download")!))
      let line = log.text
      #expect(!line.contains(signature) && !line.contains(fileToken), "leaked into: \(line)")
      #expect(line.contains("→ 302 location=\(server.baseURL)/files/:token?sig=REDACTED"))
      #expect(line.contains("final=\(server.baseURL)/files/:token?sig=REDACTED"))
      #expect(line.contains("<7 bytes text/plain>"))
    }
  }

  @Test func linesAreCappedAtTwoKilobytes() async throws {
    try await withServer { server in
      let keys = (0..<400).map { "\"field\($0)\":1" }.joined(separator: ",")
      server.on(.get, "/big", respond: .json("{\(keys)}"))
      let log = CollectedLines()
      let transport = RedactingTransport(sink: log)
      defer { transport.invalidate() }
      _ = try await transport.send(makeRequest("GET", URL(string: "\(server.baseURL)/big")!))
      let line = try #require(log.all.first)
      #expect(line.utf8.count <= RedactingTransport.maxLineBytes)
      #expect(line.hasSuffix("…[truncated]"))
    }
  }
}
