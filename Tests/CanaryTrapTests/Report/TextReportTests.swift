import CanaryTrap
import Foundation
import Testing

@Suite struct TextReportTests {
  private func text(_ report: LeakReport) -> String {
    String(decoding: report.rendered(as: .text), as: UTF8.self)
  }

  @Test func verdictLinesNameWhatWentWrong() {
    #expect(ReportFixtures.leaky.verdictLine == "LEAKY: 3 leaks at 2 locations")
    #expect(ReportFixtures.clean.verdictLine == "clean: 2 of 2 canaries delivered, 2 sources heard")
    #expect(
      ReportFixtures.inconclusive.verdictLine
        == "INCONCLUSIVE: 1 canary undelivered, 1 source unreadable, 1 error")
  }

  @Test func matrixMarksEncodingsPerLocationAndSource() throws {
    let lines = text(ReportFixtures.leaky).split(separator: "\n").map(String.init)
    let header = try #require(lines.first { $0.hasPrefix("  location") })
    #expect(header.contains("app.log") && header.contains("stderr (silent)"))
    let session = try #require(lines.first { $0.hasPrefix("  request.header[X-Session]") })
    #expect(
      session.split(separator: " ").map(String.init) == [
        "request.header[X-Session]", "delivered", "base64", "raw", ".",
      ])
    let cookie = try #require(lines.first { $0.hasPrefix("  response.cookie[sid]") })
    #expect(cookie.contains("UNDELIVERED"))
    #expect(lines.last == "LEAKY: 3 leaks at 2 locations")
  }

  @Test func controlCharactersCannotBreakLinesOrDriveTheTerminal() {
    var report = ReportFixtures.hostile
    report.findings[0].excerpt = "a\nb\u{1B}[31mred"
    let output = text(report)
    #expect(output.contains("excerpt: a\\u{A}b\\u{1B}[31mred"))
    #expect(!output.contains("\u{1B}"))
  }

  @Test func jsonFormatIsTheJSONContract() throws {
    #expect(ReportFixtures.leaky.rendered(as: .json) == (try ReportFixtures.leaky.jsonData()))
  }

  @Test func writeCreatesOneFilePerFormat() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canary-report-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    // JUnit stamps a report without a run with the time it renders: a fixed run keeps the written
    // file and the second rendering from straddling a clock tick.
    var report = ReportFixtures.leaky
    report.run = ReportRun(started: Date(timeIntervalSince1970: 1_800_000_000), seconds: 0)
    let urls = try report.write(to: directory, baseName: "Sign In/Tests")
    #expect(
      urls.map(\.lastPathComponent) == [
        "Sign-In-Tests.txt", "Sign-In-Tests.json", "Sign-In-Tests.junit.xml", "Sign-In-Tests.sarif",
        "Sign-In-Tests.html",
      ])
    for (url, format) in zip(urls, ReportFormat.allCases) {
      #expect(try Data(contentsOf: url) == report.rendered(as: format))
    }
  }

  @Test func uniqueNamesNeverCollide() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("canary-report-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = try ReportFixtures.clean.writeUniquely(to: directory, name: "same")
    let second = try ReportFixtures.leaky.writeUniquely(to: directory, name: "same")
    #expect(first[0].lastPathComponent == "same.txt")
    #expect(second[0].lastPathComponent == "same-2.txt")
    #expect(ReportFileName.sanitized("../..//") == "report")
    #expect(ReportFileName.sanitized("Suite/test(x:)") == "Suite-test-x")
  }
}
