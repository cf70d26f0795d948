import CanaryTrap
import Foundation
import Testing

@testable import CanaryCLI

/// `canary scan -f jsonl`, `--files-from` and `canary report merge` of shard reports: what a
/// shard worker under a distributed engine writes, and the one verdict merged from the shards.
@Suite struct ShardReportTests {
  /// A workspace with `leaky` files holding the canary and `clean` files without it.
  private func workspace(leaky: Int, clean: Int) throws -> ScanWorkspace {
    let space = try ScanWorkspace()
    for index in 0..<leaky {
      try space.write(
        "logs/leaky-\(index).log", "line one\nGET /me X-Session: \(ScanWorkspace.canary.value)\n")
    }
    for index in 0..<clean { try space.write("logs/clean-\(index).log", "nothing to see \(index)\n") }
    return space
  }

  private func lines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map {
      try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
  }

  private func merge(_ arguments: [String]) async -> (status: Int32, output: String, error: String) {
    let captured = CapturedIO(input: Data())
    let status = await CommandLineTool.run(["report", "merge"] + arguments, io: captured.io)
    return (status, captured.standardOutput, captured.standardError)
  }

  @Test("jsonl: one line a finding, then a line a source, then the summary with exact counts")
  func jsonLinesListFindingsSourcesAndASummary() async throws {
    let space = try workspace(leaky: 2, clean: 1)
    defer { space.remove() }
    let result = await space.scan(["-m", space.manifest, "-f", "jsonl", space.path("logs")])
    #expect(result.status == 1)
    let parsed = try lines(result.output)
    #expect(
      parsed.map { $0["type"] as? String } == ["leak", "leak", "source", "source", "source", "summary"])
    #expect(parsed[0]["source"] as? String == space.path("logs/leaky-0.log"))
    #expect(parsed[0]["line"] as? Int == 2)
    let summary = try #require(parsed.last)
    #expect(summary["verdict"] as? String == "leaky")
    #expect(summary["leakCount"] as? Int == 2)
    #expect(summary["sourceCount"] as? Int == 3)
  }

  @Test("jsonl of a clean run is clean, and of a list naming nothing inconclusive, never clean")
  func jsonLinesCleanAndEmptyList() async throws {
    let space = try workspace(leaky: 0, clean: 2)
    defer { space.remove() }
    let clean = await space.scan(["-m", space.manifest, "-f", "jsonl", space.path("logs")])
    #expect(clean.status == 0)
    #expect(try lines(clean.output).last?["verdict"] as? String == "clean")
    let empty = await space.scan(["-m", space.manifest, "-f", "jsonl", "--files-from", "-"], input: Data())
    #expect(empty.status == 3)
    let summary = try #require(try lines(empty.output).last)
    #expect(summary["verdict"] as? String == "inconclusive")
    #expect(empty.output.contains("the list names no path: nothing was looked at"))
  }

  @Test("--files-from reads newline- and NUL-separated lists, and findings keep their file and line")
  func filesFromListsPaths() async throws {
    let space = try workspace(leaky: 1, clean: 2)
    defer { space.remove() }
    let paths = ["logs/clean-0.log", "logs/leaky-0.log", "logs/clean-1.log"].map(space.path)
    for separator in ["\n", "\0"] {
      try space.write("list.txt", paths.joined(separator: separator) + separator)
      let result = await space.scan([
        "-m", space.manifest, "-f", "jsonl", "--files-from", space.path("list.txt"),
      ])
      #expect(result.status == 1)
      let parsed = try lines(result.output)
      #expect(
        parsed.filter { $0["type"] as? String == "source" }.compactMap { $0["name"] as? String } == paths)
      #expect(parsed.first?["source"] as? String == space.path("logs/leaky-0.log"))
      #expect(parsed.first?["line"] as? Int == 2)
    }
    let piped = await space.scan(
      ["-m", space.manifest, "--files-from", "-"], input: Data(paths.joined(separator: "\n").utf8))
    #expect(piped.status == 1)
    let both = await space.scan(["-m", space.manifest, "--files-from", "-", "-"])
    #expect(both.status == 2)
    #expect(both.error.contains("both read standard input"))
  }

  @Test("merging shards gives the direct scan's findings, counts and verdict")
  func mergedShardsMatchTheDirectScan() async throws {
    let space = try workspace(leaky: 3, clean: 3)
    defer { space.remove() }
    let all = try FileManager.default.contentsOfDirectory(atPath: space.path("logs")).sorted().map {
      space.path("logs/" + $0)
    }
    let direct = await space.scan(
      ["-m", space.manifest, "-f", "jsonl", "--files-from", "-"],
      input: Data(all.joined(separator: "\n").utf8))
    try FileManager.default.createDirectory(atPath: space.path("shards"), withIntermediateDirectories: true)
    for (index, part) in [Array(all[0..<2]), Array(all[2..<4]), Array(all[4...])].enumerated() {
      let format = index == 2 ? "json" : "jsonl"
      _ = await space.scan(
        ["-m", space.manifest, "-f", format, "-o", space.path("shards/shard-\(index).\(format)")] + part)
    }
    let merged = await merge([space.path("shards"), "--expect", "3"])
    #expect(merged.status == 1, "\(merged.error)")
    let directLines = try lines(direct.output)
    let mergedLines = try lines(merged.output)
    func leaks(_ lines: [[String: Any]]) -> [String] {
      lines.filter { $0["type"] as? String == "leak" }.map { "\($0["source"] ?? "") \($0["line"] ?? "")" }
        .sorted()
    }
    #expect(leaks(mergedLines) == leaks(directLines))
    #expect(leaks(mergedLines).count == 3)
    let summary = try #require(mergedLines.last)
    #expect(summary["verdict"] as? String == "leaky")
    #expect(summary["leakCount"] as? Int == 3)
    #expect(summary["sourceCount"] as? Int == 6)
    #expect(summary["bytes"] as? Int == directLines.last?["bytes"] as? Int)
  }

  @Test("a clean merge is clean; a missing, empty or cut-short shard makes it inconclusive")
  func missingEmptyOrCutShardsAreInconclusive() async throws {
    let space = try workspace(leaky: 0, clean: 2)
    defer { space.remove() }
    try FileManager.default.createDirectory(atPath: space.path("shards"), withIntermediateDirectories: true)
    for index in 0..<2 {
      _ = await space.scan(
        [
          "-m", space.manifest, "-f", "jsonl", "-o", space.path("shards/\(index).jsonl"),
          space.path("logs/clean-\(index).log"),
        ])
    }
    #expect(await merge([space.path("shards"), "--expect", "2"]).status == 0)

    let missing = await merge([space.path("shards"), "--expect", "3"])
    #expect(missing.status == 3)
    #expect(missing.error.contains("expected 3 shard reports, found 2"))

    try space.write("shards/2.jsonl", "")
    let empty = await merge([space.path("shards")])
    #expect(empty.status == 3)
    #expect(empty.error.contains("shard 2.jsonl is empty"))

    let whole = try String(contentsOfFile: space.path("shards/1.jsonl"), encoding: .utf8)
    try space.write("shards/2.jsonl", String(whole.split(separator: "\n").first!) + "\n")
    let cut = await merge([space.path("shards")])
    #expect(cut.status == 3)
    #expect(cut.error.contains("shard 2.jsonl has no summary line"))

    try space.write("shards/2.jsonl", "{\"type\":\"nonsense\"}\n")
    let wrong = await merge([space.path("shards")])
    #expect(wrong.status == 2)
    #expect(wrong.error.contains("unknown line type 'nonsense'"))
  }

  @Test("a run written as it goes keeps no finding: memory holds one source's findings at a time")
  func streamedRunKeepsNoFinding() throws {
    let space = try workspace(leaky: 3, clean: 1)
    defer { space.remove() }
    var walker = ScanInputWalker()
    let inputs = walker.inputs(for: [ScanPath(space.path("logs"))])
    let scanner = LeakScanner(canaries: [ScanWorkspace.canary])
    let bounds = ScanRun.Bounds(maxBytes: 1 << 20, fifoWait: .seconds(1))
    var handed: [Int] = []
    let streamed = ScanRun.scan(
      inputs, with: scanner, bounds: bounds, io: CapturedIO(input: Data()).io, keepingFindings: false
    ) { handed.append($0.count) }
    #expect(streamed.findings.isEmpty)
    #expect(streamed.listedFindings == 3)
    #expect(handed == [0, 1, 1, 1])
    #expect(streamed.listedPerSource == [0, 1, 1, 1])
    let kept = ScanRun.scan(inputs, with: scanner, bounds: bounds, io: CapturedIO(input: Data()).io)
    #expect(kept.findings.count == 3)
  }

  @Test("--baseline with -f jsonl is refused: a baseline needs the whole report")
  func baselineNeedsTheWholeReport() async throws {
    let space = try workspace(leaky: 1, clean: 0)
    defer { space.remove() }
    try space.write("baseline.json", "{}")
    let result = await space.scan(
      ["-m", space.manifest, "-f", "jsonl", "--baseline", space.path("baseline.json"), space.path("logs")])
    #expect(result.status == 2)
    #expect(result.error.contains("use -f json with it"))
  }
}
