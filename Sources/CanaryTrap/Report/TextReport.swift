extension LeakReport {
  /// The plain-text report: the verdict, the location × source matrix, the findings, the
  /// undelivered canaries, the sources and the errors, ending with the verdict line again.
  func textRendering() -> String {
    String(decoding: ReportTextSink.collect { try writeText(to: $0) }, as: UTF8.self)
  }

  /// Writes `textRendering()` to `sink` section by section, finding by finding.
  func writeText(to sink: ReportTextSink) throws {
    var lines: [String] = ["CanaryTrap report: \(title)"]
    if let sourceLocation {
      lines.append("Written at: \(sourceLocation.fileID):\(sourceLocation.line):\(sourceLocation.column)")
    }
    lines.append("Verdict: \(verdictLine)")
    lines.append("")
    lines += textMatrix()
    try sink.lines(lines.map(\.withControlCharactersEscaped))
    try writeTextFindings(to: sink)
    lines = textUndelivered()
    try sink.lines(lines.map(\.withControlCharactersEscaped))
    try writeTextSources(to: sink)
    lines = []
    if !errors.isEmpty {
      lines.append("")
      lines.append("Errors (\(errors.count)):")
      lines += errors.map { "  - \($0)" }
    }
    lines.append("")
    lines.append(verdictLine)
    try sink.lines(lines.map(\.withControlCharactersEscaped))
  }

  /// The planted locations the text matrix lists in full; past them, it lists only the rows that
  /// leaked or went undelivered, at most ``textListLimit``, and counts the rest.
  static let textMatrixFullRows = 100
  /// The most matrix rows that leaked or went undelivered, and the most undelivered canaries, the
  /// text report lists; the JSON report lists them all.
  static let textListLimit = 500

  private func textMatrix() -> [String] {
    let matrix = ReportMatrix(self)
    guard !matrix.rows.isEmpty else { return ["No canary was planted."] }
    var rows = matrix.rows
    var quietRows = 0
    var unlistedNotableRows = 0
    if rows.count > Self.textMatrixFullRows {
      let notable = rows.filter { $0.hasLeak || $0.delivery == .undelivered }
      quietRows = rows.count - notable.count
      rows = Array(notable.prefix(Self.textListLimit))
      unlistedNotableRows = notable.count - rows.count
    }
    var table: [[String]] = [
      ["location", "delivery"]
        + matrix.columns.map { $0.status == .heard ? $0.name : "\($0.name) (\($0.status.label))" }
    ]
    for row in rows {
      let delivery =
        switch row.delivery {
        case .delivered: "delivered"
        case .undelivered: "UNDELIVERED"
        case .unchecked: "-"
        }
      table.append(
        [row.location.description, delivery]
          + row.cells.map { $0.isEmpty ? "." : $0.joined(separator: ",") })
    }
    var widths = Array(repeating: 0, count: table[0].count)
    for row in table {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    var lines = [
      "Matrix (rows: planted locations; columns: sources; cells: encodings leaked, \".\" none):"
    ]
    for row in table {
      let padded = row.enumerated().map { index, cell in
        index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
      }
      lines.append("  " + padded.joined(separator: "  "))
    }
    if quietRows > 0 {
      lines.append(
        "  (\(count(quietRows, rows.isEmpty ? "planted location" : "more planted location")) not listed:"
          + " found in no source, none undelivered)")
    }
    if unlistedNotableRows > 0 {
      lines.append(
        "  (\(count(unlistedNotableRows, "more location")) that leaked or went undelivered not listed:"
          + " see the findings and the JSON report)")
    }
    if matrix.omittedCleanSources > 0 {
      lines.append(
        "  (\(count(matrix.omittedCleanSources, "more source")) heard the run and held no canary)")
    }
    return lines
  }

  private func writeTextFindings(to sink: ReportTextSink) throws {
    guard !findings.isEmpty else { return try sink.lines(["", "Findings: none."]) }
    let total = totalFindingCount
    try sink.lines([
      "", total == findings.count ? "Findings (\(total)):" : "Findings (\(total), \(findings.count) listed):",
    ])
    for (index, finding) in findings.enumerated() {
      try sink.line(
        ("  \(index + 1). \(finding.canary.location) -> \(finding.source), \(finding.encoding),"
          + " line \(finding.line):\(finding.column)\(finding.canary.location.resentNote)")
          .withControlCharactersEscaped)
      try sink.line("     excerpt: \(finding.excerpt)".withControlCharactersEscaped)
    }
    if let summary = omittedFindingsSummary {
      var lines = ["  Not listed: \(summary):"]
      lines += omittedFindingsLines.map { "    - \($0)" }
      try sink.lines(lines.map(\.withControlCharactersEscaped))
    }
  }

  private func textUndelivered() -> [String] {
    if deliveries.isEmpty { return ["", "Delivery: not checked."] }
    guard !undelivered.isEmpty else {
      return ["", "Delivery: all \(count(deliveries.count, "canary")) delivered."]
    }
    var lines = ["", "Undelivered canaries (\(undelivered.count)):"]
    for delivery in undelivered.prefix(Self.textListLimit) {
      lines.append("  - \(delivery.canary.location): \(delivery.reason ?? "unknown reason")")
    }
    if undelivered.count > Self.textListLimit {
      lines.append(
        "  (\(undelivered.count - Self.textListLimit) more not listed: see the JSON report)")
    }
    return lines
  }

  private func writeTextSources(to sink: ReportTextSink) throws {
    guard !sources.isEmpty else { return try sink.lines(["", "Sources: none scanned."]) }
    try sink.lines(["", "Sources (\(sources.count)):"])
    for source in sources {
      var line = "  - \(source.name): \(source.status.label), \(count(source.bytes, "byte"))"
      if let reason = source.status.reason { line += " (\(reason))" }
      try sink.line(line.withControlCharactersEscaped)
    }
  }
}

extension String {
  /// The string with every control character (newlines, escape sequences, NUL) written as
  /// `\u{XX}`, so that a line of a text report stays one line and cannot drive a terminal.
  var withControlCharactersEscaped: String {
    // Printable ASCII, the common case, has no control character.
    if utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return self }
    var result = ""
    for scalar in unicodeScalars {
      if scalar.properties.generalCategory == .control {
        result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
