import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Broken exchanges through a real `URLSession`: the server closing, resetting or answering too
/// late. The app swallows the error each time, yet the report is never clean: the response-side
/// canary is undelivered with a reason, while the request-side one the server did receive is
/// delivered.
@Suite("Server faults")
struct ServerFaultTests {
  @Test("the healthy exchange is clean, so each fault below is what makes its report inconclusive")
  func healthyExchangeIsClean() async {
    let outcome = await FaultyApp.exchange { $0 }
    #expect(outcome.appError == nil)
    #expect(outcome.report.verdict == .clean)
    #expect(outcome.report.undelivered.isEmpty)
  }

  @Test(
    "a fault leaves the response canary undelivered and the run inconclusive",
    arguments: [ServerResponse.Fault.closeBeforeResponse, .closeMidBody, .reset])
  func faultIsInconclusive(fault: ServerResponse.Fault) async {
    let outcome = await FaultyApp.exchange { $0.failing(with: fault) }
    let report = outcome.report
    #expect(outcome.appError != nil, "URLSession should fail on \(fault)")
    #expect(report.verdict == .inconclusive)
    #expect(report.delivery(of: outcome.sessionCanary) == .delivered)
    #expect(
      report.delivery(of: outcome.tokenCanary)
        == .undelivered(reason: "the transport never returned it in the body's json[token]"))
    #expect(report.findings.isEmpty)
  }

  @Test("a response slower than the client's timeout leaves its canary undelivered")
  func slowResponseIsInconclusive() async {
    let outcome = await FaultyApp.exchange(timeout: 1) { $0.delayed(by: .seconds(3)) }
    #expect(outcome.appError?.contains("Code=-1001") == true, "\(outcome.appError ?? "no error")")
    #expect(outcome.report.verdict == .inconclusive)
    #expect(outcome.report.delivery(of: outcome.sessionCanary) == .delivered)
    #expect(outcome.report.delivery(of: outcome.tokenCanary)?.isUndelivered == true)
  }

  /// Without observed responses, the proof is a response the server wrote in full.
  @Test("without observed responses a fault still must not pass as clean")
  func unobservedFaultIsNotClean() async {
    let outcome = await FaultyApp.exchange(observeResponses: false) {
      $0.failing(with: .closeBeforeResponse)
    }
    #expect(outcome.appError != nil)
    #expect(outcome.report.verdict == .inconclusive)
    #expect(outcome.report.undelivered.contains { !$0.canary.location.isRequestSide })
  }

  /// The twin: the same unobserved exchange without a fault is proven by the written response.
  @Test func unobservedHealthyExchangeIsProvenByTheWrittenResponse() async {
    let outcome = await FaultyApp.exchange(observeResponses: false) { $0 }
    #expect(outcome.appError == nil)
    #expect(outcome.report.undelivered.isEmpty, "\(outcome.report.undelivered)")
  }
}

extension CanaryDelivery.Status {
  /// Whether this is an undelivered status, whatever the reason.
  var isUndelivered: Bool { self != .delivered }
}
