import Foundation

/// One event of a `text/event-stream` body, as a browser's `EventSource` dispatches it.
struct ReadEvent: Equatable {
  var type = ""
  var data = ""
  var id = ""

  func field(_ field: CanaryLocation.EventField) -> String {
    switch field {
    case .data: data
    case .id: id
    case .event: type
    }
  }
}

/// Reads the events of a `text/event-stream` body (WHATWG HTML §9.2.6): lines end with CRLF, LF
/// or CR; a blank line dispatches the event; `data:` lines join with LF; a line starting with `:`
/// is a comment; one space after the colon is dropped. An event with no data is not dispatched,
/// and an unfinished event at the end is discarded, as `EventSource` does.
enum EventStreamReader {
  /// The most events read from one body; later ones are not read (their canaries then count as
  /// not delivered, never as clean).
  static let maxEvents = 10_000

  static func events(in body: Data, limit: Int = EventStreamReader.maxEvents) -> [ReadEvent] {
    var text = String(decoding: body, as: UTF8.self)
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    var events: [ReadEvent] = []
    var current = ReadEvent()
    var dataLines: [Substring] = []
    let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
    // The last element follows the last line break: an unfinished line, not dispatched.
    for line in lines.dropLast() {
      if events.count >= limit { break }
      if line.isEmpty {
        if !dataLines.isEmpty {
          current.data = dataLines.joined(separator: "\n")
          events.append(current)
        }
        // The id persists across events (the "last event ID"); type and data do not.
        current = ReadEvent(id: current.id)
        dataLines = []
        continue
      }
      if line.hasPrefix(":") { continue }
      let name: Substring
      var value: Substring
      if let colon = line.firstIndex(of: ":") {
        name = line[..<colon]
        value = line[line.index(after: colon)...]
        if value.hasPrefix(" ") { value = value.dropFirst() }
      } else {
        name = line
        value = ""
      }
      switch name {
      case "data": dataLines.append(value)
      case "event": current.type = String(value)
      case "id" where !value.contains("\0"): current.id = String(value)
      default: break
      }
    }
    return events
  }
}
