import CanaryTrap
import Foundation
import Testing

@testable import CanaryTrapTesting

/// A client that structurally cannot deliver a location (a response type with no URL) leaves an
/// undelivered canary in every run: `KnownLeak.undelivered(_:reason:)` accepts it by its kind and
/// location, in a test's `knownLeaks` and in a baseline file, as a leak entry accepts a leak.
@Suite struct KnownUndeliveredTests {
  static let known = KnownLeak.undelivered(.responseCookie("sid"), reason: "the client keeps no cookies")
  static let undeliveredMessage = AdapterScenario.problemMessages[2]

  @Test("an accepted undelivered canary is a known issue, not an issue")
  func acceptedUndeliveredIsKnown() {
    let outcome = ScopeOutcome(AdapterScenario.problemReport, knownLeaks: [Self.known])
    #expect(!outcome.messages.map(\.text).contains(Self.undeliveredMessage))
    #expect(
      outcome.knownMessages == [
        "known undelivered canary (response.cookie[sid]): never delivered (no Set-Cookie reached the app);"
          + " accepted because: the client keeps no cookies"
      ])
  }

  @Test("twin: without the entry, the undelivered canary is an issue")
  func unacceptedUndeliveredIsAnIssue() {
    let outcome = ScopeOutcome(AdapterScenario.problemReport, knownLeaks: [])
    #expect(outcome.messages.map(\.text).contains(Self.undeliveredMessage))
    #expect(outcome.knownMessages.isEmpty)
  }

  @Test("an undelivered entry accepts no leak, and a leak entry no undelivered canary")
  func kindsDoNotCross() {
    let leakOfCookie = KnownLeak.at(.responseCookie("sid"))
    let triage = KnownLeakTriage(
      AdapterScenario.problemReport,
      knownLeaks: [KnownLeak.undelivered(.requestHeader("X-Session"), reason: "none"), leakOfCookie])
    #expect(triage.remaining.findings.count == 2)
    #expect(triage.remaining.undelivered.count == 1)
  }

  @Test("an entry whose canary was delivered is reported, so it is removed when the client is fixed")
  func deliveredEntryIsAbsent() {
    let delivered = KnownLeak.undelivered(.requestHeader("X-Session"), reason: "was never sent")
    let outcome = ScopeOutcome(AdapterScenario.problemReport, knownLeaks: [delivered])
    #expect(
      outcome.messages.map(\.text).contains(
        "known undelivered canary (request.header[X-Session] undelivered) was delivered, or not planted, in"
          + " this run: if the client now delivers it, remove it from knownLeaks"))
  }

  @Test("a baseline file holds both kinds, and an older file without kinds reads as leaks")
  func baselineHoldsBothKinds() throws {
    let baseline = LeakBaseline(knownLeaks: [
      KnownLeak(location: .requestHeader("X-Session"), source: "stdout", reason: "legacy logger"), Self.known,
    ])
    let text = String(decoding: try baseline.jsonData(), as: UTF8.self)
    #expect(text.contains(#""kind" : "undelivered""#))
    #expect(try LeakBaseline(jsonData: try baseline.jsonData()) == baseline)
    let old =
      #"{"version": 1, "knownLeaks": [{"location": "response.cookie[sid]", "source": "stdout", "reason": "r"}]}"#
    #expect(try LeakBaseline(jsonData: Data(old.utf8)).knownLeaks.map(\.isUndelivered) == [false])
    let leaking =
      #"{"version": 1, "knownLeaks": [{"kind": "undelivered", "location": "a", "source": "s", "reason": "r"}]}"#
    #expect(throws: BaselineError.self) { try LeakBaseline(jsonData: Data(leaking.utf8)) }
  }
}
