/// The location × source grid that the text and HTML reports draw: one row per planted location,
/// one column per source, each cell naming the encodings found there.
struct ReportMatrix {
  /// How a row's canaries fared in the delivery proof.
  enum Delivery {
    case delivered
    case undelivered
    case unchecked
  }

  /// One planted location.
  struct Row {
    var location: CanaryLocation
    var delivery: Delivery
    /// The encodings found, per column, in order of first finding.
    var cells: [[String]]

    /// Whether any source held this location's canary.
    var hasLeak: Bool { cells.contains { !$0.isEmpty } }
  }

  /// One source.
  struct Column {
    var name: String
    var status: ScannedSource.Status
  }

  var columns: [Column]
  var rows: [Row]
  /// Sources that heard the run and held no canary, left out to keep the grid narrow.
  var omittedCleanSources: Int

  /// Builds the grid; past `maxColumns` sources, clean sources that heard the run are left out.
  init(_ report: LeakReport, maxColumns: Int = 8) {
    var statusByName: [String: ScannedSource.Status] = [:]
    var names: [String] = []
    for source in report.sources where statusByName[source.name] == nil {
      statusByName[source.name] = source.status
      names.append(source.name)
    }
    for finding in report.findings where statusByName[finding.source] == nil {
      statusByName[finding.source] = .heard
      names.append(finding.source)
    }
    let sourcesWithFindings = Set(report.findings.map(\.source))
    var kept = names
    if names.count > maxColumns {
      kept = names.filter { sourcesWithFindings.contains($0) || statusByName[$0] != .heard }
    }
    omittedCleanSources = names.count - kept.count
    columns = kept.map { Column(name: $0, status: statusByName[$0] ?? .heard) }

    var locations: [CanaryLocation] = []
    var seen = Set<CanaryLocation>()
    for location in report.canaries.map(\.location) + report.findings.map(\.canary.location)
    where seen.insert(location).inserted {
      locations.append(location)
    }
    let columnIndex = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0) })
    var cellsByLocation: [CanaryLocation: [[String]]] = [:]
    for finding in report.findings {
      guard let column = columnIndex[finding.source] else { continue }
      var cells = cellsByLocation[finding.canary.location] ?? Array(repeating: [], count: kept.count)
      if !cells[column].contains(finding.encoding) { cells[column].append(finding.encoding) }
      cellsByLocation[finding.canary.location] = cells
    }
    // Whether each location's canaries were all delivered, in one pass over the records.
    var allDelivered: [CanaryLocation: Bool] = [:]
    for record in report.deliveries where allDelivered[record.canary.location] != false {
      allDelivered[record.canary.location] = record.isDelivered
    }
    rows = locations.map { location in
      let delivery: Delivery =
        switch allDelivered[location] {
        case nil: .unchecked
        case true?: .delivered
        case false?: .undelivered
        }
      return Row(
        location: location, delivery: delivery,
        cells: cellsByLocation[location] ?? Array(repeating: [], count: kept.count))
    }
  }
}
