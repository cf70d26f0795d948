import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The kinds whose exchanges fail on purpose, through a real URLSession: every canary delivered,
/// every failure reaching the app, and loggers that speak only on failure caught.
@Suite("Exchanges that fail on purpose")
struct FailureKindTests {
  private static let quiet = CanaryTrap.Configuration(captureStandardStreams: false)

  /// The failure kinds run through `logging` around an ephemeral URLSession.
  private static func run(
    _ title: String, kinds: [RequestKind] = RequestKind.failures,
    logging: @escaping @Sendable (Transport, MemoryLog) -> Transport
  ) async throws -> (MatrixResult, LeakReport) {
    let session = TestTransports.session()
    defer { session.invalidateAndCancel() }
    let result = await CanaryTrap.matrix(title: title, configuration: quiet, kinds: kinds) { trap in
      logging(.urlSession(session), trap.memoryLog())
    }
    return (result, try #require(result.report))
  }

  /// `failure[<failure>].<location>`.
  private static func failed(_ failure: ExchangeFailure, _ location: CanaryLocation) -> CanaryLocation {
    .failedExchange(failure, location)
  }

  @Test("the strict logger is clean: every canary delivered, every failure surfaced to the app")
  func strictLoggerIsCleanAndEveryFailureSurfaces() async throws {
    let (result, report) = try await Self.run("strict") { FailureLoggers.strict($0, into: $1) }
    #expect(report.verdict == .clean, "\(report.problems.map(\.message))")
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(result.kinds.map(\.failure) == ExchangeFailure.allCases.map { $0 })
    let surfaced = Dictionary(uniqueKeysWithValues: result.kinds.map { ($0.failure!, $0.surfacedFailures) })
    for failure in ExchangeFailure.allCases {
      let outcomes = try #require(surfaced[failure])
      #expect(outcomes.count == 1, "\(failure): \(outcomes)")
      switch failure {
      case .invalidJSON, .wrongContentType: #expect(outcomes == ["returned 200"])
      case .serviceUnavailable: #expect(outcomes == ["returned 503"])
      case .tooManyRequests: #expect(outcomes == ["returned 429"])
      default: #expect(outcomes.allSatisfy { $0.hasPrefix("threw ") }, "\(failure): \(outcomes)")
      }
    }
    #expect(surfaced[.timedOut] == ["threw NSURLErrorDomain -1001"])
    #expect(surfaced[.cancelled] == ["threw NSURLErrorDomain -999"])
    #expect(surfaced[.connectionRefused] == ["threw NSURLErrorDomain -1004"])
    // Each kind plants userinfo, path, query, header and body canaries under its failure's name.
    let planted = Set(result.coverage.map(\.location))
    for failure in ExchangeFailure.allCases {
      for location: CanaryLocation in [
        .requestURL(.user), .requestURL(.password), .requestURL(.path(3)), .requestURL(.query("token")),
        .requestHeader("X-Api-Key"), .requestBody(.json("card.cvc")),
      ] {
        #expect(planted.contains(Self.failed(failure, location)), "\(failure) lacks \(location)")
      }
    }
  }

  @Test("twin: a logger of the URL only on failure is leaky at every failure, and only there")
  func urlOnFailureLoggerIsLeakyAtEveryFailure() async throws {
    let kinds = [RequestKind.postJSON, .shapes] + RequestKind.failures
    let (result, report) = try await Self.run("url-on-failure", kinds: kinds) {
      FailureLoggers.urlOnFailure($0, into: $1)
    }
    #expect(report.verdict == .leaky)
    #expect(result.allDelivered)
    #expect(report.errors == [])
    let leaked = Set(report.leakedLocations)
    for failure in ExchangeFailure.allCases {
      for location: CanaryLocation in [
        .requestURL(.user), .requestURL(.path(3)), .requestURL(.query("token")),
      ] {
        #expect(leaked.contains(Self.failed(failure, location)), "\(failure): \(location) not found")
      }
    }
    // Quiet on success: nothing of the kinds that succeed.
    #expect(
      report.findings.filter { if case .failedExchange = $0.canary.location { false } else { true } }
        .map(\.message) == [])
    // Every finding names its failure, by location and in words.
    let timedOut = try #require(
      report.findings.first { $0.canary.location == Self.failed(.timedOut, .requestURL(.query("token"))) })
    #expect(timedOut.message.hasPrefix("canary planted in failure[timed-out].request.url.query[token]"))
    #expect(timedOut.message.contains("(an exchange where no answer came within the request's timeout)"))
  }

  @Test("twin: logging the error as Foundation describes it leaks the failing URL")
  func foundationErrorDescriptionLeaksTheFailingURL() async throws {
    let (result, report) = try await Self.run("error-description") {
      FailureLoggers.errorDescription($0, into: $1)
    }
    #expect(report.verdict == .leaky)
    #expect(result.allDelivered)
    let leaked = Set(report.leakedLocations)
    for failure in [
      ExchangeFailure.connectionClosed, .closedMidBody, .malformedStatusLine, .connectionRefused,
    ] {
      #expect(leaked.contains(Self.failed(failure, .requestURL(.query("token")))), "\(failure)")
      #expect(leaked.contains(Self.failed(failure, .requestURL(.password))), "\(failure)")
    }
    // Headers and bodies are in no error description.
    #expect(
      report.findings.filter {
        switch $0.canary.location {
        case .failedExchange(_, .requestHeader), .failedExchange(_, .requestBody): true
        default: false
        }
      }.map(\.message) == [])
  }

  @Test("a transport that turns failures into responses makes the run inconclusive, naming each")
  func swallowedFailuresAreInconclusive() async throws {
    let (result, report) = try await Self.run("swallowing") {
      FailureLoggers.strict(FailureLoggers.swallowing($0), into: $1)
    }
    #expect(report.verdict == .inconclusive)
    let mustThrow: [ExchangeFailure] = [
      .connectionClosed, .closedMidBody, .timedOut, .malformedStatusLine, .connectionRefused, .cancelled,
    ]
    for kind in result.kinds {
      let failure = try #require(kind.failure)
      if mustThrow.contains(failure) {
        #expect(kind.errors.count == 1, "\(failure): \(kind.errors)")
        #expect(kind.errors.first?.contains("returned 200, but its exchange was made to fail") == true)
        #expect(kind.errors.first?.contains("so the app's error path never ran") == true)
        #expect(kind.surfacedFailures == [])
      } else {
        #expect(kind.errors == [], "\(failure) may return its status: \(kind.errors)")
      }
    }
    #expect(report.errors.count == mustThrow.count)
    #expect(report.errors.allSatisfy { !$0.contains("cnry") }, "messages carry no canary")
  }

  @Test("a transport that does not stop a cancelled request is named, with what to do")
  func ignoredCancellationIsInconclusive() async throws {
    let session = TestTransports.session()
    defer { session.invalidateAndCancel() }
    let result = await CanaryTrap.matrix(
      title: "ignoring-cancellation", configuration: Self.quiet, kinds: [.failing(.cancelled)]
    ) { trap in
      FailureLoggers.strict(FailureLoggers.ignoringCancellation(session), into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(report.verdict == .inconclusive)
    let error = try #require(report.errors.first)
    #expect(error.contains("failure-cancelled: request 1 (POST /{tracer}/failure-cancelled/orders/{canary})"))
    #expect(error.contains("does not stop its request when its Swift task is cancelled"))
  }

  @Test(
    "a body the transport drops is undelivered; through a refused connection, handing it over is the proof")
  func droppedBodyIsUndelivered() async throws {
    let (result, report) = try await Self.run(
      "dropping-bodies", kinds: [.failing(.connectionRefused), .failing(.connectionClosed)]
    ) { FailureLoggers.strict(FailureLoggers.droppingBodies($0), into: $1) }
    #expect(report.verdict == .inconclusive)
    let undelivered = Set(result.undelivered.map(\.canary.location))
    #expect(undelivered == [Self.failed(.connectionClosed, .requestBody(.json("card.cvc")))])
    // No server can receive anything through a refused connection: the request the matrix handed
    // to the transport held the body, which is all that can be proven there.
    #expect(!undelivered.contains(Self.failed(.connectionRefused, .requestBody(.json("card.cvc")))))
  }

  @Test("failure locations have stable string forms; unknown or nested failures stay custom")
  func failureLocationsRoundTrip() {
    let location = Self.failed(.timedOut, .requestURL(.query("token")))
    #expect(location.description == "failure[timed-out].request.url.query[token]")
    #expect(CanaryLocation(location.description) == location)
    for failure in ExchangeFailure.allCases {
      let text = "failure[\(failure.rawValue)].request.header[X-Api-Key]"
      #expect(CanaryLocation(text) == Self.failed(failure, .requestHeader("X-Api-Key")))
    }
    for text in [
      "failure[exploded].request.url.query[token]",
      "failure[timed-out].failure[cancelled].request.url.query[token]", "failure[timed-out]",
      "failure[timed-out].nowhere",
    ] {
      #expect(CanaryLocation(text) == .custom(text), "\(text)")
    }
    #expect(location.family == "failure.request.url.query")
    #expect(location.isRequestSide)
    #expect(!Self.failed(.tooManyRequests, .responseBody(.json("request_id"))).isRequestSide)
  }
}
