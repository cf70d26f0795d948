import Foundation

/// A sink whose content a closure produces when the scope ends: an exporter's output, breadcrumbs
/// from a crash reporter, an analytics queue, anything the test can turn into text or bytes.
///
/// It has no windows: the closure is called once per scope that reads it, and what it returns is
/// scanned whole. By default it is taken to belong to the run (any byte proves the run was heard,
/// ``HearingRule/anyByteDuringScope``); pass ``HearingRule/tracerOrCanary`` when the closure reads
/// something other code writes to as well, such as a shared log file.
public final class TextSink: LeakSink, ImmediatelyBeginningSink {
  /// The name findings use.
  public let name: String
  /// What proves the sink heard the run.
  public let hearingRule: HearingRule
  private let produce: @Sendable () async throws -> Data

  /// Creates a sink that scans the string `text` returns when the scope ends.
  public init(
    name: String, hearingRule: HearingRule = .anyByteDuringScope,
    _ text: @escaping @Sendable () async throws -> String
  ) {
    self.name = name
    self.hearingRule = hearingRule
    self.produce = { Data(try await text().utf8) }
  }

  /// Creates a sink that scans the bytes `data` returns when the scope ends.
  public init(
    name: String, hearingRule: HearingRule = .anyByteDuringScope,
    data: @escaping @Sendable () async throws -> Data
  ) {
    self.name = name
    self.hearingRule = hearingRule
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

  func beginImmediately(_ window: SinkWindow) throws {}
}
