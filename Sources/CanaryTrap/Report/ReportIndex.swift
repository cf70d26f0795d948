import CanaryTrapPrimitives
import Foundation

/// The index page of a folder of reports, `index.html`: one row per HTML report with its title,
/// verdict and counts, leaky ones first, linking each report and its other formats.
///
/// Written by ``LeakReport/writeUniquely(to:name:)`` after every report, so the folder that
/// `CANARY_TRAP_REPORT_DIR` names always has one. It reads only the first few kilobytes of each
/// page (the `canarytrap-*` meta tags the report writes), lists at most ``maxListed`` reports
/// and says how many it left out; like the reports, it loads nothing and runs no script.
package enum ReportIndex {
  /// The index's file name.
  package static let fileName = "index.html"
  /// The most reports the index lists.
  package static let maxListed = 5_000
  /// How much of each page is read to find its meta tags.
  static let headBytes = 8_192

  /// One report in the folder.
  struct Entry {
    var baseName: String
    var title: String
    var verdict: String
    var findings: Int
    var problems: Int
  }

  /// Serializes writers in this process, so two scopes finishing together never drop a row.
  private static let writing = Locked(())

  /// Writes `index.html` for the reports in `directory` and returns its URL.
  @discardableResult
  package static func write(in directory: URL) throws -> URL {
    try writing.withLock { _ in
      let url = directory.appendingPathComponent(fileName)
      try Data(rendering(directory: directory).utf8).write(to: url, options: .atomic)
      return url
    }
  }

  /// The index page for `directory`.
  static func rendering(directory: URL) throws -> String {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    let pages = names.filter { $0.hasSuffix(".html") && $0 != fileName }.sorted()
    var entries: [Entry] = []
    var foreign = 0
    for page in pages {
      guard let entry = entry(for: page, in: directory) else {
        foreign += 1
        continue
      }
      entries.append(entry)
    }
    let present = Set(names)
    return html(entries, foreign: foreign, present: present)
  }

  /// The report's title, verdict and counts from the head of its page; nil for a page CanaryTrap
  /// did not write.
  static func entry(for page: String, in directory: URL) -> Entry? {
    guard let handle = FileHandle(forReadingAtPath: directory.appendingPathComponent(page).path) else {
      return nil
    }
    defer { try? handle.close() }
    let head = String(decoding: handle.readData(ofLength: headBytes), as: UTF8.self)
    guard let verdict = meta("canarytrap-verdict", in: head),
      ["clean", "leaky", "inconclusive"].contains(verdict)
    else { return nil }
    var title = page
    if let open = head.range(of: "<title>CanaryTrap: "), let close = head.range(of: "</title>"),
      open.upperBound <= close.lowerBound
    {
      title = unescaped(String(head[open.upperBound..<close.lowerBound]))
    }
    return Entry(
      baseName: String(page.dropLast(".html".count)), title: title, verdict: verdict,
      findings: meta("canarytrap-findings", in: head).flatMap { Int($0) } ?? 0,
      problems: meta("canarytrap-problems", in: head).flatMap { Int($0) } ?? 0)
  }

  private static func meta(_ name: String, in head: String) -> String? {
    guard let start = head.range(of: "<meta name=\"\(name)\" content=\"") else { return nil }
    guard let end = head[start.upperBound...].firstIndex(of: "\"") else { return nil }
    return String(head[start.upperBound..<end])
  }

  /// Undoes the escapes `markupEscaped` writes, so the title is escaped exactly
  /// once when shown again; anything else stays as text and is escaped.
  private static func unescaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  private static let verdictOrder = ["leaky": 0, "inconclusive": 1, "clean": 2]

  static func html(_ entries: [Entry], foreign: Int, present: Set<String>) -> String {
    let sorted = entries.sorted {
      (verdictOrder[$0.verdict] ?? 3, $0.baseName) < (verdictOrder[$1.verdict] ?? 3, $1.baseName)
    }
    let listed = sorted.prefix(maxListed)
    let tally = Dictionary(grouping: entries, by: \.verdict).mapValues(\.count)
    var html = [
      "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
      "<title>CanaryTrap reports</title>",
      "<style>\n\(HTMLStyle.css)"
        + ["leaky", "inconclusive", "clean"].map {
          "body:has(#fv-\($0):checked) tr.report:not(.v-\($0)) { display: none; }\n"
        }.joined() + "</style>",
      "</head>", "<body>", "<h1>CanaryTrap reports</h1>",
    ]
    let worst = tally["leaky"] != nil ? "leaky" : tally["inconclusive"] != nil ? "inconclusive" : "clean"
    html.append(
      "<div class=\"verdict verdict-\(worst)\">\(count(entries.count, "report")): \(tally["leaky"] ?? 0) leaky,"
        + " \(tally["inconclusive"] ?? 0) inconclusive, \(tally["clean"] ?? 0) clean</div>")
    html.append("<form class=\"filters\" aria-label=\"Filter reports\"><fieldset><legend>Verdict</legend>")
    html.append("<label><input type=\"radio\" name=\"fv\" id=\"fv-all\" checked> all</label>")
    for verdict in ["leaky", "inconclusive", "clean"] {
      html.append(
        "<label><input type=\"radio\" name=\"fv\" id=\"fv-\(verdict)\"> \(verdict)"
          + " <span class=\"count\">\(tally[verdict] ?? 0)</span></label>")
    }
    html.append("</fieldset></form>")
    html += [
      "<div class=\"scroll\">", "<table class=\"matrix index\">",
      "<thead><tr><th class=\"location\">Report</th><th>Verdict</th><th>Leaks</th><th>Other problems</th>"
        + "<th>Files</th></tr></thead>", "<tbody>",
    ]
    for entry in listed {
      let link = Self.href(entry.baseName + ".html")
      var files: [String] = []
      for format in ReportFormat.allCases where format != .html {
        let file = "\(entry.baseName).\(format.fileExtension)"
        if present.contains(file) { files.append("<a href=\"\(Self.href(file))\">\(format.rawValue)</a>") }
      }
      let cellClass = entry.verdict == "clean" ? "none" : entry.verdict == "leaky" ? "leak" : "undelivered"
      html.append(
        "<tr class=\"report v-\(entry.verdict)\"><th scope=\"row\" class=\"location\"><a href=\"\(link)\">"
          + "\(entry.title.markupEscaped)</a></th><td class=\"cell \(cellClass)\">\(entry.verdict)</td>"
          + "<td>\(entry.findings)</td><td>\(entry.problems)</td><td>\(files.joined(separator: " "))</td></tr>"
      )
    }
    html += ["</tbody>", "</table>", "</div>"]
    if sorted.count > listed.count {
      html.append(
        "<p class=\"problem\">\(count(sorted.count - listed.count, "more report")) not listed"
          + " (at most \(maxListed) are).</p>")
    }
    if foreign > 0 {
      html.append(
        "<p class=\"legend\">\(count(foreign, "other HTML file")) in this folder not written by CanaryTrap.</p>"
      )
    }
    html += ["<footer>Generated by CanaryTrap.</footer>", "</body>", "</html>"]
    return html.joined(separator: "\n") + "\n"
  }

  /// A file name as a relative link: every byte but unreserved ones percent-encoded.
  private static func href(_ name: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return (name.addingPercentEncoding(withAllowedCharacters: allowed) ?? "report.html").markupEscaped
  }
}
