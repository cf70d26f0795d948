import CanaryTrap
import Foundation
import Testing

@Suite struct SARIFReportTests {
  private func document(_ report: LeakReport) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: report.rendered(as: .sarif))
    return try #require(object as? [String: Any])
  }

  private func results(_ report: LeakReport) throws -> [[String: Any]] {
    let runs = try #require(try document(report)["runs"] as? [[String: Any]])
    return try #require(runs.first?["results"] as? [[String: Any]])
  }

  /// Checks the properties SARIF 2.1.0's schema requires, and the ones code scanning needs.
  @Test(arguments: ["leaky", "scan", "hostile", "inconclusive"])
  func hasTheRequiredFieldsOfTheSchema(fixture: String) throws {
    let report = try #require(ReportFixtures.named[fixture])
    let log = try document(report)
    #expect(log["version"] as? String == "2.1.0")
    #expect((log["$schema"] as? String)?.hasSuffix("sarif-2.1.0.json") == true)
    let runs = try #require(log["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(driver["name"] as? String == "CanaryTrap")
    let rules = try #require(driver["rules"] as? [[String: Any]])
    let ruleIDs = rules.compactMap { $0["id"] as? String }
    #expect(ruleIDs.count == rules.count && Set(ruleIDs).count == rules.count)
    for rule in rules {
      #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
    }
    let results = try #require(runs[0]["results"] as? [[String: Any]])
    #expect(results.count == report.findings.count)
    for result in results {
      #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
      let ruleID = try #require(result["ruleId"] as? String)
      #expect(result["ruleIndex"] as? Int == ruleIDs.firstIndex(of: ruleID))
      let locations = try #require(result["locations"] as? [[String: Any]])
      let physical = try #require(locations.first?["physicalLocation"] as? [String: Any])
      let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String
      #expect(uri?.isEmpty == false)
      #expect(URL(string: try #require(uri)) != nil)
      let startLine = try #require((physical["region"] as? [String: Any])?["startLine"] as? Int)
      #expect(startLine >= 1)
      let fingerprints = try #require(result["partialFingerprints"] as? [String: String])
      #expect(!fingerprints.isEmpty)
    }
  }

  @Test func resultsPointAtTheTestThatPlantedTheCanary() throws {
    for result in try results(ReportFixtures.leaky) {
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let physical = try #require(location["physicalLocation"] as? [String: Any])
      #expect(
        (physical["artifactLocation"] as? [String: Any])?["uri"] as? String
          == "Tests/AppTests/SignInLeakTests.swift")
      #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 12)
    }
  }

  @Test func resultsPointAtThePlantingLineBeforeTheScope() throws {
    var report = ReportFixtures.leaky
    report.findings[0].plantedAt = ReportSourceLocation(
      fileID: "AppTests/SignInLeakTests.swift", filePath: "Tests/AppTests/SignInLeakTests.swift", line: 30,
      column: 9)
    let lines = try results(report).map { result in
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let physical = try #require(location["physicalLocation"] as? [String: Any])
      return (physical["region"] as? [String: Any])?["startLine"] as? Int ?? 0
    }
    #expect(lines == [30, 12, 12])
  }

  @Test func aScopeResultWithNoLineOfTheTestsNamesItsSinkNotAFile() throws {
    var report = ReportFixtures.leaky
    report.sourceLocation = nil
    report.findings[2].source = "file:logs/app 1.log"
    let uris = try results(report).map { result in
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let physical = try #require(location["physicalLocation"] as? [String: Any])
      return (physical["artifactLocation"] as? [String: Any])?["uri"] as? String ?? ""
    }
    #expect(uris == ["sink://app.log", "sink://app.log", "sink://file%3Alogs/app%201.log"])
    #expect(SARIFChecker.violations(in: report.rendered(as: .sarif), singleRun: true) == [])
  }

  @Test func resultsNameTheExchangeLocationAndTheSinkAsLogicalLocations() throws {
    let logical = try results(ReportFixtures.leaky).map { result in
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let items = try #require(location["logicalLocations"] as? [[String: Any]])
      return items.map { "\($0["kind"] ?? "")|\($0["fullyQualifiedName"] ?? "")|\($0["name"] ?? "-")" }
    }
    #expect(
      logical == [
        ["member|request.header[X-Session]|X-Session", "resource|app.log|-"],
        ["member|request.body.json[user.password]|user.password", "resource|app.log|-"],
        ["member|request.header[X-Session]|X-Session", "resource|stdout|-"],
      ])
  }

  @Test func theCheckerRejectsMalformedLogicalLocations() throws {
    var document = try #require(
      try JSONSerialization.jsonObject(with: ReportFixtures.leaky.rendered(as: .sarif)) as? [String: Any])
    var runs = try #require(document["runs"] as? [[String: Any]])
    var results = try #require(runs[0]["results"] as? [[String: Any]])
    var locations = try #require(results[0]["locations"] as? [[String: Any]])
    locations[0]["logicalLocations"] = [["kind": "header"], ["fullyQualifiedName": "x", "kind": "member"]]
    results[0]["locations"] = locations
    var second = try #require(results[1]["locations"] as? [[String: Any]])
    second[0]["logicalLocations"] = "request.header"
    results[1]["locations"] = second
    runs[0]["results"] = results
    document["runs"] = runs
    let violations = SARIFChecker.violations(
      in: try JSONSerialization.data(withJSONObject: document), singleRun: true)
    #expect(violations.count == 3, "\(violations)")
    #expect(violations.contains { $0.contains("names nothing") })
    #expect(violations.contains { $0.contains("kind header is not one of SARIF's") })
    #expect(violations.contains { $0.contains("not a non-empty array") })
  }

  @Test func theProjectAddressIsOneConstantThatSARIFAndTheREADMEUse() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    #expect(readme.contains("\"\(ProjectHome.url).git\""), "README's package URL is ProjectHome.url + .git")
    let driver = try #require(
      ((try document(ReportFixtures.leaky)["runs"] as? [[String: Any]])?.first?["tool"] as? [String: Any])?[
        "driver"] as? [String: Any])
    #expect(driver["informationUri"] as? String == ProjectHome.informationURI)
    if ProjectHome.isPlaceholder {
      #expect(driver["informationUri"] == nil, "a placeholder address is never written into a log")
    }
  }

  /// Fails the day the placeholder is replaced without updating this reminder, and until then
  /// says in every run that a release needs the real address (`CI/check-release.sh` fails too).
  @Test func theProjectAddressIsRealBeforeARelease() {
    guard ProjectHome.isPlaceholder else {
      #expect(ProjectHome.informationURI == ProjectHome.url)
      #expect(URL(string: ProjectHome.url)?.host?.isEmpty == false)
      return
    }
    withKnownIssue("the project has no public address yet: ProjectHome.url is the OWNER placeholder") {
      Issue.record("ProjectHome.url \(ProjectHome.url) is a placeholder; SARIF leaves informationUri out")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("is a placeholder; SARIF leaves informationUri out") }
    }
  }

  @Test func scanResultsPointAtTheScannedFileLineAndColumn() throws {
    let regions = try results(ReportFixtures.scan).map { result in
      let location = try #require((result["locations"] as? [[String: Any]])?.first)
      let physical = try #require(location["physicalLocation"] as? [String: Any])
      let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
      let region = try #require(physical["region"] as? [String: Any])
      return "\(uri):\(region["startLine"] as? Int ?? 0):\(region["startColumn"] as? Int ?? 0)"
    }
    #expect(regions == ["logs/app.log:3:17", "logs/app.log:9:2", "logs/app%202.log:1:5"])
  }

  @Test func ruleIDsNameTheLocationFamilyAndEncoding() throws {
    let ids = try results(ReportFixtures.leaky).compactMap { $0["ruleId"] as? String }
    #expect(
      ids == [
        "canary-leak/request.header/base64", "canary-leak/request.body.json/percent",
        "canary-leak/request.header/raw",
      ])
    #expect(CanaryLocation.redirect(hop: 2, .query("sig")).family == "redirect.location.query")
    #expect(
      CanaryLocation.requestBody(.multipartFilename("a]b")).family
        == "request.body.multipart.filename")
  }

  @Test func fingerprintsIgnoreTheRandomCanaryValue() throws {
    var reminted = ReportFixtures.scan
    for index in reminted.findings.indices {
      reminted.findings[index].canary.value = "cnryOTHERvalue\(index)xxxxxxxx"
    }
    let original = try results(ReportFixtures.scan).map { $0["partialFingerprints"] as? [String: String] }
    let again = try results(reminted).map { $0["partialFingerprints"] as? [String: String] }
    #expect(original == again)
    let values = original.compactMap { $0?["canaryLeak/v1"] }
    #expect(Set(values).count == values.count, "two leaks of one kind in one file stay distinct")
    #expect(!values.contains { $0.contains("cnry") })
  }

  @Test func inconclusiveRunsReportNotificationsAndAnUnsuccessfulExecution() throws {
    let runs = try #require(try document(ReportFixtures.inconclusive)["runs"] as? [[String: Any]])
    let invocation = try #require((runs[0]["invocations"] as? [[String: Any]])?.first)
    #expect(invocation["executionSuccessful"] as? Bool == false)
    let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
    #expect(notifications.count == 3)
  }
}
