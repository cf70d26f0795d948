import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrap

/// Formats the scanner recognizes but does not decode (xz, lzma, zstd, lz4 frames, LZFSE,
/// encrypted zip members), made by the real tools: each is a failed source naming the command
/// that decompresses it, never clean; the same text uncompressed is heard, and its leak found.
@Suite struct UnopenedFormatTests {
  /// A tool, its arguments turning `app.log` into `out`, and the words the failure must say.
  struct Case: CustomTestStringConvertible, Sendable {
    let tool: String
    let script: String
    let says: String
    var testDescription: String { says }
  }

  static let cases: [Case] = [
    Case(
      tool: "xz", script: "xz -c app.log > out",
      says: "xz-compressed content is not opened; decompress it first: `xz -dc FILE | canary scan -`"),
    Case(
      tool: "xz", script: "xz --format=lzma -c app.log > out",
      says: "lzma-compressed (.lzma) content is not opened"),
    Case(
      tool: "zstd", script: "zstd -q -c app.log > out",
      says: "zstd-compressed content is not opened; decompress it first: `zstd -dc FILE | canary scan -`"),
    Case(
      tool: "lz4", script: "lz4 -q -c app.log > out", says: "lz4-compressed (lz4 frame) content is not opened"
    ),
    Case(
      tool: "lz4", script: "lz4 -l -q -c app.log > out",
      says: "lz4-compressed (lz4 frame) content is not opened"),
  ]

  private func make(_ files: ContainerFixtures, _ item: Case, leak: Bool) throws -> Bool {
    try files.write("app.log", ContainerFixtures.log(leak: leak, line: 2))
    guard ExternalTools.require(item.tool, for: "this unopened-format test") != nil else {
      return false
    }
    return try files.run("sh", ["-c", item.script])
  }

  @Test(arguments: cases)
  func aCompressedFileThatIsNotOpenedFailsAndNamesTheCommand(item: Case) throws {
    for leak in [false, true] {
      let files = try ContainerFixtures()
      defer { files.remove() }
      guard try make(files, item, leak: leak) else { return }
      let result = files.scan("out")
      #expect(
        result.source.status.failureReason?.contains("out: unsupported: \(item.says)") == true,
        "\(result.source)")
      #expect(result.source.status != .heard)
    }
  }

  @Test(arguments: cases)
  func insideATarTheMemberFailsAndTheOthersAreStillScanned(item: Case) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, item, leak: false) else { return }
    try files.write("plain.log", ContainerFixtures.log(leak: true, line: 4))
    guard try files.run("tar", ["-cf", "logs.tar", "out", "plain.log"]) else { return }
    let result = files.scan("logs.tar")
    #expect(result.source.status.failureReason?.contains("logs.tar!/out: unsupported: \(item.says)") == true)
    #expect(result.findings.filter { $0.encoding == "raw" }.map(\.source) == ["logs.tar!/plain.log"])
  }

  /// The twin: the same log uncompressed is heard, and its leak is found where it is.
  @Test func theSameLogUncompressedIsHeardAndItsLeakFound() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("clean.log", ContainerFixtures.log(leak: false))
    try files.write("leak.log", ContainerFixtures.log(leak: true, line: 2))
    #expect(files.scan("clean.log").source.status == .heard)
    #expect(files.scan("leak.log").findings.map(\.line).contains(2))
  }

  /// lz4 and zstd keep incompressible runs as literals: a canary stored that way is still found,
  /// and the source still fails.
  @Test func aCanaryStoredAsALiteralIsReportedAndTheSourceStillFails() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    guard try make(files, Case(tool: "lz4", script: "lz4 -q -c app.log > out", says: ""), leak: true) else {
      return
    }
    let result = files.scan("out")
    #expect(result.findings.contains { $0.encoding == "raw" && $0.source == "out" })
    #expect(result.source.status.failureReason != nil)
  }

  /// LZFSE (Apple's `bvx2`, `bvxn`, `bvx-` blocks): no tool makes it here, so the blocks are
  /// written by hand from the format (an uncompressed `bvx-` block, and a `bvx2` header).
  @Test(arguments: ["bvx-", "bvx2", "bvxn", "bvx1"])
  func lzfseBlocksAreRecognizedAndFail(magic: String) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let text = Array(ContainerFixtures.log(leak: false).utf8)
    let size = UInt32(text.count)
    var bytes = Array(magic.utf8) + withUnsafeBytes(of: size.littleEndian, Array.init) + text
    bytes += Array("bvx$".utf8)
    try files.write("blob", Data(bytes))
    let result = files.scan("blob")
    #expect(
      result.source.status.failureReason?.contains(
        "LZFSE-compressed (Apple Compression) content is not opened") == true)
  }

  @Test func aTextFileStartingWithLookalikeBytesIsPlain() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    for (name, text) in [
      ("a", "bvx is a word\n"), ("b", "]\u{0}\u{0}x\n"), ("c", "BZh is not bzip2\n"), ("d", "Rar! no\n"),
    ] {
      try files.write(name, text)
      #expect(files.scan(name).source.status == .heard, "\(name)")
    }
  }

  /// An encrypted zip member (`zip -e -P`) fails, naming it, while its plain sibling is scanned.
  @Test func anEncryptedZipMemberFailsWhileItsSiblingIsScanned() throws {
    for leak in [false, true] {
      let files = try ContainerFixtures()
      defer { files.remove() }
      try files.write("secret.log", ContainerFixtures.log(leak: false))
      try files.write("open.log", ContainerFixtures.log(leak: leak, line: 5))
      guard try files.run("zip", ["-q", "-e", "-P", "pw", "locked.zip", "secret.log"]),
        try files.run("zip", ["-q", "locked.zip", "open.log"])
      else { return }
      let result = files.scan("locked.zip")
      #expect(
        result.source.status.failureReason?.contains("locked.zip!/secret.log: unsupported: encrypted member")
          == true,
        "\(result.source)")
      #expect(
        result.findings.filter { $0.encoding == "raw" }.map(\.source)
          == (leak ? ["locked.zip!/open.log"] : []))
    }
  }

  /// An encrypted member with a data descriptor (`zip -fd`, as when zip writes to a pipe) has no
  /// size up front, so nothing after it can be found: the whole archive fails.
  @Test func anEncryptedMemberWithADataDescriptorFailsTheArchive() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("a.log", ContainerFixtures.log(leak: false))
    guard try files.run("sh", ["-c", "cat a.log | zip -q -e -P pw -fd piped.zip -"]) else { return }
    let result = files.scan("piped.zip")
    #expect(result.source.status.failureReason?.contains("encrypted member") == true, "\(result.source)")
  }
}
