import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

/// Apple's LZ4 format (`bv41` blocks, as the Compression framework's `COMPRESSION_LZ4` writes
/// them): the LZ4 blocks are made by Python's `lz4.block` (the reference LZ4 library) and wrapped
/// in Apple's block headers, since Apple's encoder is not on this machine.
@Suite struct AppleLZ4ContainerTests {
  /// Python that defines `frame(data, block)`: Apple LZ4 framing of `data` in `block`-byte blocks,
  /// each compressed with the 64 KiB before it as its dictionary (so matches cross blocks).
  static let framing = """
    import struct, lz4.block
    def frame(data, block=65536, stored=False):
        out = b''
        for i in range(0, len(data), block):
            part = data[i:i+block]
            if stored:
                out += b'bv4-' + struct.pack('<I', len(part)) + part
                continue
            packed = lz4.block.compress(part, store_size=False, dict=data[max(0, i-65536):i])
            out += b'bv41' + struct.pack('<II', len(part), len(packed)) + packed
        return out + b'bv4$'

    """

  private func make(_ files: ContainerFixtures, _ script: String) throws -> Bool {
    guard ExternalTools.requirePython("lz4.block", package: "lz4", for: "this Apple LZ4 container test")
    else { return false }
    return try files.python(Self.framing + script)
  }

  @Test(arguments: [false, true])
  func aCanaryInAnAppleLZ4LogIsFoundAndItsCleanTwinIsClean(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("app.log", ContainerFixtures.log(leak: leak, line: 3))
    guard try make(files, "open('app.lz4','wb').write(frame(open('app.log','rb').read()))") else { return }
    let result = files.scan("app.lz4")
    let raw = result.findings.filter { $0.encoding == "raw" }
    #expect(raw.map(\.source) == (leak ? ["app.lz4!"] : []))
    #expect(raw.map(\.line) == (leak ? [3] : []))
    #expect(result.source.status == .heard)
    #expect(result.source.bytes == ContainerFixtures.log(leak: leak, line: 3).utf8.count)
  }

  /// Several blocks whose matches reach into the block before, stored blocks, and the canary on
  /// the last line; inside a tar too.
  @Test func blocksThatReferToEarlierBlocksAndStoredBlocksAreDecoded() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let script = """
      import random, tarfile
      r = random.Random(3)
      lines = [('line %d %s' % (i, r.choice(['GET /api/users', 'POST /login', 'x'*200]))).encode() for i in range(20000)]
      data = b'\\n'.join(lines) + b'\\nlast token=\(ContainerFixtures.canary.value)\\n'
      open('big.log','wb').write(data)
      open('big.lz4','wb').write(frame(data, 50000) + frame(b'tail line\\n', stored=True))
      t = tarfile.open('logs.tar', 'w')
      t.add('big.lz4')
      t.close()
      """
    guard try make(files, script) else { return }
    let size = try Data(contentsOf: files.url("big.log")).count + "tail line\n".utf8.count
    let result = files.scan("big.lz4")
    #expect(result.source.status == .heard, "\(result.source)")
    #expect(result.source.bytes == size)
    #expect(result.findings.filter { $0.encoding == "raw" }.map(\.line) == [20001])
    let tar = files.scan("logs.tar")
    #expect(tar.findings.filter { $0.encoding == "raw" }.map(\.source) == ["logs.tar!/big.lz4!"])
  }

  @Test func corruptTruncatedUnendedAndBombInputsFail() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let script = """
      text = open('a.log','rb').read()
      for k in 'ctu': open('a.'+k,'wb').write(frame(text))
      open('a.u','wb').write(frame(text)[:-4])
      open('z','wb').write(frame(bytes(4<<20), 1<<20))
      """
    try files.write("a.log", String(repeating: ContainerFixtures.log(leak: false, lines: 40), count: 200))
    guard try make(files, script) else { return }
    try files.corrupt("a.c", count: 64, at: 0.3)
    try files.truncate("a.t", to: 0.6)
    let corrupt = files.scan("a.c")
    #expect(
      corrupt.source.status.failureReason?.contains("a.c: corrupt: LZ4 block") == true, "\(corrupt.source)")
    let truncated = files.scan("a.t")
    #expect(truncated.source.status.failureReason?.contains("a.t: truncated") == true, "\(truncated.source)")
    let unended = files.scan("a.u")
    #expect(unended.source.status.failureReason?.contains("before its end marker (bv4$)") == true)
    #expect(unended.source.bytes > 0, "the blocks before the missing end are still scanned")
    let bomb = files.scan("z", limits: ContainerLimits(maxExpandedBytes: 1 << 20))
    #expect(bomb.source.status.failureReason?.contains("ContainerLimits.maxExpandedBytes") == true)
    #expect(bomb.source.bytes <= 1 << 20)
    // The clean twin: the same bytes undamaged are heard.
    #expect(files.scan("z").source.status == .heard)
  }

  @Test func aMatchBeforeTheStartIsCorrupt() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    // One literal "a", then a match at offset 9 of length 4: there is only one byte behind it.
    var bytes = Array("bv41".utf8) + [5, 0, 0, 0, 4, 0, 0, 0] + [0x10, 0x61, 9, 0] + Array("bv4$".utf8)
    try files.write("bad.lz4", Data(bytes))
    #expect(
      files.scan("bad.lz4").source.status.failureReason?.contains("copies from before its start") == true)
    // Offset 1 instead: "aaaaa", decoded.
    bytes[14] = 1
    try files.write("good.lz4", Data(bytes))
    #expect(files.scan("good.lz4").source.status == .heard)
    #expect(files.scan("good.lz4").source.bytes == 5)
  }
}
