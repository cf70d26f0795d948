import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file format a ``LeakReport`` can be rendered in, for people (text, HTML) and for CI (JSON,
/// JUnit XML, SARIF).
package enum ReportFormat: String, Sendable, Hashable, CaseIterable {
  /// A plain-text page: the location × source matrix, the findings and a one-line verdict.
  case text
  /// The stable JSON document, as ``LeakReport/jsonData(prettyPrinted:)`` writes it.
  case json
  /// JUnit XML with one test case per planted location, for CI test dashboards.
  case junit
  /// SARIF 2.1.0 with one result per leak, for code-scanning dashboards.
  case sarif
  /// A self-contained HTML page with the matrix as a coloured grid.
  case html

  /// The file name extension, without the leading dot, such as `junit.xml`.
  package var fileExtension: String {
    switch self {
    case .text: "txt"
    case .json: "json"
    case .junit: "junit.xml"
    case .sarif: "sarif"
    case .html: "html"
    }
  }

  /// The MIME type of the rendered bytes.
  package var mediaType: String {
    switch self {
    case .text: "text/plain; charset=utf-8"
    case .json: "application/json"
    case .junit: "application/xml"
    case .sarif: "application/sarif+json"
    case .html: "text/html; charset=utf-8"
    }
  }
}

extension LeakReport {
  /// The report rendered in `format` as UTF-8 bytes; the same report always renders the same bytes.
  package func rendered(as format: ReportFormat) -> Data {
    switch format {
    case .text: ReportTextSink.collect { try writeText(to: $0) }
    case .json: renderedJSON()
    case .junit: ReportTextSink.collect { try writeJUnit(to: $0) }
    case .sarif: sarifData()
    case .html: ReportTextSink.collect { try writeHTML(to: $0) }
    }
  }

  /// Writes the report in every format to `directory` (created if missing) as
  /// `baseName.<extension>`, replacing files of the same name, and returns the files written.
  @discardableResult
  package func write(to directory: URL, baseName: String) throws -> [URL] {
    try write(to: directory, baseName: baseName, formats: ReportFormat.allCases)
  }

  /// Writes the report in each of `formats` to `directory` (created if missing) as
  /// `baseName.<extension>`, and returns the files written.
  @discardableResult
  package func write(to directory: URL, baseName: String, formats: [ReportFormat]) throws -> [URL] {
    let name = ReportFileName.sanitized(baseName)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try formats.map { format in
      let url = directory.appendingPathComponent("\(name).\(format.fileExtension)")
      try writeStreaming(format, to: url)
      return url
    }
  }

  /// Streams the report in `format` into a temporary file beside `url`, then renames it over
  /// `url`, so a reader never sees half a report and the whole document is never in memory.
  private func writeStreaming(_ format: ReportFormat, to url: URL) throws {
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
    }
    do {
      let handle = try FileHandle(forWritingTo: temporary)
      defer { try? handle.close() }
      try streamRendering(as: format) { try handle.write(contentsOf: $0) }
      try handle.synchronize()
      guard rename(temporary.path, url.path) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }

  /// The JSON report; encoding these plain strings and integers cannot fail.
  private func renderedJSON() -> Data {
    do {
      return try jsonData()
    } catch {
      preconditionFailure("encoding a LeakReport as JSON failed: \(error)")
    }
  }
}
