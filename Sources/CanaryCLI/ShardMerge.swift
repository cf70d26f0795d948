import CanaryTrap
import Foundation

/// `canary report merge` of shard reports (`canary scan -f json` or `-f jsonl`): one JSON-lines
/// report whose counts are the sums of the shards', whose verdict is the worst of theirs (leaky
/// over inconclusive over clean), and which keeps every shard's errors. A shard that is missing,
/// empty or cut short (a JSON-lines report without its summary line) makes the merge
/// inconclusive, never clean.
struct ShardMerge {
  /// The longest line of a JSON-lines shard, and the largest JSON shard, read.
  static let maximumLineBytes = 64 << 20
  static let maximumDocumentBytes = 1 << 30

  /// The shard reports in `directory`: its `.json` and `.jsonl` files, in byte order of their names.
  static func shardFiles(in directory: URL) throws -> [URL] {
    try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
      .filter { ["json", "jsonl"].contains($0.pathExtension) }
      .sorted { Array($0.lastPathComponent.utf8).lexicographicallyPrecedes(Array($1.lastPathComponent.utf8)) }
  }

  /// A shard that cannot be merged at all (unreadable, not a report): exit 2.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private(set) var sources: [ScanJSONLines.Source] = []
  private(set) var listedLeaks = 0
  private(set) var leakCount = 0
  private(set) var bytes = 0
  private(set) var errors: [String] = []
  private(set) var verdicts: [String] = []
  private(set) var shards = 0

  /// The merged summary; `expected` shards were expected (nil: as many as were found).
  func summary(expected: Int?) -> ScanJSONLines.Summary {
    var errors = self.errors
    if let expected, shards < expected {
      errors.append(
        "expected \(expected) shard reports, found \(shards): the missing ones were not looked at")
    }
    let verdict: LeakReport.Verdict
    if leakCount > 0 || verdicts.contains("leaky") {
      verdict = .leaky
    } else if verdicts.contains(where: { $0 != "clean" }) || errors.count > 0 || shards == 0 {
      verdict = .inconclusive
    } else {
      verdict = .clean
    }
    return ScanJSONLines.Summary(
      title: "canary report merge", verdict: verdict.rawValue, clean: verdict == .clean, leakCount: leakCount,
      listedLeaks: listedLeaks, sourceCount: sources.count, bytes: bytes, errors: errors)
  }

  /// Reads the shard at `url`, handing each leak line to `emit` as it is read.
  mutating func add(_ url: URL, emit: (Data) throws -> Void) throws {
    shards += 1
    let name = url.lastPathComponent
    let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    if size == 0 {
      errors.append("shard \(name) is empty: its scan wrote nothing")
      verdicts.append("inconclusive")
      return
    }
    if url.pathExtension == "jsonl" {
      try addLines(url, name: name, emit: emit)
    } else {
      try addDocument(url, name: name, emit: emit)
    }
  }

  private struct LineType: Decodable { var type: String }

  private mutating func addLines(_ url: URL, name: String, emit: (Data) throws -> Void) throws {
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
      throw Failure(description: "cannot read shard \(name)")
    }
    defer { try? handle.close() }
    let decoder = JSONDecoder()
    var pending = Data()
    var lineNumber = 0
    var shardLeaks = 0
    var summary: ScanJSONLines.Summary?
    func take(_ line: Data) throws {
      lineNumber += 1
      guard !line.isEmpty else { return }
      guard summary == nil else {
        throw Failure(description: "shard \(name) line \(lineNumber): a line after the summary line")
      }
      let type: String
      do { type = try decoder.decode(LineType.self, from: line).type } catch {
        throw Failure(description: "shard \(name) line \(lineNumber): not a JSON-lines report line")
      }
      switch type {
      case "leak":
        _ = try decoded(ScanJSONLines.Leak.self, line, name, lineNumber, decoder)
        shardLeaks += 1
        try emit(line + Data("\n".utf8))
      case "source": sources.append(try decoded(ScanJSONLines.Source.self, line, name, lineNumber, decoder))
      case "summary": summary = try decoded(ScanJSONLines.Summary.self, line, name, lineNumber, decoder)
      default: throw Failure(description: "shard \(name) line \(lineNumber): unknown line type '\(type)'")
      }
    }
    while true {
      let chunk = try handle.read(upToCount: 1 << 20) ?? Data()
      if chunk.isEmpty { break }
      pending.append(chunk)
      while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
        try take(Data(pending[pending.startIndex..<end]))
        pending = Data(pending[(end + 1)...])
      }
      if pending.count > Self.maximumLineBytes {
        throw Failure(
          description: "shard \(name) line \(lineNumber + 1) is over \(Self.maximumLineBytes >> 20) MiB")
      }
    }
    if !pending.isEmpty {
      // A last line without its line feed: the shard's writer stopped mid-line.
      errors.append("shard \(name) ends inside a line: its scan did not finish")
      verdicts.append("inconclusive")
      listedLeaks += shardLeaks
      leakCount += shardLeaks
      return
    }
    listedLeaks += shardLeaks
    guard let summary else {
      errors.append("shard \(name) has no summary line: its scan did not finish")
      verdicts.append("inconclusive")
      leakCount += shardLeaks
      return
    }
    if summary.listedLeaks != shardLeaks {
      errors.append("shard \(name) lists \(shardLeaks) leaks, but its summary says \(summary.listedLeaks)")
      verdicts.append("inconclusive")
    }
    leakCount += max(summary.leakCount, shardLeaks)
    bytes += summary.bytes
    errors += summary.errors.map { "shard \(name): \($0)" }
    verdicts.append(summary.verdict)
  }

  private func decoded<T: Decodable>(
    _ type: T.Type, _ line: Data, _ name: String, _ lineNumber: Int, _ decoder: JSONDecoder
  ) throws -> T {
    do { return try decoder.decode(type, from: line) } catch {
      throw Failure(description: "shard \(name) line \(lineNumber): not a valid \(type) line: \(error)")
    }
  }

  private mutating func addDocument(_ url: URL, name: String, emit: (Data) throws -> Void) throws {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw Failure(description: "cannot read shard \(name): \(error.localizedDescription)")
    }
    guard data.count <= Self.maximumDocumentBytes else {
      throw Failure(
        description:
          "shard \(name) is over \(Self.maximumDocumentBytes >> 20) MiB; write shards with -f jsonl")
    }
    let document: JSONReportDocument
    do { document = try JSONDecoder().decode(JSONReportDocument.self, from: data) } catch {
      throw Failure(description: "shard \(name) is not a canary scan JSON report: \(error)")
    }
    for leak in document.leaks {
      var line = ScanJSONLines.Leak(
        canary: leak.canary, encoding: leak.encoding, source: leak.source, line: leak.line,
        column: leak.column,
        offset: leak.offset, excerpt: leak.excerpt)
      line.type = "leak"
      try emit(try ScanJSONLines.line(line))
    }
    var listedPerSource: [String: Int] = [:]
    let names = Set(document.sources.map(\.name))
    for leak in document.leaks {
      // A finding inside a container is named by its path inside (`logs.zip!/app.log`).
      let outer = leak.source.split(separator: "!", maxSplits: 1).first.map(String.init) ?? leak.source
      listedPerSource[names.contains(leak.source) ? leak.source : outer, default: 0] += 1
    }
    var omittedPerSource: [String: Int] = [:]
    for omitted in document.omittedLeaks ?? [] {
      omittedPerSource[omitted.source, default: 0] += omitted.count
    }
    for source in document.sources {
      sources.append(
        ScanJSONLines.Source(
          name: source.name, bytes: source.bytes, status: source.status, reason: source.reason,
          listed: listedPerSource[source.name, default: 0], omitted: omittedPerSource[source.name, default: 0]
        ))
      bytes += source.bytes
    }
    listedLeaks += document.leaks.count
    leakCount += document.leakCount ?? document.leaks.count
    errors += document.errors.map { "shard \(name): \($0)" }
    verdicts.append(document.verdict)
  }
}

extension ScanJSONLines.Leak {
  /// A leak line from its fields.
  init(
    canary: ScanJSONLines.CanaryRef, encoding: String, source: String, line: Int, column: Int, offset: Int,
    excerpt: String
  ) {
    self.canary = canary
    self.encoding = encoding
    self.source = source
    self.line = line
    self.column = column
    self.offset = offset
    self.excerpt = excerpt
  }
}

extension ScanJSONLines.Source {
  /// A source line from its fields.
  init(name: String, bytes: Int, status: String, reason: String?, listed: Int, omitted: Int) {
    self.name = name
    self.bytes = bytes
    self.status = status
    self.reason = reason
    omittedLeaks = omitted
    leakCount = listed + omitted
  }
}
