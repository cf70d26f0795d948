import Foundation
import Testing

@testable import CanaryTrap

/// Swift Testing runs these in parallel with every other test in the process, whose output also
/// lands in each window: every check looks for this test's own canary, never for silence.
@Suite struct StandardStreamsSinkTests {
  @Test func everyWayOfWritingIsCaughtUnderItsStreamName() async throws {
    let canary = SinkTestSupport.canary()
    let sink = StandardStreamsSink()
    let contents = try await SinkTestSupport.capture(sink) {
      print("GET https://api.example.com/me?token=print-\(canary)")
      debugPrint("debugPrint-\(canary)")
      dump(["dump-\(canary)"])
      NSLog("NSLog-%@", canary)
      FileHandle.standardError.write(Data("FileHandle-\(canary)\n".utf8))
      StandardStreamWriters.fputsToStandardError("fputs-\(canary)\n")
    }
    #expect(contents.map(\.name) == ["stdout", "stderr"])
    let output = try SinkTestSupport.bytes(of: contents[0])
    let error = try SinkTestSupport.bytes(of: contents[1])
    for writer in ["token=print-", "debugPrint-", "dump-"] {
      #expect(SinkTestSupport.contains(output, writer + canary), "stdout misses \(writer)")
    }
    for writer in ["NSLog-", "FileHandle-", "fputs-"] {
      #expect(SinkTestSupport.contains(error, writer + canary), "stderr misses \(writer)")
    }
  }

  @Test func outputWithoutTheCanaryIsCapturedButHoldsNone() async throws {
    let canary = SinkTestSupport.canary()
    let marker = "clean-\(UUID().uuidString)"
    let sink = StandardStreamsSink()
    let contents = try await SinkTestSupport.capture(sink) {
      print("GET https://api.example.com/me?token=<redacted> \(marker)")
    }
    #expect(try SinkTestSupport.anyContains(contents, marker))
    #expect(try !SinkTestSupport.anyContains(contents, canary))
  }

  @Test func outputBeforeTheWindowOpensIsNotInIt() async throws {
    let before = "before-\(SinkTestSupport.canary())"
    let after = "after-\(SinkTestSupport.canary())"
    let outer = StandardStreamsSink(streams: [.standardOutput])
    try await outer.begin()  // keeps the capture installed, so `before` really is captured
    print(before)
    let inner = StandardStreamsSink(streams: [.standardOutput])
    let contents = try await SinkTestSupport.capture(inner) { print(after) }
    let outerContents = try await outer.collect()
    await outer.end()
    #expect(try SinkTestSupport.anyContains(contents, after))
    #expect(try !SinkTestSupport.anyContains(contents, before))
    #expect(try SinkTestSupport.anyContains(outerContents, before))
    #expect(try SinkTestSupport.anyContains(outerContents, after))
  }

  @Test func parallelScopesEachFindTheirOwnCanary() async throws {
    let canaries = (0..<8).map { _ in SinkTestSupport.canary() }
    let found = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
      for canary in canaries {
        group.addTask {
          let sink = StandardStreamsSink()
          let contents = try await SinkTestSupport.capture(sink) {
            for round in 0..<20 {
              print("scope \(canary) round \(round)")
              await Task.yield()
            }
            FileHandle.standardError.write(Data("stderr \(canary)\n".utf8))
          }
          let output = try SinkTestSupport.bytes(of: contents[0])
          let error = try SinkTestSupport.bytes(of: contents[1])
          let allRounds = StandardStreamWriters.lines(in: output, startingWith: "scope \(canary)").count == 20
          return (canary, allRounds && SinkTestSupport.contains(error, "stderr \(canary)"))
        }
      }
      return try await group.reduce(into: [String: Bool]()) { $0[$1.0] = $1.1 }
    }
    #expect(found.count == canaries.count)
    #expect(found.values.allSatisfy { $0 })
  }

  @Test func aMegabyteOfOutputIsCapturedWithoutLosingAByte() async throws {
    let canary = SinkTestSupport.canary()
    let lineCount = 16_384  // 16 384 lines of 64 bytes: 1 MiB
    let filler = String(repeating: "x", count: 64 - canary.utf8.count - 9)
    let sink = StandardStreamsSink()
    try await sink.begin()
    let capture = StandardStreamCapture.shared
    capture.standardOutput.suppressEcho(true)  // keep 1 MiB out of the developer's terminal
    defer { capture.standardOutput.suppressEcho(false) }
    for index in 0..<lineCount {
      print("\(canary) \(String(format: "%06d", index)) \(filler)")
    }
    let contents = try await sink.collect()
    await sink.end()
    let output = try SinkTestSupport.bytes(of: contents[0])
    let lines = StandardStreamWriters.lines(in: output, startingWith: canary)
    #expect(output.count >= lineCount * 64)
    #expect(lines.count == lineCount)
    #expect(lines.first == "\(canary) 000000 \(filler)")
    #expect(lines.last == "\(canary) \(String(format: "%06d", lineCount - 1)) \(filler)")
    #expect(lines.enumerated().allSatisfy { $1 == "\(canary) \(String(format: "%06d", $0)) \(filler)" })
  }

  @Test func collectBeforeBeginFailsClearly() async throws {
    let sink = StandardStreamsSink()
    await #expect(throws: SinkError.self) { try await sink.collect() }
  }
}
