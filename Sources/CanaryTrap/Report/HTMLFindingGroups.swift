/// The findings of a report as the HTML page shows them: grouped by location family, then by
/// sink, with the values each filter offers, and at most ``maxListed`` findings listed.
struct HTMLFindingGroups {
  /// The most findings one page lists; the rest are counted in their group and in the page.
  static let maxListed = 1_000

  /// The findings of one sink within one family.
  struct SinkGroup {
    var sink: String
    /// Index of the sink among ``sinks``.
    var sinkIndex: Int
    /// Every finding of the group, listed or not.
    var count: Int
    /// The findings listed, within ``maxListed`` for the page.
    var listed: [LeakFinding]
  }

  /// The findings of one location family.
  struct FamilyGroup {
    var family: String
    /// Index of the family among ``families``.
    var familyIndex: Int
    var count: Int
    var sinks: [SinkGroup]
  }

  /// Each sink with findings, in order of first finding, and how many.
  var sinks: [(name: String, count: Int)] = []
  /// Each encoding found, sorted by name, and how many.
  var encodings: [(name: String, count: Int)] = []
  /// Each location family with findings, in order of first finding, and how many.
  var families: [(name: String, count: Int)] = []
  var groups: [FamilyGroup] = []
  /// Findings of the report not listed on the page (past ``maxListed``).
  var unlisted = 0

  init(_ findings: [LeakFinding], maxListed: Int = HTMLFindingGroups.maxListed) {
    var sinkIndex: [String: Int] = [:]
    var familyIndex: [String: Int] = [:]
    var encodingCount: [String: Int] = [:]
    var members: [[Int: [LeakFinding]]] = []  // per family: sink index → findings, in order
    var sinkOrder: [[Int]] = []
    for finding in findings {
      let family = finding.canary.location.family
      if sinkIndex[finding.source] == nil {
        sinkIndex[finding.source] = sinks.count
        sinks.append((finding.source, 0))
      }
      let sink = sinkIndex[finding.source]!
      sinks[sink].count += 1
      if familyIndex[family] == nil {
        familyIndex[family] = families.count
        families.append((family, 0))
        members.append([:])
        sinkOrder.append([])
      }
      let familyAt = familyIndex[family]!
      families[familyAt].count += 1
      if members[familyAt][sink] == nil { sinkOrder[familyAt].append(sink) }
      members[familyAt][sink, default: []].append(finding)
      encodingCount[finding.encoding, default: 0] += 1
    }
    encodings = encodingCount.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    var budget = maxListed
    for (index, family) in families.enumerated() {
      var group = FamilyGroup(family: family.name, familyIndex: index, count: family.count, sinks: [])
      for sink in sinkOrder[index] {
        let all = members[index][sink] ?? []
        let listed = Array(all.prefix(budget))
        budget -= listed.count
        unlisted += all.count - listed.count
        group.sinks.append(
          SinkGroup(sink: sinks[sink].name, sinkIndex: sink, count: all.count, listed: listed))
      }
      groups.append(group)
    }
  }

  /// Index of `encoding` among ``encodings``.
  func encodingIndex(_ encoding: String) -> Int {
    encodings.firstIndex { $0.name == encoding } ?? 0
  }

  /// The style rules that make the filters work without a script: for each choice, `:has()`
  /// hides the groups and findings that do not match. Only indexes appear in the rules, never a
  /// name from the report.
  var filterCSS: String {
    var rules: [String] = []
    for index in sinks.indices {
      let on = "body:has(#fs-\(index):checked)"
      rules.append(
        "\(on) .sink-group:not(.s-\(index)), \(on) .family-group:not(:has(.s-\(index))) { display: none; }")
    }
    for index in encodings.indices {
      let on = "body:has(#fe-\(index):checked)"
      rules.append(
        "\(on) .finding:not(.e-\(index)), \(on) .sink-group:not(:has(.e-\(index))),"
          + " \(on) .family-group:not(:has(.e-\(index))) { display: none; }")
    }
    for index in families.indices {
      rules.append("body:has(#ff-\(index):checked) .family-group:not(.f-\(index)) { display: none; }")
    }
    return rules.joined(separator: "\n") + "\n"
  }
}

extension Canary {
  /// The value with its middle hidden, such as `ct_A…x9 (32 chars)`: enough to tell canaries
  /// apart without printing them whole.
  var maskedValue: String {
    let characters = Array(value)
    guard characters.count > 8 else { return String(repeating: "•", count: characters.count) }
    return String(characters.prefix(4)) + "…" + String(characters.suffix(2)) + " (\(characters.count) chars)"
  }
}
