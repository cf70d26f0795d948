import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// An in-app network inspector: it records every exchange of the sessions it is installed in
/// through a `URLProtocol`, redacts the `Authorization` and `Cookie` headers, keeps the entries
/// in memory and exports them as a HAR file and as cURL commands for bug reports.
package final class NetworkInspector: Sendable {
  /// Request header names (lowercase) whose values are replaced before an entry is stored.
  package static let redactedHeaders: Set<String> = ["authorization", "cookie"]
  /// What replaces a redacted header value.
  package static let redactedValue = "••••••"
  /// The file name of the HAR export.
  package static let harFileName = "network-inspector.har"
  /// The file name of the cURL export.
  package static let curlFileName = "network-inspector-curl.sh"

  /// The most entries kept; older ones are dropped first.
  package let limit: Int
  private let stored = Protected<[InspectorEntry]>([])

  /// Creates an inspector that keeps at most `limit` entries and starts recording.
  ///
  /// Like most in-app inspectors it is process-wide: every live inspector records the traffic
  /// of every session any inspector is installed in.
  package init(limit: Int = 500) {
    self.limit = max(1, limit)
    InspectorURLProtocol.register(self)
  }

  /// Adds the capturing protocol to `configuration`, so sessions made from it are recorded.
  package func install(into configuration: URLSessionConfiguration) {
    let existing = configuration.protocolClasses ?? []
    guard !existing.contains(where: { $0 == InspectorURLProtocol.self }) else { return }
    configuration.protocolClasses = [InspectorURLProtocol.self] + existing
  }

  /// A session made from `configuration` (by default ephemeral without a URL cache: on Linux
  /// FoundationNetworking traps when a task is cancelled during its cache lookup) with the
  /// inspector installed.
  package func makeSession(configuration: URLSessionConfiguration? = nil) -> URLSession {
    let configuration = configuration ?? .uncachedEphemeral
    install(into: configuration)
    return URLSession(configuration: configuration)
  }

  /// The recorded exchanges, oldest first.
  package var entries: [InspectorEntry] {
    stored.withLock { $0 }
  }

  /// Forgets every recorded exchange.
  package func clear() {
    stored.withLock { $0.removeAll() }
  }

  /// Writes the HAR file and the cURL commands into `directory` and returns their URLs.
  @discardableResult
  package func export(to directory: URL) throws -> [URL] {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let entries = self.entries
    let har = directory.appendingPathComponent(Self.harFileName)
    try HTTPArchive(entries: entries).jsonData().write(to: har, options: .atomic)
    let curl = directory.appendingPathComponent(Self.curlFileName)
    let script = (["#!/bin/sh"] + entries.map { $0.curlCommand() }).joined(separator: "\n") + "\n"
    try Data(script.utf8).write(to: curl, options: .atomic)
    return [har, curl]
  }

  /// Stores an entry with sensitive request headers redacted.
  func record(_ entry: InspectorEntry) {
    var entry = entry
    entry.requestHeaders = entry.requestHeaders.map { header in
      guard Self.redactedHeaders.contains(header.name.lowercased()) else { return header }
      return InspectorEntry.Header(name: header.name, value: Self.redactedValue)
    }
    stored.withLock { entries in
      entries.append(entry)
      if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }
  }
}
