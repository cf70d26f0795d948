import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap
@testable import CanaryTrapServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

@Suite("Server-sent events")
struct ServerSentEventTests {
  @Test("the reader dispatches events as EventSource does")
  func readerFollowsTheSpec() {
    let body = Data(
      "\u{FEFF}: comment\r\nevent: a\r\nid: 1\r\ndata: one\r\ndata:two\r\n\r\nevent: ignored\n\ndata: x\rid\r\rdata: cut"
        .utf8)
    let events = EventStreamReader.events(in: body)
    #expect(
      events == [
        ReadEvent(type: "a", data: "one\ntwo", id: "1"),
        // The id persists; `id` alone resets it to empty.
        ReadEvent(type: "", data: "x", id: ""),
      ])
    #expect(EventStreamReader.events(in: body, limit: 1).count == 1)
  }

  @Test("the event locations round-trip through their string form")
  func eventLocationsRoundTrip() {
    for field in [CanaryLocation.EventField.data, .id, .event] {
      let location = CanaryLocation.responseBody(.event(3, field))
      #expect(CanaryLocation(location.description) == location)
      #expect(location.description == "response.body.event[3].\(field.rawValue)")
    }
    #expect(CanaryLocation("response.body.event[0].data") == .custom("response.body.event[0].data"))
    #expect(CanaryLocation("response.body.event[2].retry") == .custom("response.body.event[2].retry"))
  }

  @Test("the server sends a paced stream in pieces, merging pieces past its limit")
  func pacedPiecesAreBounded() {
    let few = ServerResponse.eventStream([ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
    let fewBytes = ResponseSerializer.serialize(few, method: "GET", version: "HTTP/1.1", keepAlive: true)
      .bytes
    let fewPieces = PacedResponse.pieceLengths(
      of: few, bytes: fewBytes.count, method: "GET", version: "HTTP/1.1")
    #expect(fewPieces?.count == 2)
    #expect(fewPieces?.reduce(0, +) == fewBytes.count)
    #expect(
      PacedResponse.pieceLengths(of: few, bytes: fewBytes.count, method: "HEAD", version: "HTTP/1.1") == nil)
    #expect(
      PacedResponse.pieceLengths(of: few, bytes: fewBytes.count, method: "GET", version: "HTTP/1.0") == nil)
    let many = ServerResponse.eventStream((0..<300).map { ServerSentEvent(data: "event \($0)") })
    let bytes = ResponseSerializer.serialize(many, method: "GET", version: "HTTP/1.1", keepAlive: true).bytes
    let pieces = PacedResponse.pieceLengths(of: many, bytes: bytes.count, method: "GET", version: "HTTP/1.1")
    #expect(pieces?.count == PacedResponse.maxPieces)
    #expect(pieces?.reduce(0, +) == bytes.count)
  }

  @Test("past the piece limit every event still arrives, through URLSession")
  func manyEventsAllArrive() async throws {
    let server = LoopbackServer()
    server.on(
      .get, "/many",
      respond: .eventStream((0..<300).map { ServerSentEvent(id: "\($0)", data: "event \($0)") }, every: .zero)
    )
    try server.start()
    defer { server.stop() }
    let (data, _, _) = try await StreamingSession().send(
      URLRequest(url: server.baseURL.appendingPathComponent("many")))
    let events = EventStreamReader.events(in: data)
    #expect(events.count == 300)
    #expect(events.last == ReadEvent(type: "", data: "event 299", id: "299"))
  }

  @Test("through URLSession's delegate the events arrive over time, and every canary is delivered")
  func deliveredOverTime() async throws {
    let streaming = StreamingSession()
    let chunks = Locked(0)
    let result = await CanaryTrap.matrix(
      title: "sse", configuration: .init(captureStandardStreams: false), kinds: [.serverSentEvents]
    ) { trap in
      TestTransports.routeOnly(
        streaming.transport { _ in chunks.withLock { $0 += 1 } }, into: trap.memoryLog())
    }
    let report = try #require(result.report)
    #expect(result.undelivered.map { "\($0.canary.location): \($0.status)" } == [])
    #expect(report.verdict == .clean)
    #expect(
      Set(result.coverage.map(\.location.description)) == [
        "response.body.event[1].id", "response.body.event[1].data", "response.body.event[2].event",
        "response.body.event[2].data", "response.body.event[3].data",
      ])
    // Paced 20 ms apart, the pieces reach the delegate separately (not one buffered body).
    #expect(chunks.current >= 3)
  }

  @Test("a chunk logger is caught at every event field; a canary cut across two logged chunks is a known gap")
  func chunkLoggerIsCaught() async throws {
    let streaming = StreamingSession()
    let result = await CanaryTrap.matrix(
      title: "sse-leaky", configuration: .init(captureStandardStreams: false), kinds: [.serverSentEvents]
    ) { trap in
      let log = trap.memoryLog("app-log")
      return TestTransports.routeOnly(
        streaming.transport { log.write("chunk received: \(String(decoding: $0, as: UTF8.self))") }, into: log
      )
    }
    let report = try #require(result.report)
    #expect(result.allDelivered)
    #expect(report.verdict == .leaky)
    let leaked = Set(report.leakedLocations)
    #expect(
      leaked.isSuperset(of: [
        .responseBody(.event(1, .id)), .responseBody(.event(1, .data)), .responseBody(.event(2, .event)),
        .responseBody(.event(3, .data)),
      ]))
    // The data canary of event 2 is cut across two chunks: when they reach the delegate apart, two
    // log lines hold one half each, and the scanner (which never joins lines) does not find it.
    withKnownIssue("a canary cut across two logged chunks is not found", isIntermittent: true) {
      #expect(leaked.contains(.responseBody(.event(2, .data))), "event 2's data, cut across two chunks")
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "event 2's data, cut across two chunks" }
    }
  }

  @Test("an app that stops reading after the first event leaves the later events undelivered")
  func laterEventsUndeliveredWhenTheAppStops() async throws {
    let streaming = StreamingSession()
    let result = await CanaryTrap.matrix(
      title: "sse-stopped", configuration: .init(captureStandardStreams: false), kinds: [.serverSentEvents]
    ) { trap in
      let base = TestTransports.routeOnly(streaming.transport(), into: trap.memoryLog())
      return Transport { request in
        let (data, response) = try await base.send(request)
        // Keep the comment and the first event only (up to the second blank line).
        let text = String(decoding: data, as: UTF8.self)
        let firstEventEnd = text.components(separatedBy: "\n\n").prefix(2).joined(separator: "\n\n") + "\n\n"
        return (Data(firstEventEnd.utf8), response)
      }
    }
    let report = try #require(result.report)
    let undelivered = Set(result.undelivered.map(\.canary.location.description))
    #expect(
      undelivered == [
        "response.body.event[2].event", "response.body.event[2].data", "response.body.event[3].data",
      ])
    #expect(report.verdict != .clean)
  }
}
