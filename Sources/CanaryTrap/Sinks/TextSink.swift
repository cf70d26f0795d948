import Foundation

/// A sink whose content a closure produces when the scope ends: an exporter's output, breadcrumbs
/// from a crash reporter, an analytics queue, anything the test can turn into text or bytes.
public struct TextSink: LeakSink {
  /// The name findings use.
  public let name: String
  private let produce: @Sendable () async throws -> Data

  /// Creates a sink that scans the string `text` returns when the scope ends.
  public init(name: String, _ text: @escaping @Sendable () async throws -> String) {
    self.name = name
    self.produce = { Data(try await text().utf8) }
  }

  /// Creates a sink that scans the bytes `data` returns when the scope ends.
  public init(name: String, data: @escaping @Sendable () async throws -> Data) {
    self.name = name
    self.produce = data
  }

  /// Calls the closure; an error it throws fails the sink.
  public func collect() async throws -> [SinkContent] {
    do {
      return [.bytes(try await produce(), name: name)]
    } catch let error as SinkError {
      throw error
    } catch {
      throw SinkError(sink: name, reason: "its closure threw: \(error)")
    }
  }
}
