import CanaryTrap

/// The short location × sink grid the demo prints per example: one row per kind of location,
/// one column per sink, each cell the number of that row's planted locations found in the sink.
struct DemoSummary {
  /// A kind of location, the rows of the grid.
  enum Row: String, CaseIterable {
    case requestURL = "request URL"
    case requestHeader = "request headers"
    case requestCookie = "request cookies"
    case requestBody = "request bodies"
    case responseHeader = "response headers"
    case responseCookie = "response cookies"
    case responseBody = "response bodies"
    case redirect = "redirect Locations"
    case finalURL = "final URLs"
    case webSocket = "WebSocket messages"
    case failedExchange = "failed exchanges"
    case other = "other"

    /// The row of `location`.
    init(_ location: CanaryLocation) {
      switch location {
      case .requestURL: self = .requestURL
      case .requestHeader, .requestCredential: self = .requestHeader
      case .requestCookie: self = .requestCookie
      case .requestBody: self = .requestBody
      case .responseHeader, .responseLocation, .informationalHeader, .responseTrailer: self = .responseHeader
      case .responseCookie: self = .responseCookie
      case .responseBody: self = .responseBody
      case .redirect: self = .redirect
      case .finalURL: self = .finalURL
      case .webSocket: self = .webSocket
      case .failedExchange: self = .failedExchange
      case .clientHeld, .custom: self = .other
      }
    }
  }

  let report: LeakReport

  /// The grid as text lines, indented by two spaces.
  var lines: [String] {
    let columns = uniqueSinkNames
    let planted = Dictionary(grouping: Set(report.canaries.map(\.location)), by: Row.init)
    var leakedBySource: [String: Set<CanaryLocation>] = [:]
    for finding in report.findings {
      leakedBySource[Self.sinkName(finding.source), default: []].insert(finding.canary.location)
    }
    let leaked = Set(report.leakedLocations)
    let header = ["location", "planted", "leaked"] + columns.map(columnTitle)
    var table = [header]
    for row in Row.allCases {
      guard let locations = planted[row], !locations.isEmpty else { continue }
      let set = Set(locations)
      var cells = [row.rawValue, "\(set.count)", cell(set.intersection(leaked).count)]
      for column in columns {
        cells.append(cell(set.intersection(leakedBySource[column] ?? []).count))
      }
      table.append(cells)
    }
    let widths = header.indices.map { index in table.map { $0[index].count }.max() ?? 0 }
    return table.map { cells in
      "  "
        + cells.enumerated().map { index, text in
          index == 0
            ? text.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            : String(repeating: " ", count: widths[index] - text.count) + text
        }.joined(separator: "  ")
    }
  }

  /// The sink a source belongs to: an ingest sink's uploads (`ingest /api/v2/breadcrumbs upload
  /// 3 item 2`) are one column, `ingest /api/v2/breadcrumbs`, however the app batched them, so
  /// the grid is as wide and reads the same every run.
  static func sinkName(_ source: String) -> String {
    source.range(of: " upload ").map { String(source[..<$0.lowerBound]) } ?? source
  }

  /// Sink names in first-seen order, without repeats.
  private var uniqueSinkNames: [String] {
    var seen = Set<String>()
    return (report.sources.map(\.name) + report.findings.map(\.source)).map(Self.sinkName).filter {
      seen.insert($0).inserted
    }
  }

  /// A column's title: the sink's name, marked when it heard nothing or could not be read (any
  /// of its sources, for a sink of several).
  private func columnTitle(_ name: String) -> String {
    let statuses = report.sources.filter { Self.sinkName($0.name) == name }.map(\.status)
    if statuses.contains(where: { if case .failed = $0 { true } else { false } }) {
      return name + " (failed)"
    }
    if !statuses.isEmpty, statuses.allSatisfy({ if case .silent = $0 { true } else { false } }) {
      return name + " (silent)"
    }
    return name
  }

  private func cell(_ count: Int) -> String {
    count == 0 ? "·" : "\(count)"
  }
}
