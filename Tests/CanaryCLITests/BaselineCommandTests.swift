import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary baseline` and `canary scan --baseline`: a baselined leak passes, a new leak beside it
/// fails, a stale entry is reported, and a malformed baseline is an error, never ignored.
@Suite struct BaselineCommandTests {
  static let leakLine = "GET /login?session=\(ScanWorkspace.canary.value) 200\n"
  static let otherLine = "Authorization: Bearer \(ScanWorkspace.other.value)\n"

  func run(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO()
    let status = await CommandLineTool.run(arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  /// A workspace whose app.log leaks the first canary, with a baseline written from it.
  func baselined() async throws -> (ScanWorkspace, baseline: String) {
    let workspace = try ScanWorkspace(canaries: [ScanWorkspace.canary, ScanWorkspace.other])
    let log = try workspace.write("logs/app.log", "start\n" + Self.leakLine)
    let baseline = workspace.path("baseline.json")
    let written = await run([
      "baseline", "--manifest", workspace.manifest, "--root", workspace.root.path, "-o", baseline,
      "--reason", "legacy logger, ticket 42", log,
    ])
    #expect(written.status == ExitStatus.success, "\(written.error)")
    return (workspace, baseline)
  }

  @Test func baselineNamesLeaksByStableNamesOnly() async throws {
    let (workspace, baseline) = try await baselined()
    defer { workspace.remove() }
    let text = try String(contentsOfFile: baseline, encoding: .utf8)
    let parsed = try LeakBaseline(contentsOf: URL(fileURLWithPath: baseline))
    #expect(parsed.knownLeaks.count == 1)
    let leak = try #require(parsed.knownLeaks.first)
    #expect(leak.location?.description == ScanWorkspace.canary.location.description)
    #expect(leak.source == "logs/app.log")
    #expect(leak.encoding == "raw")
    #expect(leak.reason == "legacy logger, ticket 42")
    #expect(!text.contains(workspace.root.path), "a temporary path leaked into the baseline")
    #expect(!text.contains("\"line\""))
    #expect(!text.contains(ScanWorkspace.canary.value), "the baseline must not carry the canary's value")
  }

  @Test func baselinedLeakPassesAndANewLeakBesideItFails() async throws {
    let (workspace, baseline) = try await baselined()
    defer { workspace.remove() }
    let log = workspace.path("logs/app.log")
    let options = [
      "scan", "--manifest", workspace.manifest, "--baseline", baseline, "--root", workspace.root.path,
    ]
    let known = await run(options + [log])
    #expect(known.status == ExitStatus.success, "\(known.error)")
    #expect(known.error.contains("1 finding baselined by 1 of 1 entries; 0 new"))
    #expect(known.error.contains("legacy logger, ticket 42"))
    // Twin: the same leak without the baseline fails.
    #expect(await run(["scan", "--manifest", workspace.manifest, log]).status == ExitStatus.leaks)
    // A new leak beside the baselined one fails, and the report lists only the new one.
    try workspace.write("logs/app.log", "start\n" + Self.leakLine + Self.otherLine)
    let new = await run(options + ["--format", "json", log])
    #expect(new.status == ExitStatus.leaks)
    #expect(new.output.contains(ScanWorkspace.other.value))
    #expect(!new.output.contains(ScanWorkspace.canary.value))
    #expect(new.error.contains("1 finding baselined by 1 of 1 entries; 1 new"))
    // The same leak in another encoding is new too: the baseline accepted `raw` only.
    let encoded = Data(ScanWorkspace.canary.value.utf8).base64EncodedString()
    try workspace.write("logs/app.log", "start\n" + Self.leakLine + "blob=\(encoded)\n")
    #expect(await run(options + [log]).status == ExitStatus.leaks)
    // And in another file too.
    let elsewhere = try workspace.write("logs/other.log", Self.leakLine)
    #expect(await run(options + [elsewhere]).status == ExitStatus.leaks)
  }

  @Test func staleEntriesAreReportedAndCanFail() async throws {
    let (workspace, baseline) = try await baselined()
    defer { workspace.remove() }
    let log = try workspace.write("logs/app.log", "start\nfixed: nothing secret here\n")
    let options = [
      "scan", "--manifest", workspace.manifest, "--baseline", baseline, "--root", workspace.root.path,
    ]
    let stale = await run(options + [log])
    #expect(stale.status == ExitStatus.success, "\(stale.error)")
    #expect(
      stale.error.contains("stale baseline entry (\(ScanWorkspace.canary.location) in logs/app.log as raw)"))
    #expect(await run(options + ["--fail-on-stale", log]).status == ExitStatus.leaks)
  }

  /// The `baselineState` of each result of a SARIF text.
  func baselineStates(_ sarif: String) throws -> [String?] {
    let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
    let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
    return results.map { $0["baselineState"] as? String }
  }

  @Test func scanSARIFMarksNewLeaksAndStaleEntriesAbsent() async throws {
    let (workspace, baseline) = try await baselined()
    defer { workspace.remove() }
    let log = try workspace.write("logs/app.log", "start\n" + Self.otherLine)
    let scan = await run([
      "scan", "--manifest", workspace.manifest, "--baseline", baseline, "--root", workspace.root.path,
      "--format", "sarif", log,
    ])
    #expect(scan.status == ExitStatus.leaks)
    #expect(try baselineStates(scan.output) == ["new", "absent"])
    #expect(scan.output.contains("\"kind\" : \"pass\""))
    #expect(scan.output.contains("\"uri\" : \"logs/app.log\""), "the stale entry points at its file")
    // Twin: without a baseline, no state at all.
    let plain = await run(["scan", "--manifest", workspace.manifest, "--format", "sarif", log])
    #expect(try baselineStates(plain.output) == [nil])
  }

  /// A folder of one test run's SARIF reports, judged against `entries` as Configuration.knownLeaks does.
  func reportFolder(_ workspace: ScanWorkspace, entries: [KnownLeak]?) throws -> String {
    let directory = workspace.path("reports")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let finding = LeakFinding(
      canary: ScanWorkspace.canary, encoding: "raw", source: "memory-log", line: 1, column: 1, offset: 0,
      excerpt: ScanWorkspace.canary.value)
    var report = LeakReport(
      title: "LoginTests.login()", canaries: [ScanWorkspace.canary], findings: [finding])
    if let entries { report.baseline = BaselineUse(report, knownLeaks: entries, coversWholeRun: false) }
    try report.rendered(as: .sarif).write(to: URL(fileURLWithPath: directory + "/login.sarif"))
    return directory
  }

  @Test func reportStaleListsEntriesNoTestOfTheRunMatched() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let matched = KnownLeak(location: ScanWorkspace.canary.location, source: "memory-log", reason: "r1")
    let gone = KnownLeak(location: ScanWorkspace.other.location, source: "stdout", reason: "fixed in 2.3")
    let file = workspace.path("baseline.json")
    try LeakBaseline(knownLeaks: [matched, gone]).jsonData().write(to: URL(fileURLWithPath: file))
    let reports = try reportFolder(workspace, entries: [matched, gone])
    let stale = await run(["report", "stale", reports, "--baseline", file])
    #expect(stale.status == ExitStatus.leaks, "\(stale.error)")
    #expect(
      stale.output.contains(
        "stale baseline entry (\(gone.baselineKey)): no report matched it; accepted because: fixed in 2.3"))
    #expect(!stale.output.contains(matched.baselineKey))
    #expect(stale.output.contains("1 of 2 baseline entries matched nothing in 1 reports"))
    // The merged log for code scanning carries it as absent.
    let merged = await run(["report", "merge", reports, "-b", file])
    #expect(merged.status == ExitStatus.success, "\(merged.error)")
    #expect(try baselineStates(merged.output) == ["unchanged", "absent"])
    // Twin: a baseline whose every entry matched passes.
    try LeakBaseline(knownLeaks: [matched]).jsonData().write(to: URL(fileURLWithPath: file))
    let fresh = await run(["report", "stale", reports, "-b", file])
    #expect(fresh.status == ExitStatus.success, "\(fresh.output)\(fresh.error)")
    #expect(fresh.error.contains("warning: the reports used baselines of 2 entries; this one has 1"))
  }

  @Test func reportStaleWithoutAnyBaselinedReportIsInconclusive() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let file = workspace.path("baseline.json")
    try LeakBaseline(knownLeaks: [KnownLeak(location: .custom("a"), source: "stdout", reason: "r")])
      .jsonData().write(
        to: URL(fileURLWithPath: file))
    let reports = try reportFolder(workspace, entries: nil)
    let result = await run(["report", "stale", reports, "-b", file])
    #expect(result.status == ExitStatus.usage)
    #expect(result.error.contains("was judged against a baseline"))
    let missing = await run(["report", "stale", reports])
    #expect(missing.status == ExitStatus.usage)
    #expect(missing.error.contains("missing --baseline FILE"))
  }

  @Test func malformedBaselinesAreErrorsNeverIgnored() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", Self.leakLine)
    let cases: [(String, String)] = [
      (
        "{\n  \"version\": 1,\n  \"knownLeaks\": [ {\"location\": \"a\" \"reason\": \"x\"} ]\n}",
        "line 3, column"
      ),
      (#"{"version": 2, "knownLeaks": []}"#, "has version 2"),
      (#"{"version": 1}"#, "needs \"knownLeaks\""),
      (
        #"{"version": 1, "knownLeaks": [{"location": "a"}]}"#, "knownLeaks[0] lacks \"source\" and \"reason\""
      ),
      (
        #"{"version": 1, "knownLeaks": [{"location": "a", "source": "s", "reason": "r"}, {"source": "s", "reason": "r"}]}"#,
        "knownLeaks[1] lacks \"location\""
      ),
      (#"{"version": 1, "knownLeaks": [{"reason": "everything"}]}"#, "would accept every leak"),
      (#"{"version": 1, "knownLeaks": [{"loaction": "a", "reason": "r"}]}"#, "unknown field \"loaction\""),
      (#"{"version": 1, "knownLeaks": [{"location": 3, "reason": "r"}]}"#, "knownLeaks[0].location must be"),
      ("[]", "must be a JSON object"),
      ("", "is not valid JSON"),
    ]
    for (index, (text, message)) in cases.enumerated() {
      let path = try workspace.write("bad-\(index).json", text)
      let result = await run(["scan", "--manifest", workspace.manifest, "--baseline", path, log])
      #expect(result.status == ExitStatus.usage, "\(text)")
      #expect(result.error.contains("canary scan: baseline \(path) "), "\(result.error)")
      #expect(result.error.contains(message), "\(text): \(result.error)")
    }
    let missing = await run([
      "scan", "--manifest", workspace.manifest, "--baseline", workspace.path("none.json"), log,
    ])
    #expect(missing.status == ExitStatus.usage)
    #expect(missing.error.contains("No such file or directory"))
  }

  /// An entry without a location accepts every canary leaking into its source, and one without a
  /// source accepts its canary leaking anywhere: both are refused, naming the entry and the field.
  @Test func anEntryMissingItsLocationOrSourceIsRefused() async throws {
    let workspace = try ScanWorkspace(canaries: [ScanWorkspace.canary, ScanWorkspace.other])
    defer { workspace.remove() }
    let log = try workspace.write("app.log", Self.leakLine + Self.otherLine)
    let location = ScanWorkspace.canary.location.description
    let cases: [(String, [String])] = [
      (
        #"{"source": "app.log", "reason": "the logger"}"#,
        [
          #"knownLeaks[0] lacks "location": every entry names the canary's "location", the "source" it"#
            + #" leaked into and a "reason" (without a location it would accept every canary leaking into"#
            + #" "app.log")"#
        ]
      ),
      (
        #"{"location": "\#(location)", "reason": "the logger"}"#,
        [
          #"knownLeaks[0] lacks "source": "#,
          "(without a source it would accept the canary at \(location) leaking into any sink)",
        ]
      ),
    ]
    for (entry, fragments) in cases {
      let path = try workspace.write("partial.json", #"{"version": 1, "knownLeaks": [\#(entry)]}"#)
      for command in [
        ["scan", "-m", workspace.manifest, "--baseline", path, log],
        ["report", "stale", workspace.root.path, "-b", path],
      ] {
        let result = await run(command)
        #expect(result.status == ExitStatus.usage, "\(command[0]) \(entry)")
        #expect(result.error.contains("baseline \(path) \(fragments[0])"), "\(result.error)")
        for fragment in fragments { #expect(result.error.contains(fragment), "\(result.error)") }
      }
    }
    // Twin: the entry naming both accepts its one leak, and the other canary's leak still fails.
    let full = try workspace.write(
      "full.json",
      #"{"version": 1, "knownLeaks": [{"location": "\#(location)", "source": "app.log", "reason": "r"}]}"#)
    let result = await run([
      "scan", "-m", workspace.manifest, "--baseline", full, "--root", workspace.root.path, "-f", "json", log,
    ])
    #expect(result.status == ExitStatus.leaks, "\(result.error)")
    #expect(result.error.contains("1 finding baselined by 1 of 1 entries; 1 new"), "\(result.error)")
    #expect(result.output.contains(ScanWorkspace.other.value))
  }

  @Test func baselineEntriesAreBounded() throws {
    let entry = #"{"location":"a","source":"s","reason":"r"}"#
    let over = LeakBaseline.maximumEntries + 1
    let text =
      #"{"version":1,"knownLeaks":["# + Array(repeating: entry, count: over).joined(separator: ",") + "]}"
    #expect(throws: BaselineError.self) { try LeakBaseline(jsonData: Data(text.utf8)) }
    do {
      _ = try LeakBaseline(jsonData: Data(text.utf8))
    } catch {
      #expect("\(error)".contains("holds \(over) entries; a baseline may hold at most"))
    }
    // Distinct entries: a repeated one is refused on its own (SilentChoiceTests).
    let atLimit =
      #"{"version":1,"knownLeaks":["#
      + (0..<LeakBaseline.maximumEntries).map { #"{"location":"a","source":"s\#($0)","reason":"r"}"# }
      .joined(separator: ",") + "]}"
    #expect(try LeakBaseline(jsonData: Data(atLimit.utf8)).knownLeaks.count == LeakBaseline.maximumEntries)
  }

  @Test func baselineFromAJSONReportMatchesTheScan() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", Self.leakLine)
    let report = workspace.path("report.json")
    #expect(
      await run(["scan", "--manifest", workspace.manifest, "-f", "json", "-o", report, log]).status
        == ExitStatus.leaks)
    let fromReport = await run(["baseline", "--from-report", report, "--root", workspace.root.path])
    #expect(fromReport.status == ExitStatus.success, "\(fromReport.error)")
    let fromScan = await run([
      "baseline", "--manifest", workspace.manifest, "--root", workspace.root.path, log,
    ])
    #expect(fromReport.output == fromScan.output)
    #expect(fromScan.output.contains("\"source\" : \"app.log\""))
    let notAReport = await run(["baseline", "--from-report", workspace.manifest])
    #expect(notAReport.status == ExitStatus.usage)
    #expect(notAReport.error.contains("is not a CanaryTrap JSON report"))
  }

  /// A test's JSON report naming a canary its client could not deliver: the baseline written from
  /// it accepts that absence (`"kind": "undelivered"`, the run's reason kept beside the given one),
  /// and the next run's report, judged against it as `Configuration.knownLeaks` judges, keeps no
  /// undelivered canary. Twin: from a report where the canary arrived, no such entry is written.
  @Test func aBaselineFromATestReportAcceptsItsUndeliveredCanaries() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let finding = LeakFinding(
      canary: ScanWorkspace.canary, encoding: "raw", source: "memory-log", line: 1, column: 1, offset: 0,
      excerpt: ScanWorkspace.canary.value)
    let finalURL = Canary(
      value: "cnryfinalurl7h2kq9x4m3p8w5z6", location: CanaryLocation("response.finalURL.query[token]"))
    func report(delivered: Bool) -> LeakReport {
      LeakReport(
        title: "OpenAPIClientTests.run()", canaries: [ScanWorkspace.canary, finalURL], findings: [finding],
        deliveries: [
          CanaryDelivery(
            canary: finalURL,
            status: delivered ? .delivered : .undelivered(reason: "the app's response has no URL"))
        ])
    }
    let path = workspace.path("report.json")
    try report(delivered: false).rendered(as: .json).write(to: URL(fileURLWithPath: path))
    let file = workspace.path("baseline.json")
    let written = await run([
      "baseline", "--from-report", path, "--reason", "swift-openapi has no response URL", "-o", file,
    ])
    #expect(written.status == ExitStatus.success, "\(written.error)")
    #expect(written.error.contains("wrote 2 entries for 1 findings and 1 undelivered canary to"))
    let baseline = try LeakBaseline(contentsOf: URL(fileURLWithPath: file))
    let undelivered = baseline.knownLeaks.filter(\.isUndelivered)
    #expect(undelivered.map(\.description) == ["response.finalURL.query[token] undelivered"])
    #expect(
      undelivered.first?.reason
        == "swift-openapi has no response URL (undelivered: the app's response has no URL)")
    #expect(try String(contentsOfFile: file, encoding: .utf8).contains(#""kind" : "undelivered""#))
    let next = KnownLeakTriage(report(delivered: false), knownLeaks: baseline.knownLeaks)
    #expect(next.remaining.undelivered.isEmpty)
    #expect(next.remaining.findings.isEmpty)
    // The run's reason, which the entry repeats, is said once.
    #expect(
      next.knownMessages.contains(
        "known undelivered canary (response.finalURL.query[token]): never delivered (the app's response has no URL);"
          + " accepted because: swift-openapi has no response URL"))
    // Twin: the canary arrived, so nothing about it is accepted.
    try FileManager.default.removeItem(atPath: path)
    try report(delivered: true).rendered(as: .json).write(to: URL(fileURLWithPath: path))
    let delivered = await run(["baseline", "--from-report", path])
    #expect(delivered.status == ExitStatus.success, "\(delivered.error)")
    #expect(
      try LeakBaseline(jsonData: Data(delivered.output.utf8)).knownLeaks.filter(\.isUndelivered).isEmpty)
    #expect(KnownLeakTriage(report(delivered: false), knownLeaks: []).remaining.undelivered.count == 1)
  }

  /// A baseline `scan --baseline` would refuse to read is never written. Twin: one entry fewer
  /// is written, and reads back whole.
  @Test func aBaselineOverTheEntryLimitIsNotWritten() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    func report(entries: Int) -> LeakReport {
      let canaries = (0..<entries).map {
        Canary(value: "cnrylimit7h2kq9x4m3p8w\($0)", location: CanaryLocation("request.header[X-\($0)]"))
      }
      let findings = canaries.map {
        LeakFinding(
          canary: $0, encoding: "raw", source: "memory-log", line: 1, column: 1, offset: 0, excerpt: $0.value)
      }
      return LeakReport(title: "many", canaries: canaries, findings: findings)
    }
    let path = workspace.path("report.json")
    let file = workspace.path("baseline.json")
    let over = LeakBaseline.maximumEntries + 1
    try report(entries: over).rendered(as: .json).write(to: URL(fileURLWithPath: path))
    let refused = await run(["baseline", "--from-report", path, "-o", file])
    #expect(refused.status == ExitStatus.usage)
    #expect(refused.error.contains("the baseline would hold \(over) entries, more than the"))
    #expect(!FileManager.default.fileExists(atPath: file))
    try FileManager.default.removeItem(atPath: path)
    try report(entries: over - 1).rendered(as: .json).write(to: URL(fileURLWithPath: path))
    let written = await run(["baseline", "--from-report", path, "-o", file])
    #expect(written.status == ExitStatus.success, "\(written.error)")
    #expect(try LeakBaseline(contentsOf: URL(fileURLWithPath: file)).knownLeaks.count == over - 1)
  }

  @Test func baselineRefusesToListLessThanEveryLeakOrToOverwrite() async throws {
    let workspace = try ScanWorkspace()
    defer { workspace.remove() }
    let log = try workspace.write("app.log", String(repeating: Self.leakLine, count: 5))
    let capped = await run(["baseline", "--manifest", workspace.manifest, "--max-findings", "2", log])
    #expect(capped.status == ExitStatus.usage)
    #expect(capped.error.contains("3 findings were counted but not listed"))
    #expect(capped.output.isEmpty)
    let unreadable = await run([
      "baseline", "--manifest", workspace.manifest, log, workspace.path("gone.log"),
    ])
    #expect(unreadable.status == ExitStatus.usage)
    #expect(unreadable.output.isEmpty)
    let existing = try workspace.write("keep.json", "mine")
    let refused = await run(["baseline", "--manifest", workspace.manifest, "-o", existing, log])
    #expect(refused.status == ExitStatus.usage)
    #expect(refused.error.contains("exists; pass --force"))
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "mine")
  }

  /// Findings past --max-findings beside baselined ones cannot be judged, so they fail.
  @Test func omittedFindingsBesideBaselinedOnesFail() async throws {
    let (workspace, baseline) = try await baselined()
    defer { workspace.remove() }
    let log = try workspace.write("logs/app.log", String(repeating: Self.leakLine, count: 4))
    let options = [
      "scan", "--manifest", workspace.manifest, "--baseline", baseline, "--root", workspace.root.path,
    ]
    #expect(await run(options + [log]).status == ExitStatus.success)
    let capped = await run(options + ["--max-findings", "2", log])
    #expect(capped.status == ExitStatus.leaks)
    #expect(capped.error.contains("2 more findings were counted but not kept"))
  }
}
