import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The twins of the templates: the same flows through a client that logs too much, proving the
/// scope the templates rely on reports each leaked canary as an issue. Like the templates, they
/// need nothing but `CanaryTrapTesting`.
@Suite struct TemplateTwinTests {
  /// Runs `body` in a scope expected to leak and returns the text of every issue it recorded.
  private func leakIssues(_ body: @escaping (CanaryTrap, MemoryLog) async throws -> Void) async throws
    -> [String]
  {
    let issues = IssueTexts()
    try await withKnownIssue {
      try await withCanaryTrap(configuration: CanaryTrap.Configuration(captureStandardStreams: false)) {
        trap in
        try await body(trap, trap.memoryLog())
      }
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      issues.append(text)
      return text.contains("leaked into memory-log")
    }
    return issues.all
  }

  @Test func signInThroughAPrintingClientReportsTheTokensAndTheCookie() async throws {
    let issues = try await leakIssues { trap, log in
      let logger = PrintingClient(log: log)
      let password = trap.canary(.password, at: .requestBody(.json("password")))
      let refreshToken = trap.canary(.token, at: .responseBody(.json("refresh_token")))
      let session = trap.canary(.token, at: .responseCookie("session"))
      let route = "/\(trap.tracer)/auth"
      trap.server.on(
        .post, "\(route)/signin",
        respond: .json(#"{"refresh_token":"\#(refreshToken)"}"#)
          .header("Set-Cookie", "session=\(session); Path=/; HttpOnly"))
      var signIn = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/signin"))
      signIn.httpMethod = "POST"
      signIn.setValue("application/json", forHTTPHeaderField: "Content-Type")
      signIn.httpBody = Data(#"{"password":"\#(password)"}"#.utf8)
      trap.observe(request: signIn)
      let (data, response) = try await logger.send(signIn)
      trap.observe(data, response)
    }
    for location in [
      "request.body.json[password]", "response.body.json[refresh_token]", "response.cookie[session]",
    ] {
      #expect(
        issues.contains { $0.hasPrefix("canary planted in \(location) leaked into memory-log") },
        "\(location)")
    }
  }

  @Test func customKindThroughAClientLoggingBodiesOnFailureReportsThem() async throws {
    let issues = try await leakIssues { trap, log in
      // The template's own kind, through a client that logs both bodies when the server rejects a
      // request, as many error paths do.
      let session = URLSession(configuration: .ephemeral)
      defer { session.invalidateAndCancel() }
      let network = Transport.urlSession(session)
      let transport = Transport { request in
        let (data, response) = try await network.send(request)
        if let http = response as? HTTPURLResponse, http.statusCode >= 400 {
          let sent = String(decoding: request.httpBody ?? Data(), as: UTF8.self)
          log.write(
            "update failed (\(http.statusCode)): \(String(decoding: data, as: UTF8.self)) for \(sent)")
        }
        return (data, response)
      }
      try await trap.runMatrix(through: transport, kinds: [CustomKindLeakTests.profileUpdate])
    }
    for location in [
      "request.body.json[profile.contact.email]", "request.body.json[profile.contact.phone]",
      "response.body.json[error.trace_id]", "response.body.json[error.field.rejected]",
    ] {
      #expect(
        issues.contains { $0.hasPrefix("canary planted in \(location) leaked into memory-log") },
        "\(location): \(issues)")
    }
  }

  @Test func signedDownloadThroughAPrintingClientReportsTheSignature() async throws {
    let issues = try await leakIssues { trap, log in
      let client = PrintingClient(log: log)
      let signature = trap.canary(.token, at: .redirect(hop: 1, .query("sig")))
      let route = "/\(trap.tracer)/files"
      trap.server.on(.get, "\(route)/report", respond: .redirect(302, to: "\(route)/blob?sig=\(signature)"))
      trap.server.on(.get, "\(route)/blob", respond: .text("bytes"))
      let request = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/report"))
      trap.observe(request: request)
      let (data, response) = try await client.send(request)
      trap.observe(data, response)
    }
    // It prints the final response's URL, which carries the signature the redirect handed out.
    #expect(
      issues.contains {
        $0.hasPrefix("canary planted in redirect[1].location.query[sig] leaked into memory-log")
      })
  }

  @Test func openAPIDocumentThroughAClientLoggingAHeaderReportsIt() async throws {
    // The template's own sample document (Templates/openapi.json), loaded as the template loads it.
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../openapi.json").standardizedFileURL
    let imported = try RequestKind.kinds(fromOpenAPI: try Data(contentsOf: url))
    #expect(imported.isComplete, "the sample document plants everything: \(imported.skipped)")
    let issues = try await leakIssues { trap, log in
      // A client whose logger prints one header the document defines, as a debug logger does.
      let session = URLSession(configuration: .ephemeral)
      defer { session.invalidateAndCancel() }
      let network = Transport.urlSession(session)
      let transport = Transport { request in
        log.write("device \(request.value(forHTTPHeaderField: "X-Acme-Device-Token") ?? "-")")
        return try await network.send(request)
      }
      try await trap.runMatrix(through: transport, kinds: imported.kinds)
    }
    #expect(
      issues.contains {
        $0.hasPrefix("canary planted in request.header[X-Acme-Device-Token] leaked into memory-log")
      }, "\(issues)")
  }
}

/// The issue texts a `withKnownIssue` matcher collects (it may run on any thread), guarded by a lock
/// of the app's own as the templates need nothing of CanaryTrap's internals.
private final class IssueTexts: @unchecked Sendable {
  private let lock = NSLock()
  private var texts: [String] = []

  func append(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    texts.append(text)
  }

  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return texts
  }
}

/// A debug client as many apps have while a feature is built: it prints the final URL, every
/// header and the body of each request and response, canaries included.
private struct PrintingClient: Sendable {
  let log: MemoryLog

  func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    let session = URLSession(configuration: .ephemeral)
    defer { session.invalidateAndCancel() }
    log.write("\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "-")")
    for (name, value) in request.allHTTPHeaderFields ?? [:] { log.write("  \(name): \(value)") }
    log.write("  body: \(String(decoding: request.httpBody ?? Data(), as: UTF8.self))")
    let (data, response) = try await Transport.urlSession(session).send(request)
    if let http = response as? HTTPURLResponse {
      log.write("\(http.statusCode) \(http.url?.absoluteString ?? "-")")
      for (name, value) in http.allHeaderFields { log.write("  \(name): \(value)") }
    }
    log.write("  body: \(String(decoding: data, as: UTF8.self))")
    return (data, response)
  }
}
