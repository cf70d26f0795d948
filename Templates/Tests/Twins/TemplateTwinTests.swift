import CanaryTrapExamples
import CanaryTrapTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The twins of the templates: the same flows through a client that logs too much, proving the
/// templates' `report.isClean` check fails when a canary leaks.
@Suite struct TemplateTwinTests {
  @Test func signInThroughAPrintingLoggerLeaksTheTokensAndTheCookie() async throws {
    let (result, report) = await CanaryTrap.withScope(title: "sign-in twin") { trap in
      let log = trap.memoryLog()
      let logger = PrintingLogger(session: URLSession(configuration: .ephemeral), output: log.write)
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
    try result.get()
    #expect(!report.isClean)
    #expect(report.undelivered.isEmpty)
    let leaked = Set(report.leakedLocations)
    #expect(leaked.contains(.requestBody(.json("password"))))
    #expect(leaked.contains(.responseBody(.json("refresh_token"))))
    #expect(leaked.contains(.responseCookie("session")))
  }

  @Test func signedDownloadThroughAPrintingLoggerLeaksTheSignature() async throws {
    let (result, report) = await CanaryTrap.withScope(title: "signed-download twin") { trap in
      let log = trap.memoryLog()
      let client = PrintingLogger(session: URLSession(configuration: .ephemeral), output: log.write)
      let signature = trap.canary(.token, at: .redirect(hop: 1, .query("sig")))
      let route = "/\(trap.tracer)/files"
      trap.server.on(.get, "\(route)/report", respond: .redirect(302, to: "\(route)/blob?sig=\(signature)"))
      trap.server.on(.get, "\(route)/blob", respond: .text("bytes"))
      let request = URLRequest(url: trap.baseURL.appendingPathComponent("\(route)/report"))
      trap.observe(request: request)
      let (data, response) = try await client.send(request)
      trap.observe(data, response)
    }
    try result.get()
    // It prints the final response's URL, which carries the signature the redirect handed out.
    #expect(!report.isClean)
    #expect(report.leakedLocations == [.redirect(hop: 1, .query("sig"))])
  }
}
