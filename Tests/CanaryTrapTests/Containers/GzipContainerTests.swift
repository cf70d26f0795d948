import Foundation
import Testing

@testable import CanaryTrap

/// gzip and zlib files made by the real tools: found with their path and line, clean twins clean,
/// and corrupt, truncated and bomb inputs reported failed.
@Suite struct GzipContainerTests {
  @Test func aCanaryInAGzipLogIsFoundWithItsPathAndLine() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: true, line: 3))
    guard try files.run("gzip", ["app.log"]) else { return }
    let result = files.scan("app.log.gz")
    let raw = result.findings.filter { $0.encoding == "raw" }
    #expect(raw.map(\.source) == ["app.log.gz!"])
    #expect(raw.first?.line == 3)
    #expect(raw.first?.column == 15)
    #expect(result.source.status == .heard)
  }

  @Test func theCleanTwinIsCleanAndHeard() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: false))
    guard try files.run("gzip", ["app.log"]) else { return }
    let result = files.scan("app.log.gz")
    #expect(result.findings.isEmpty)
    #expect(result.source.status == .heard)
    #expect(result.source.bytes == ContainerFixtures.log(leak: false).utf8.count)
  }

  @Test func everyMemberOfAMultiMemberGzipIsRead() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("one.log", ContainerFixtures.log(leak: false))
    try files.write("two.log", ContainerFixtures.log(leak: true, line: 2))
    guard try files.run("gzip", ["one.log", "two.log"]) else { return }
    let joined = try Data(contentsOf: files.url("one.log.gz")) + Data(contentsOf: files.url("two.log.gz"))
    try files.write("rotated.gz", joined)
    let result = files.scan("rotated.gz")
    let raw = result.findings.filter { $0.encoding == "raw" }
    #expect(raw.map(\.line) == [6 + 2])
    #expect(raw.map(\.source) == ["rotated.gz!"])
    #expect(result.source.status == .heard)
  }

  @Test func detectionIsByContentNotByName() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: true))
    guard try files.run("gzip", ["-9", "app.log"]) else { return }
    try FileManager.default.moveItem(at: files.url("app.log.gz"), to: files.url("app.txt"))
    #expect(files.scan("app.txt").findings.contains { $0.source == "app.txt!" && $0.encoding == "raw" })
  }

  @Test func aZlibStreamIsFoundAndItsCleanTwinIsClean() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("leak.txt", ContainerFixtures.log(leak: true, line: 4))
    try files.write("clean.txt", ContainerFixtures.log(leak: false))
    guard
      try files.python(
        "import zlib\nfor n in ['leak','clean']: open(n+'.z','wb').write(zlib.compress(open(n+'.txt','rb').read()))"
      )
    else { return }
    let leak = files.scan("leak.z")
    #expect(leak.findings.filter { $0.encoding == "raw" }.map(\.line) == [4])
    #expect(leak.findings.first?.source == "leak.z!")
    let clean = files.scan("clean.z")
    #expect(clean.findings.isEmpty)
    #expect(clean.source.status == .heard)
  }

  @Test(arguments: ["gzip", "zlib"])
  func corruptTruncatedAndBombInputsFail(format: String) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let text = String(repeating: ContainerFixtures.log(leak: false, lines: 40), count: 200)
    try files.write("a.log", text)
    try files.write("zeros", Data(count: 4 << 20))
    let compress =
      format == "gzip"
      ? "import gzip\nfor n in ['a.log','zeros']:\n for k in ['c','t']: open(n+'.'+k,'wb').write(gzip.compress(open(n,'rb').read()))"
      : "import zlib\nfor n in ['a.log','zeros']:\n for k in ['c','t']: open(n+'.'+k,'wb').write(zlib.compress(open(n,'rb').read()))"
    guard try files.python(compress) else { return }
    try files.corrupt("a.log.c")
    try files.truncate("a.log.t", to: 0.6)
    let corrupt = files.scan("a.log.c")
    #expect(corrupt.source.bytes > 0, "the bytes before the damage are still scanned")
    #expect(corrupt.source.status.failureReason?.contains("a.log.c: ") == true, "\(corrupt.source)")
    let truncated = files.scan("a.log.t")
    #expect(
      truncated.source.status.failureReason?.contains("a.log.t: truncated") == true, "\(truncated.source)")
    let bomb = files.scan("zeros.c", limits: ContainerLimits(maxExpandedBytes: 1 << 20))
    #expect(
      bomb.source.status.failureReason?.contains("ContainerLimits.maxExpandedBytes") == true, "\(bomb.source)"
    )
    let ratio = files.scan("zeros.t", limits: ContainerLimits(maxExpansionRatio: 100, ratioFloor: 1 << 16))
    #expect(ratio.source.status.failureReason?.contains("ContainerLimits.maxExpansionRatio") == true)
  }

  @Test func aGzipOfAGzipBombStopsAtTheDefaultRatioLimit() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    // 256 MiB of zeros compressed twice: about a kilobyte that would expand 200,000 times.
    guard
      try files.python(
        "import gzip\nz=gzip.compress(bytes(1<<28),9)\nopen('bomb.gz','wb').write(gzip.compress(z,9))")
    else { return }
    let stored = try Data(contentsOf: files.url("bomb.gz")).count
    let limits = ContainerLimits(ratioFloor: 1 << 20)
    let result = files.scan("bomb.gz", limits: limits)
    #expect(result.source.status.failureReason?.contains("ContainerLimits.maxExpansionRatio") == true)
    #expect(result.source.bytes <= max(1 << 20, 2_000 * stored) + (1 << 19))
  }
}

/// A gzip large enough that the reader refills its buffer many times mid-stream: the trailer
/// (and the canary on the last line) must still be read right.
@Suite struct LargeGzipTests {
  @Test func aMultiMegabyteGzipIsDecodedAndCheckedToTheEnd() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let script = """
      import random, gzip
      r = random.Random(7)
      words = ['GET','/v1/users','token','retry','cache','miss','timeout','ok']
      lines = [' '.join(r.choice(words) for _ in range(r.randint(2, 9))) + ' %x' % r.getrandbits(64)
               for _ in range(60000)]
      lines.append('last token=\(ContainerFixtures.canary.value)')
      open('big.gz','wb').write(gzip.compress(('\\n'.join(lines) + '\\n').encode(), 6))
      """
    guard try files.python(script) else { return }
    let result = files.scan("big.gz")
    #expect(result.source.status == .heard, "\(result.source)")
    #expect(result.findings.filter { $0.encoding == "raw" }.map(\.line) == [60001])
  }
}
