import CanaryTrap
import CanaryTrapTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The twins of the templates: the templates' own request kinds through a client that logs too
/// much, proving the scope the templates rely on reports each leaked canary as an issue. Like the templates, they
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
      let client = PrintingClient(log: log)
      try await trap.runMatrix(
        through: Transport { try await client.send($0) }, kinds: [SignInLeakTests.signIn])
    }
    for location in [
      "request.body.json[password]", "response.body.json[refresh_token]", "response.cookie[session]",
    ] {
      #expect(
        issues.contains { $0.hasPrefix("canary planted in \(location) leaked into memory-log") },
        "\(location)")
    }
  }

  @Test func everyOtherTemplateKindThroughAPrintingClientReportsEveryLocation() async throws {
    // The kinds of the JSON API, multipart, token refresh and GraphQL templates: a client that
    // prints every header and both bodies leaks every canary they plant.
    let kinds = [
      JSONAPILeakTests.accountStatements, MultipartUploadLeakTests.upload, TokenRefreshLeakTests.tokenRefresh,
      GraphQLLeakTests.register,
    ]
    let issues = try await leakIssues { trap, log in
      let client = PrintingClient(log: log)
      try await trap.runMatrix(through: Transport { try await client.send($0) }, kinds: kinds)
    }
    let locations: [CanaryLocation] = [
      .requestHeader("Authorization"), .requestHeader("X-API-Key"), .requestHeader("X-Acme-Device-Token"),
      .requestURL(.path(2)), .requestURL(.query("cursor")), .responseBody(.json("statements[0].iban")),
      .requestBody(.multipartField("caption")), .requestBody(.multipartFile("document")),
      .requestBody(.multipartFilename("document")), .responseBody(.json("upload_id")),
      .responseHeader("WWW-Authenticate"), .requestBody(.form("refresh_token")),
      .responseBody(.json("access_token")), .responseBody(.json("refresh_token")),
      .requestBody(.json("variables.input.email")), .requestBody(.json("variables.input.phone")),
      .responseBody(.json("data.register.token")),
    ]
    for location in locations {
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
      defer { session.finishTasksAndInvalidate() }
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
      try await trap.runMatrix(
        through: Transport { try await client.send($0) }, kinds: [SignedDownloadLeakTests.signedDownload])
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
      defer { session.finishTasksAndInvalidate() }
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
    defer { session.finishTasksAndInvalidate() }
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
