import Foundation

/// One server-sent event to write into a `text/event-stream` response.
public struct ServerSentEvent: Sendable, Hashable {
  /// The `id:` field, if any.
  package var id: String?
  /// The `event:` field (the event type), if any.
  package var event: String?
  /// The data; each line becomes one `data:` line.
  package var data: String

  /// Creates an event.
  public init(id: String? = nil, event: String? = nil, data: String) {
    self.id = id
    self.event = event
    self.data = data
  }

  /// The event as written on the stream, ending with its blank line.
  package var text: String {
    var text = ""
    if let event { text += "event: \(event)\n" }
    if let id { text += "id: \(id)\n" }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
    return text + "\n"
  }
}

extension ServerResponse {
  /// A `text/event-stream` response sent as the chunks `chunks` (each one the text of one or more
  /// events, or part of one), `interval` apart, so the client receives the events over time.
  public static func eventStream(chunks: [String], every interval: Duration = .milliseconds(20))
    -> ServerResponse
  {
    ServerResponse(
      headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"],
      body: .chunked(chunks.map { Data($0.utf8) })
    ).paced(every: interval)
  }

  /// A `text/event-stream` response with one chunk per event, `interval` apart.
  public static func eventStream(_ events: [ServerSentEvent], every interval: Duration = .milliseconds(20))
    -> ServerResponse
  {
    eventStream(chunks: events.map(\.text), every: interval)
  }
}
