import Foundation

/// A file format a ``LeakReport`` can be rendered in, for people (text, HTML) and for CI (JSON,
/// JUnit XML, SARIF).
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
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
  public var fileExtension: String {
    switch self {
    case .text: "txt"
    case .json: "json"
    case .junit: "junit.xml"
    case .sarif: "sarif"
    case .html: "html"
    }
  }

  /// The MIME type of the rendered bytes.
  public var mediaType: String {
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
  public func rendered(as format: ReportFormat) -> Data {
    switch format {
    case .text: Data(textRendering().utf8)
    case .json: renderedJSON()
    case .junit: Data(junitRendering().utf8)
    case .sarif: sarifData()
    case .html: Data(htmlRendering().utf8)
    }
  }

  /// Writes the report in every format to `directory` (created if missing) as
  /// `baseName.<extension>`, replacing files of the same name, and returns the files written.
  @discardableResult
  public func write(to directory: URL, baseName: String) throws -> [URL] {
    try write(to: directory, baseName: baseName, formats: ReportFormat.allCases)
  }

  /// Writes the report in each of `formats` to `directory` (created if missing) as
  /// `baseName.<extension>`, and returns the files written.
  @discardableResult
  public func write(to directory: URL, baseName: String, formats: [ReportFormat]) throws -> [URL] {
    let name = ReportFileName.sanitized(baseName)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return try formats.map { format in
      let url = directory.appendingPathComponent("\(name).\(format.fileExtension)")
      try rendered(as: format).write(to: url, options: .atomic)
      return url
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
