import CanaryTrap
import CanaryTrapExamples
import Foundation
import Testing

@testable import CanaryCLI

/// The demo's verdicts: the leaky examples leak where their design implies, the redacting
/// transport is clean with every canary delivered.
@Suite struct DemoScenarioTests {
  private func run(_ scenario: DemoScenario) async -> LeakReport {
    await scenario.run(RequestKind.all, .memoryLog)
  }

  private func leaked(_ report: LeakReport) -> Set<CanaryLocation> {
    Set(report.leakedLocations)
  }

  @Test func printingLoggerLeaksEveryPartItPrints() async {
    let report = await run(.printingLogger)
    #expect(report.verdict == .leaky)
    let leaked = leaked(report)
    for location: CanaryLocation in [
      .requestURL(.user), .requestURL(.password), .requestURL(.query("session")), .requestURL(.fragment),
      .requestHeader("X-API-KEY"), .requestHeader("x-Acme-Session-Ref"), .requestCookie("sid"),
      .requestBody(.json("user.password")), .requestBody(.form("password")),
      .requestBody(.multipartFilename("avatar")), .requestBody(.xml("login/password")),
      .responseHeader("X-Debug-Token"), .responseHeader("WWW-Authenticate"), .responseCookie("session_id"),
      .responseBody(.json("refresh_token")), .responseBody(.text), .finalURL(.path(3)),
    ] {
      #expect(leaked.contains(location), "expected \(location) to leak")
    }
    // It prints the final response only: the Location of an intermediate hop never reaches it.
    #expect(!leaked.contains(.redirect(hop: 2, .path(2))))
    // The cookie store and the URL cache are scanned too (the matrix's cookies are scoped to
    // another domain and its responses are not cacheable, so both hold nothing of the run).
    let scanned = Set(report.sources.map(\.name))
    #expect(scanned.isSuperset(of: ["cookie-storage", "url-cache", "stdout"]))
    #expect(!scanned.contains("stderr"), "tests print into a memory log and leave the streams alone")
    #expect(DemoScenario.printingLogger.check(report).matches)
  }

  @Test func denylistBlanksOnlyItsFourKeysAndLogsNoHeader() async {
    let report = await run(.denylist)
    #expect(report.verdict == .leaky)
    let leaked = leaked(report)
    for location: CanaryLocation in [
      .requestURL(.user), .requestURL(.query("session")), .requestURL(.pathParameter("session")),
      .requestBody(.json("card")), .requestBody(.json("tokens[0]")), .requestBody(.form("password")),
      .requestBody(.multipartFile("avatar")), .requestBody(.text), .requestBody(.xml("login/password")),
    ] {
      #expect(leaked.contains(location), "expected \(location) to leak")
    }
    for location: CanaryLocation in [
      .requestBody(.json("password")), .requestBody(.json("user.password")), .requestHeader("X-API-KEY"),
      .requestCookie("sid"), .responseHeader("X-Debug-Token"), .responseCookie("session_id"),
      .responseBody(.json("refresh_token")), .responseBody(.text),
    ] {
      #expect(!leaked.contains(location), "expected \(location) not to leak")
    }
    #expect(DemoScenario.denylist.check(report).matches)
  }

  @Test func redactingTransportIsCleanWithEveryCanaryDelivered() async {
    let report = await run(.redacting)
    #expect(report.isClean, "\(report.verdictLine)")
    #expect(report.findings.isEmpty)
    #expect(!report.deliveries.isEmpty)
    #expect(report.undelivered.isEmpty)
    #expect(report.deliveries.count == report.canaries.count)
    #expect(report.sources.contains { $0.name == "memory-log" && $0.status == .heard && $0.bytes > 0 })
    #expect(DemoScenario.redacting.check(report).matches)
  }

  @Test func inspectorExportsLeakAllButTheTwoRedactedHeaders() async {
    let report = await run(.inspector)
    #expect(report.verdict == .leaky)
    let leaked = leaked(report)
    for location: CanaryLocation in [
      .requestURL(.user), .requestURL(.query("session")), .requestHeader("X-API-KEY"),
      .requestHeader("x-Acme-Session-Ref"), .requestBody(.json("password")),
      .requestBody(.multipartFilename("avatar")), .responseHeader("X-Debug-Token"),
      .responseCookie("session_id"), .responseBody(.json("refresh_token")),
      .redirect(hop: 1, .query("sig302")),
    ] {
      #expect(leaked.contains(location), "expected \(location) to leak")
    }
    #expect(!leaked.contains(.requestCookie("sid")))
    #expect(!leaked.contains(.requestCookie("device_id")))
    let sources = Set(report.findings.map(\.source))
    #expect(sources.contains("export:\(NetworkInspector.harFileName)"))
    #expect(sources.contains("export:\(NetworkInspector.curlFileName)"))
    #expect(DemoScenario.inspector.check(report).matches)
  }

  /// The WebSocket locations the demo plants through the chat examples.
  static let webSocketLocations: Set<CanaryLocation> = [
    .requestURL(.query("access_token")), .requestHeader("X-Chat-Token"),
    .requestHeader("Sec-WebSocket-Protocol"), .webSocket(.clientMessage(1, .text)),
    .webSocket(.clientMessage(2, .binary)), .webSocket(.serverMessage(1, .text)),
    .webSocket(.serverMessage(2, .binary)), .webSocket(.clientCloseReason), .webSocket(.serverCloseReason),
  ]

  @Test func printingLoggersChatClientLeaksEveryWebSocketCanary() async {
    let report = await DemoScenario.printingLogger.run(RequestKind.webSocket, .memoryLog)
    #expect(report.undelivered.isEmpty, "\(report.undelivered.map(\.canary.location))")
    #expect(Set(report.canaries.map(\.location)) == Self.webSocketLocations)
    #expect(Set(report.leakedLocations) == Self.webSocketLocations)
    #expect(Set(report.findings.map(\.source)) == ["stdout"])
    #expect(DemoScenario.printingLogger.check(report).matches)
  }

  @Test func redactingChatClientIsCleanWithEveryWebSocketCanaryDelivered() async {
    let report = await DemoScenario.redacting.run(RequestKind.webSocket, .memoryLog)
    #expect(report.isClean, "\(report.verdictLine)")
    #expect(report.deliveries.count == Self.webSocketLocations.count)
    #expect(report.undelivered.isEmpty)
    // It did log: one line per step, shapes only.
    #expect(report.sources.contains { $0.name == "memory-log" && $0.status == .heard && $0.bytes > 0 })
    #expect(DemoScenario.redacting.check(report).matches)
  }

  @Test func examplesWithoutAChatClientSayWhyTheyDoNotRunWebSockets() {
    for scenario in DemoScenario.all {
      switch scenario.name {
      case "printing-logger", "redacting-transport": #expect(scenario.webSocket == .runs, "\(scenario.name)")
      default:
        guard case .notRun(let reason) = scenario.webSocket else {
          Issue.record("\(scenario.name) claims a WebSocket client")
          continue
        }
        #expect(!reason.isEmpty)
      }
    }
  }

  @Test func theCheckRejectsAVerdictThatDoesNotMatch() async {
    // The twin of the clean verdict: the same check fails when a leaky report is expected clean.
    let leaky = await run(.denylist)
    #expect(!DemoScenario.redacting.check(leaky).matches)
    let clean = await run(.redacting)
    #expect(!DemoScenario.denylist.check(clean).matches)
  }
}
