extension LeakReport {
  /// The verdict in one line, such as `LEAKY: 41 leaks at 38 locations`,
  /// `clean: 64 of 64 canaries delivered, 3 sources heard` or
  /// `INCONCLUSIVE: 2 canaries undelivered`.
  package var verdictLine: String {
    switch verdict {
    case .leaky:
      return "LEAKY: \(count(totalFindingCount, "leak")) at \(count(leakedLocations.count, "location"))"
    case .inconclusive:
      let failed = problemSources.filter { if case .failed = $0.status { true } else { false } }
      let silent = problemSources.count - failed.count
      var parts: [String] = []
      if !undelivered.isEmpty { parts.append("\(count(undelivered.count, "canary")) undelivered") }
      if silent > 0 { parts.append("\(count(silent, "source")) silent") }
      if !failed.isEmpty { parts.append("\(count(failed.count, "source")) unreadable") }
      if !errors.isEmpty { parts.append(count(errors.count, "error")) }
      return "INCONCLUSIVE: " + parts.joined(separator: ", ")
    case .clean:
      let heard = "\(count(sources.count, "source")) heard"
      if deliveries.isEmpty {
        return "clean: no canary found, \(heard) (delivery not checked)"
      }
      return "clean: \(deliveries.count) of \(count(deliveries.count, "canary")) delivered, \(heard)"
    }
  }
}

/// `1 leak`, `2 leaks`, `3 canaries`.
func count(_ number: Int, _ noun: String) -> String {
  if number == 1 { return "1 \(noun)" }
  if noun.hasSuffix("y") { return "\(number) \(noun.dropLast())ies" }
  return "\(number) \(noun)s"
}
