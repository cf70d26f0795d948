import Foundation
import Testing

@testable import CanaryTrap

/// The HTML report's layout: findings grouped by location family and sink, the canary marked in
/// each excerpt, filters without a script, a bounded page, and the index of a report folder.
@Suite struct HTMLReportTests {
  private func html(_ report: LeakReport) -> String {
    String(decoding: report.rendered(as: .html), as: UTF8.self)
  }

  /// A report of `log` scanned for `canaries` as the source `source`.
  private func scanned(_ log: String, source: String, canaries: [Canary]) -> [LeakFinding] {
    LeakScanner(canaries: canaries).scan(Data(log.utf8), source: source)
  }

  private static let header = Canary(
    value: "cnryHTMLheader00001", location: .requestHeader("Authorization"), shape: .token)
  private static let query = Canary(
    value: "cnryHTMLquery000002", location: .requestURL(.query("sig")), shape: .token)
  private static let cookie = Canary(
    value: "cnryHTMLcookie00003", location: .requestHeader("X-Session"), shape: .token)

  /// Two header leaks in two sinks, a query leak in one, in several encodings.
  private var grouped: LeakReport {
    let canaries = [Self.header, Self.query, Self.cookie]
    let app = scanned(
      "auth \(Self.header.value)\nsig=\(Self.query.value)\nsession \(Data(Self.cookie.value.utf8).base64EncodedString())\n",
      source: "app.log", canaries: canaries)
    let out = scanned("AUTH \(Self.header.value.uppercased())\n", source: "stdout", canaries: canaries)
    return LeakReport(
      title: "grouped", canaries: canaries, findings: app + out,
      sources: [ScannedSource(name: "app.log", bytes: 90), ScannedSource(name: "stdout", bytes: 30)])
  }

  @Test func findingsAreGroupedByLocationFamilyThenSinkWithCounts() {
    let report = grouped
    #expect(report.findings.count == 4)
    let page = html(report)
    #expect(
      page.contains(
        "<details class=\"family-group f-0\" open><summary><code>request.header</code>"
          + " <span class=\"count\">3 findings in 2 sinks</span></summary>"))
    #expect(
      page.contains(
        "<details class=\"family-group f-1\" open><summary><code>request.url.query</code>"
          + " <span class=\"count\">1 finding in 1 sink</span></summary>"))
    #expect(page.contains("into <code>app.log</code> <span class=\"count\">2 findings</span>"))
    #expect(page.contains("into <code>stdout</code> <span class=\"count\">1 finding</span>"))
    #expect(page.components(separatedBy: "<li class=\"finding ").count - 1 == 4)
  }

  @Test func theCanaryIsMarkedInEveryExcerptInItsEncoding() {
    let page = html(grouped)
    #expect(page.contains("auth <mark>cnryHTMLheader00001</mark>"))
    #expect(page.contains("sig=<mark>cnryHTMLquery000002</mark>"))
    #expect(page.contains("AUTH <mark>CNRYHTMLHEADER00001</mark>"), "a case-changed copy is marked too")
    let base64 = Data(Self.cookie.value.utf8).base64EncodedString()
    let marked = page.components(separatedBy: "<mark>").dropFirst().map { $0.prefix { $0 != "<" } }
    #expect(
      marked.contains { !$0.isEmpty && base64.contains($0) && $0.count >= 16 },
      "the base64 form is marked: \(marked)")
  }

  @Test func aFindingShowsTheMaskedValueTheShapeAndThePlantingLine() {
    var report = grouped
    report.findings[0].plantedAt = ReportSourceLocation(
      fileID: "AppTests/SignInTests.swift", filePath: "/x/SignInTests.swift", line: 31, column: 5)
    let page = html(report)
    #expect(page.contains("<span class=\"value\" title=\"canary value, masked\">cnry…01 (19 chars)</span>"))
    #expect(page.contains("<span class=\"shape\">token</span>"))
    #expect(page.contains("planted at <code>AppTests/SignInTests.swift:31</code>"))
    #expect(Canary(value: "short", location: .custom("x")).maskedValue == "•••••")
  }

  @Test func filtersAreRadioButtonsAndStyleRulesNotAScript() {
    let page = html(grouped)
    #expect(!page.lowercased().contains("<script"))
    for id in ["fs-all", "fs-0", "fs-1", "fe-all", "ff-0", "ff-1"] {
      #expect(page.contains("id=\"\(id)\""), "filter \(id)")
    }
    #expect(page.contains("body:has(#fs-1:checked) .sink-group:not(.s-1)"))
    #expect(page.contains("body:has(#ff-0:checked) .family-group:not(.f-0)"))
    // Each finding carries the class its encoding filter hides it by, and each encoding is offered.
    let groups = HTMLFindingGroups(grouped.findings)
    #expect(groups.encodings.map(\.name) == ["base64", "case-insensitive", "raw"])
    for (index, encoding) in groups.encodings.enumerated() {
      #expect(page.contains("<li class=\"finding e-\(index)\">"), "a finding of \(encoding.name)")
      #expect(page.contains("body:has(#fe-\(index):checked) .finding:not(.e-\(index))"))
    }
  }

  @Test func aPagePastTheListingCapSaysHowManyFindingsItLeftOut() {
    let canary = Canary(value: "cnryHTMLmany0000001", location: .requestHeader("X-Many"))
    let findings = (1...(HTMLFindingGroups.maxListed + 5)).map { line in
      LeakFinding(
        canary: canary, encoding: "raw", source: "app.log", line: line, column: 1, offset: line * 20,
        excerpt: canary.value)
    }
    let report = LeakReport(title: "many", canaries: [canary], findings: findings)
    let page = html(report)
    #expect(page.components(separatedBy: "<li class=\"finding ").count - 1 == HTMLFindingGroups.maxListed)
    #expect(
      page.contains("Findings (\(HTMLFindingGroups.maxListed + 5), \(HTMLFindingGroups.maxListed) listed)"))
    #expect(
      page.contains("Not listed on this page: 5 findings past the first \(HTMLFindingGroups.maxListed)"))
    #expect(page.contains("5 more findings of this group not listed on this page"))
    // The twin: at the cap exactly, nothing is said to be left out.
    let atCap = LeakReport(
      title: "at cap", canaries: [canary], findings: Array(findings.prefix(HTMLFindingGroups.maxListed)))
    #expect(!html(atCap).contains("Not listed on this page"))
  }

  @Test func aLargeMatrixShowsOnlyTheRowsWithSomethingToSay() {
    let canaries = (0..<60).map { index in
      Canary(value: "cnryHTMLrow\(String(format: "%08d", index))", location: .requestHeader("X-Row-\(index)"))
    }
    let leak = LeakFinding(
      canary: canaries[7], encoding: "raw", source: "app.log", line: 1, column: 1, offset: 0,
      excerpt: canaries[7].value)
    var deliveries = canaries.map { CanaryDelivery(canary: $0, status: .delivered) }
    deliveries[9].status = .undelivered(reason: "never sent")
    let report = LeakReport(
      title: "rows", canaries: canaries, findings: [leak],
      sources: [ScannedSource(name: "app.log", bytes: 9)],
      deliveries: deliveries)
    let page = html(report)
    let prefix = "<span class=\"family-prefix\">request<wbr>.header</span>"
    #expect(page.contains("<th scope=\"row\" class=\"location\">\(prefix)<wbr>[X-Row-7]</th>"))
    #expect(
      page.contains(
        "<th scope=\"row\" class=\"location\">\(prefix)<wbr>[X-Row-9]"
          + " <span class=\"badge phone-only\">undelivered</span></th>"))
    #expect(!page.contains("[X-Row-8]</th>"))
    #expect(page.contains("58 more locations delivered and found nowhere (not shown)"))
    #expect(page.contains("60 locations, 1 leaked, 1 source, 1 undelivered"))
  }

  /// 90 locations in three families: one collapsed section each, its counts before its name.
  private var threeFamilies: LeakReport {
    let canaries = (0..<90).map { index in
      let location: CanaryLocation =
        switch index % 3 {
        case 0: .requestHeader("X-Row-\(index)")
        case 1: .requestURL(.query("sig\(index)"))
        default: .responseHeader("token\(index)")
        }
      return Canary(value: "cnryHTMLfam\(String(format: "%08d", index))", location: location)
    }
    let leaks = [0, 3, 6, 1].map { index in
      LeakFinding(
        canary: canaries[index], encoding: "raw", source: index == 1 ? "stdout" : "app.log", line: 1,
        column: 1, offset: 0, excerpt: canaries[index].value)
    }
    var deliveries = canaries.map { CanaryDelivery(canary: $0, status: .delivered) }
    deliveries[2].status = .undelivered(reason: "never sent")
    return LeakReport(
      title: "families", canaries: canaries, findings: leaks,
      sources: [ScannedSource(name: "app.log", bytes: 9), ScannedSource(name: "stdout", bytes: 9)],
      deliveries: deliveries)
  }

  @Test func aLargeGridCollapsesIntoOneSectionPerFamilyWithItsCountsFirst() {
    let page = html(threeFamilies)
    #expect(page.components(separatedBy: "<details class=\"matrix-family\">").count - 1 == 3)
    #expect(!page.contains("<details class=\"matrix-family\" open>"), "families open collapsed")
    #expect(
      page.contains(
        "<summary><span class=\"tally leaked\">3/30 leaked</span> <code class=\"family\">request<wbr>.header</code>"
          + " <span class=\"count per-source\">into app<wbr>.log&nbsp;3</span>"
          + "<span class=\"count phone-only\">into 1 source</span></summary>"))
    #expect(
      page.contains(
        "<span class=\"tally none\">0/30 leaked</span> <code class=\"family\">response<wbr>.header</code>"
          + " <span class=\"tally-warn\">1 undelivered</span></summary>"))
    #expect(page.contains("<span class=\"tally leaked\">1/30 leaked</span>"))
    #expect(page.contains("27 locations of this family delivered and found nowhere (not listed)."))
    #expect(page.contains("29 locations of this family delivered and found nowhere (not listed)."))
    #expect(page.contains("85 more locations delivered and found nowhere (not shown)"))
    // Only rows with something to say: the 4 leaked and the undelivered one.
    #expect(page.components(separatedBy: "<th scope=\"row\"").count - 1 == 5)
  }

  @Test func aSmallGridStaysOneTableWithEveryRow() {
    var report = threeFamilies
    report.canaries = Array(report.canaries.prefix(HTMLReportTests.smallGridRows))
    report.deliveries = Array(report.deliveries.prefix(HTMLReportTests.smallGridRows))
    #expect(report.canaries.count == LeakReport.htmlMatrixFullRows)
    let page = html(report)
    #expect(!page.contains("matrix-family\">"))
    #expect(page.components(separatedBy: "<th scope=\"row\"").count - 1 == LeakReport.htmlMatrixFullRows)
    #expect(page.contains("<th scope=\"row\" class=\"location\">request<wbr>.header<wbr>[X-Row-0]</th>"))
  }

  private static let smallGridRows = LeakReport.htmlMatrixFullRows

  @Test func locationNamesBreakOnlyBetweenTheirPartsAndOnlyOnAPhone() throws {
    #expect(LeakReport.breakable("request.header[X-Row-7]") == "request<wbr>.header<wbr>[X-Row-7]")
    #expect(LeakReport.breakable("redirect[2].location") == "redirect<wbr>[2]<wbr>.location")
    #expect(LeakReport.breakable(".a<b>&c") == ".a&lt;b&gt;&amp;c", "no break first, escaped")
    #expect(LeakReport.breakable("file:logs/app.log") == "file<wbr>:logs<wbr>/app<wbr>.log")
    // Chromium breaks at <wbr> even in `nowrap`, so wide screens switch the breaks off.
    let css = HTMLStyle.css
    let phone = try #require(css.range(of: "@media (max-width: 640px)"))
    #expect(css[..<phone.lowerBound].contains(".location wbr { display: none; }"))
    #expect(css[phone.lowerBound...].contains(".location wbr { display: inline; }"))
  }

  @Test func aLongFindingsListOpensCollapsedAndAShortOneOpen() {
    let canary = Canary(value: "cnryHTMLlong0000001", location: .requestHeader("X-Long"))
    let findings = (1...(LeakReport.htmlOpenFindingsLimit + 1)).map { line in
      LeakFinding(
        canary: canary, encoding: "raw", source: "app.log", line: line, column: 1, offset: line * 20,
        excerpt: canary.value)
    }
    let long = html(LeakReport(title: "long", canaries: [canary], findings: findings))
    #expect(long.contains("<details class=\"family-group f-0\"><summary>"))
    #expect(!long.lowercased().contains("<script"))
    let short = html(
      LeakReport(title: "short", canaries: [canary], findings: Array(findings.dropLast())))
    #expect(short.contains("<details class=\"family-group f-0\" open><summary>"))
  }

  @Test func theIndexListsEveryReportLeakyFirstEscapedAndLinked() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canary-index-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var hostile = ReportFixtures.clean
    hostile.title = "clean <script>alert(1)</script>"
    try ReportFixtures.clean.writeUniquely(to: directory, name: "a-clean")
    try hostile.writeUniquely(to: directory, name: "b-hostile")
    try ReportFixtures.leaky.writeUniquely(to: directory, name: "z-leaky")
    try Data("<html>not ours</html>".utf8).write(to: directory.appendingPathComponent("other.html"))
    try ReportIndex.write(in: directory)
    let index = try String(
      contentsOf: directory.appendingPathComponent(ReportIndex.fileName), encoding: .utf8)
    #expect(!index.lowercased().contains("<script"))
    #expect(index.contains("clean &lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(index.contains("3 reports: 1 leaky, 0 inconclusive, 2 clean"))
    let leaky = try #require(index.range(of: "href=\"z-leaky.html\""))
    let clean = try #require(index.range(of: "href=\"a-clean.html\""))
    #expect(leaky.lowerBound < clean.lowerBound, "leaky reports come first")
    #expect(index.contains("<a href=\"z-leaky.sarif\">sarif</a>"))
    #expect(index.contains("<td>3</td>"), "the leaky report's 3 findings")
    #expect(index.contains("1 other HTML file in this folder not written by CanaryTrap."))
    for external in ["<link", "src=", "url(", "@import", "http"] {
      #expect(!index.contains(external), "\(external) would load something")
    }
  }

  @Test func theIndexListsAtMostItsCapAndSaysHowManyMore() {
    let entries = (0...ReportIndex.maxListed).map {
      ReportIndex.Entry(baseName: "r\($0)", title: "r\($0)", verdict: "clean", findings: 0, problems: 0)
    }
    let page = ReportIndex.html(entries, foreign: 0, present: [])
    #expect(page.components(separatedBy: "<tr class=\"report ").count - 1 == ReportIndex.maxListed)
    #expect(page.contains("1 more report not listed (at most \(ReportIndex.maxListed) are)."))
  }
}
