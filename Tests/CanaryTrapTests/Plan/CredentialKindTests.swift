import CanaryTrap
import CanaryTrapPrimitives
import Foundation
import ServerTestSupport
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Basic credentials in `Authorization`, `Proxy-Authorization` and the URL's userinfo, through a
/// real URLSession: each part is reported at its own location, and userinfo is delivered whether
/// the transport sends it at once or only after a challenge.
@Suite("Credentials through URLSession")
struct CredentialKindTests {
  @Test("a logger of the Basic password alone is reported at the password, not the user")
  func basicPasswordLeakIsNamed() async throws {
    let session = TestTransports.session()
    let result = await CanaryTrap.matrix(
      title: "basic-password", configuration: .init(captureStandardStreams: false), kinds: [.basicAuthHeader]
    ) { trap in
      LocationTransports.logging(.urlSession(session), into: trap.memoryLog()) { request, _ in
        let header = request.value(forHTTPHeaderField: "Authorization") ?? ""
        let decoded = Data(base64Encoded: String(header.dropFirst("Basic ".count))).map {
          String(decoding: $0, as: UTF8.self)
        }
        let password = decoded?.split(separator: ":", maxSplits: 1).last.map(String.init) ?? ""
        return ["\(LocationTransports.route(request)) password=\(password)"]
      }
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.leakedLocations == [.requestCredential(header: "Authorization", .password)])
  }

  @Test("Basic and Proxy-Authorization: a careful logger is clean, a header logger leaks all four parts")
  func basicAndProxyTwins() async throws {
    let session = TestTransports.session()
    let kinds: [RequestKind] = [.basicAuthHeader, .proxyAuthorization]
    let careful = await CanaryTrap.matrix(
      title: "basic-careful", configuration: .init(captureStandardStreams: false), kinds: kinds
    ) { TestTransports.routeOnly(.urlSession(session), into: $0.memoryLog()) }
    #expect(careful.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(careful.report?.verdict == .clean)
    let leaky = await CanaryTrap.matrix(
      title: "basic-leaky", configuration: .init(captureStandardStreams: false), kinds: kinds
    ) { TestTransports.leaky(.urlSession(session), into: $0.memoryLog()) }
    #expect(
      Set(leaky.report?.leakedLocations ?? []) == [
        .requestCredential(header: "Authorization", .user),
        .requestCredential(header: "Authorization", .password),
        .requestCredential(header: "Proxy-Authorization", .user),
        .requestCredential(header: "Proxy-Authorization", .password),
      ])
  }

  /// Sends a userinfo URL the way URLSession on Apple platforms does: without credentials first,
  /// answering the server's Basic challenge with the URL's user and password.
  private static func challengeAnswering(_ session: URLSession, _ delegate: TestSessionDelegate) -> Transport
  {
    Transport { request in
      var stripped = request
      if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
        let user = components.user, let password = components.password
      {
        delegate.credential.withLock {
          $0 = URLCredential(user: user, password: password, persistence: .forSession)
        }
        components.user = nil
        components.password = nil
        stripped.url = components.url
      }
      return try await Transport.urlSession(session).send(stripped)
    }
  }

  @Test("userinfo after a challenge: the server answers 401 Basic first, the retry delivers both parts")
  func userinfoThroughTheChallenge() async throws {
    let delegate = TestSessionDelegate()
    let session = LocationTransports.session(delegate: delegate)
    let requests = Locked<[RecordedRequest]>([])
    let result = await CanaryTrap.matrix(
      title: "userinfo-challenge", configuration: .init(captureStandardStreams: false),
      kinds: [.basicAuthUserinfo(challenging: true)]
    ) { trap in
      let log = trap.memoryLog()
      let base = Self.challengeAnswering(session, delegate)
      return Transport { request in
        let answer = try await base.send(request)
        requests.withLock { $0 = trap.server.requests }
        log.write(LocationTransports.route(request))
        return answer
      }
    }
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(result.report?.verdict == .clean)
    #expect(delegate.challenges.current == ["NSURLAuthenticationMethodHTTPBasic"])
    let seen = requests.current.map { $0.headers.values(for: "Authorization").isEmpty }
    #expect(seen == [true, false])
  }

  @Test("userinfo after a challenge, twin: a logger of the app's URL leaks the user and the password")
  func userinfoThroughTheChallengeLeaks() async throws {
    let delegate = TestSessionDelegate()
    let session = LocationTransports.session(delegate: delegate)
    let result = await CanaryTrap.matrix(
      title: "userinfo-challenge-leaky", configuration: .init(captureStandardStreams: false),
      kinds: [.basicAuthUserinfo(challenging: true)]
    ) { trap in
      LocationTransports.logging(Self.challengeAnswering(session, delegate), into: trap.memoryLog()) {
        request, _ in [request.url?.absoluteString ?? ""]
      }
    }
    #expect(result.allDelivered)
    #expect(Set(result.report?.leakedLocations ?? []) == [.requestURL(.user), .requestURL(.password)])
  }

  @Test("a challenge the transport does not answer leaves userinfo undelivered, saying so")
  func unansweredChallenge() async throws {
    let delegate = TestSessionDelegate()
    let session = LocationTransports.session(delegate: delegate)
    let stripping = Transport { request in
      var stripped = request
      if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
        components.user = nil
        components.password = nil
        stripped.url = components.url
      }
      return try await Transport.urlSession(session).send(stripped)
    }
    let result = await CanaryTrap.matrix(
      title: "userinfo-unanswered", configuration: .init(captureStandardStreams: false),
      kinds: [.basicAuthUserinfo(challenging: true)]
    ) { TestTransports.routeOnly(stripping, into: $0.memoryLog()) }
    #expect(result.report?.verdict == .inconclusive)
    let reasons = result.undelivered.compactMap { delivery -> String? in
      guard case .undelivered(let reason) = delivery.status else { return nil }
      return reason
    }
    #expect(reasons.count == 2)
    #expect(reasons.allSatisfy { $0.contains("the server challenged it (401, WWW-Authenticate: Basic)") })
  }

  @Test("userinfo without a challenge: a transport that drops it gets a plain 401 at once, no hang")
  func droppedUserinfoWithoutChallenge() async throws {
    let session = TestTransports.session()
    let stripping = Transport { request in
      var stripped = request
      if let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
        components.user = nil
        components.password = nil
        stripped.url = components.url
      }
      return try await Transport.urlSession(session).send(stripped)
    }
    let result = await CanaryTrap.matrix(
      title: "userinfo-dropped", configuration: .init(captureStandardStreams: false),
      kinds: [.basicAuthUserinfo(challenging: false)]
    ) { TestTransports.routeOnly(stripping, into: $0.memoryLog()) }
    #expect(result.report?.verdict == .inconclusive)
    #expect(result.undelivered.count == 2)
    guard case .undelivered(let reason) = result.undelivered.first?.status else { return }
    #expect(reason.contains("the server did not challenge it"))
  }

  @Test("the challenge on a raw socket: 401 with WWW-Authenticate Basic, then 200 with the credentials")
  func challengeOnARawSocket() async throws {
    let trap = CanaryTrap(title: "userinfo-raw", configuration: .init(captureStandardStreams: false))
    try await trap.start()
    let planter = KindPlanter(trap: trap, kindName: "basic-auth-userinfo")
    let request = try #require(try RequestKind.basicAuthUserinfo(challenging: true).plant(planter).first)
    let url = try #require(request.url)
    let components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
    let user = try #require(components.user)
    let password = try #require(components.password)
    let path = components.percentEncodedPath
    let first = try RawClient(port: trap.server.port)
    first.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    let challenge = first.readToEnd().text
    #expect(challenge.hasPrefix("HTTP/1.1 401"))
    #expect(challenge.lowercased().contains("www-authenticate: basic realm=\"canary\""))
    #expect(trap.proveDelivery().allSatisfy { !$0.isDelivered })
    let second = try RawClient(port: trap.server.port)
    let basic = Data("\(user):\(password)".utf8).base64EncodedString()
    second.send(
      "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic \(basic)\r\nConnection: close\r\n\r\n")
    #expect(second.readToEnd().text.hasPrefix("HTTP/1.1 200"))
    let deliveries = trap.proveDelivery()
    #expect(deliveries.count == 2 && deliveries.allSatisfy(\.isDelivered))
    _ = await trap.finish()
  }
}
