import Foundation
import Testing

@testable import CanaryTrap

/// bzip2 files made by the real `bzip2`, `tar -j` and Python's `bz2`: found with their path and
/// line, clean twins clean, and corrupt, truncated and bomb inputs reported failed.
@Suite struct Bzip2ContainerTests {
  @Test func aCanaryInABzip2LogIsFoundWithItsPathAndLine() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: true, line: 3))
    guard try files.run("bzip2", ["app.log"]) else { return }
    let result = files.scan("app.log.bz2")
    let raw = result.findings.filter { $0.encoding == "raw" }
    #expect(raw.map(\.source) == ["app.log.bz2!"])
    #expect(raw.first?.line == 3)
    #expect(raw.first?.column == 15)
    #expect(result.source.status == .heard)
  }

  @Test func theCleanTwinIsCleanAndHeard() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: false))
    guard try files.run("bzip2", ["app.log"]) else { return }
    let result = files.scan("app.log.bz2")
    #expect(result.findings.isEmpty)
    #expect(result.source.status == .heard)
    #expect(result.source.bytes == ContainerFixtures.log(leak: false).utf8.count)
  }

  @Test(arguments: [false, true])
  func aTarBz2IsOpenedAndNamesTheMember(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("in/net/app.log", ContainerFixtures.log(leak: leak, line: 2))
    try files.write("in/ui.log", ContainerFixtures.log(leak: false))
    guard try files.run("tar", ["-cjf", "logs.tar.bz2", "-C", "in", "net", "ui.log"]) else { return }
    let result = files.scan("logs.tar.bz2")
    #expect(
      result.findings.filter { $0.encoding == "raw" }.map(\.source)
        == (leak ? ["logs.tar.bz2!/net/app.log"] : []))
    #expect(result.source.status == .heard, "\(result.source)")
  }

  @Test func everyStreamOfAConcatenatedBzip2IsRead() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("one.log", ContainerFixtures.log(leak: false))
    try files.write("two.log", ContainerFixtures.log(leak: true, line: 2))
    guard try files.run("bzip2", ["one.log", "two.log"]) else { return }
    let joined = try Data(contentsOf: files.url("one.log.bz2")) + Data(contentsOf: files.url("two.log.bz2"))
    try files.write("rotated.bz2", joined)
    let result = files.scan("rotated.bz2")
    #expect(result.findings.filter { $0.encoding == "raw" }.map(\.line) == [6 + 2])
    #expect(result.source.status == .heard)
  }

  /// Several 100 kB blocks (`-1`), long runs of one byte (the run-length steps), every byte value,
  /// and the canary on the last line: decoded whole, each block's CRC checked.
  @Test func aMultiBlockFileWithLongRunsIsDecodedToTheEnd() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let script = """
      import bz2, random
      r = random.Random(7)
      parts = []
      for i in range(4000):
          parts.append(('line %d %s ' % (i, r.choice(['a'*300, 'b'*4, 'c'*5, 'xyz', '']))).encode())
          parts.append(bytes(r.randrange(256) for _ in range(r.randrange(40))).replace(b'\\n', b' ') + b'\\n')
      parts.append(b'last line token=\(ContainerFixtures.canary.value)\\n')
      data = b''.join(parts)
      open('big.log', 'wb').write(data)
      open('big.log.bz2', 'wb').write(bz2.compress(data, 1))
      """
    guard try files.python(script) else { return }
    let expected = try Data(contentsOf: files.url("big.log"))
    let result = files.scan("big.log.bz2")
    #expect(result.source.status == .heard, "\(result.source)")
    #expect(result.source.bytes == expected.count)
    #expect(result.findings.filter { $0.encoding == "raw" }.map(\.line) == [4001])
  }

  @Test func corruptTruncatedAndBombInputsFail() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let text = String(repeating: ContainerFixtures.log(leak: false, lines: 40), count: 200)
    try files.write("a.log", text)
    try files.write("zeros", Data(count: 4 << 20))
    guard
      try files.python(
        "import bz2\nfor n in ['a.log','zeros']:\n for k in ['c','t','k']: open(n+'.'+k,'wb').write(bz2.compress(open(n,'rb').read()))"
      )
    else { return }
    try files.corrupt("a.log.c")
    try files.truncate("a.log.t", to: 0.6)
    // The first block's stored CRC (bytes 10 to 13) changed: the data decodes but fails its check.
    var crc = try Data(contentsOf: files.url("a.log.k"))
    crc[11] ^= 0x01
    try files.write("a.log.k", crc)
    let corrupt = files.scan("a.log.c")
    #expect(corrupt.source.status.failureReason?.contains("a.log.c: ") == true, "\(corrupt.source)")
    let truncated = files.scan("a.log.t")
    #expect(
      truncated.source.status.failureReason?.contains("a.log.t: truncated") == true, "\(truncated.source)")
    let badCRC = files.scan("a.log.k")
    #expect(
      badCRC.source.status.failureReason?.contains("bzip2 block 1 fails its CRC check") == true,
      "\(badCRC.source)")
    #expect(badCRC.source.bytes > 0, "the bytes before the check are still scanned")
    let bomb = files.scan("zeros.c", limits: ContainerLimits(maxExpandedBytes: 1 << 20))
    #expect(bomb.source.status.failureReason?.contains("ContainerLimits.maxExpandedBytes") == true)
    let ratio = files.scan("zeros.t", limits: ContainerLimits(maxExpansionRatio: 100, ratioFloor: 1 << 16))
    #expect(ratio.source.status.failureReason?.contains("ContainerLimits.maxExpansionRatio") == true)
    // The clean twin of all three: the same file untouched is heard.
    #expect(files.scan("zeros.k").source.status == .heard)
  }

  @Test func bytesAfterTheStreamAreCorrupt() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: false))
    guard try files.run("bzip2", ["app.log"]) else { return }
    try files.write("tail.bz2", try Data(contentsOf: files.url("app.log.bz2")) + Data("junk".utf8))
    #expect(
      files.scan("tail.bz2").source.status.failureReason?.contains("are not another bzip2 stream") == true)
  }
}
