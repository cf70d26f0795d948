import Foundation

/// Where a report is written as it is rendered: text goes out in pieces of about
/// `chunkSize` bytes, so no format holds its whole document in memory.
final class ReportTextSink {
  /// The bytes gathered before they are handed on.
  static let chunkSize = 1 << 16
  private var pending: [UInt8] = []
  private let emit: (Data) throws -> Void

  /// A sink handing each piece to `emit`.
  init(_ emit: @escaping (Data) throws -> Void) {
    self.emit = emit
    pending.reserveCapacity(Self.chunkSize + 4096)
  }

  /// Writes `text` as it is.
  func write(_ text: String) throws {
    pending.append(contentsOf: text.utf8)
    if pending.count >= Self.chunkSize { try flush() }
  }

  /// Writes `text` and a line feed.
  func line(_ text: String) throws {
    try write(text)
    try write("\n")
  }

  /// Writes each of `texts` as a line.
  func lines(_ texts: [String]) throws {
    for text in texts { try line(text) }
  }

  /// Hands on what is gathered.
  func flush() throws {
    guard !pending.isEmpty else { return }
    try emit(Data(pending))
    pending.removeAll(keepingCapacity: true)
  }

  /// The whole text `render` writes, gathered into one piece (for `rendered(as:)`).
  static func collect(_ render: (ReportTextSink) throws -> Void) -> Data {
    var data = Data()
    let sink = ReportTextSink { data.append($0) }
    do {
      try render(sink)
      try sink.flush()
    } catch {
      preconditionFailure("gathering a report in memory failed: \(error)")
    }
    return data
  }

  /// Runs `render` writing to `emit` (which need not escape), and hands on the rest at the end.
  static func stream(to emit: (Data) throws -> Void, _ render: (ReportTextSink) throws -> Void) throws {
    try withoutActuallyEscaping(emit) { emit in
      let sink = ReportTextSink(emit)
      try render(sink)
      try sink.flush()
    }
  }
}

extension LeakReport {
  /// Writes the report in `format` in pieces, each handed to `emit` as soon as it is rendered:
  /// the same bytes as `rendered(as:)`, without holding the whole document.
  package func streamRendering(as format: ReportFormat, _ emit: (Data) throws -> Void) throws {
    switch format {
    case .json: try streamJSON(emit)
    case .text: try ReportTextSink.stream(to: emit) { try writeText(to: $0) }
    case .junit: try ReportTextSink.stream(to: emit) { try writeJUnit(to: $0) }
    case .sarif: try streamSARIF(emit)
    case .html: try ReportTextSink.stream(to: emit) { try writeHTML(to: $0) }
    }
  }
}
