import Foundation
import Testing

@testable import CanaryTrap

/// tar and zip archives made by the real tools (tar, zip, python's tarfile and zipfile): members
/// found by their path through the archive, nested containers included, clean twins clean, and
/// corrupt, truncated and bomb archives reported failed.
@Suite struct ArchiveContainerTests {
  private func rawFindings(_ result: (findings: [LeakFinding], source: ScannedSource)) -> [String] {
    result.findings.filter { $0.encoding == "raw" }.map { "\($0.source):\($0.line):\($0.column)" }
  }

  @Test(arguments: [false, true])
  func aCanaryInATarGzMemberIsFoundWithItsPath(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("logs/net/app.log", ContainerFixtures.log(leak: leak, line: 5))
    try files.write("logs/ui.log", ContainerFixtures.log(leak: false))
    guard try files.run("tar", ["-czf", "logs.tgz", "-C", "logs", "net", "ui.log"]) else { return }
    let result = files.scan("logs.tgz")
    #expect(rawFindings(result) == (leak ? ["logs.tgz!/net/app.log:5:15"] : []))
    #expect(result.source.status == .heard)
    #expect(result.source.bytes == 2 * ContainerFixtures.log(leak: false).utf8.count + (leak ? 16 : 0))
  }

  @Test func aPaxTarWithALongPathAndAGzipMemberIsRead() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    let long = String(repeating: "deep/", count: 40) + "app.log"
    try files.write("app.log", ContainerFixtures.log(leak: true, line: 2))
    guard try files.run("gzip", ["-k", "app.log"]) else { return }
    guard
      try files.python(
        "import tarfile\nt=tarfile.open('pax.tar','w',format=tarfile.PAX_FORMAT)\n"
          + "t.add('app.log',arcname='\(long)')\nt.add('app.log.gz',arcname='x/app.log.gz')\nt.close()")
    else { return }
    let result = files.scan("pax.tar")
    #expect(rawFindings(result) == ["pax.tar!/\(long):2:15", "pax.tar!/x/app.log.gz!:2:15"])
    #expect(result.source.status == .heard)
  }

  @Test(arguments: [false, true])
  func aZipHoldingAGzipLogIsFoundThroughBoth(leak: Bool) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("in/net/app.log", ContainerFixtures.log(leak: leak, line: 4))
    try files.write("in/readme.txt", ContainerFixtures.log(leak: false))
    guard try files.run("gzip", ["in/net/app.log"]) else { return }
    guard try files.run("sh", ["-c", "cd in && zip -q -r ../logs.zip net readme.txt"]) else { return }
    let result = files.scan("logs.zip")
    #expect(rawFindings(result) == (leak ? ["logs.zip!/net/app.log.gz!:4:15"] : []))
    #expect(result.source.status == .heard)
  }

  /// Stored, deflated, zip64, data descriptors after deflated and stored members (written to an
  /// unseekable stream; one member holds a decoy descriptor signature) and a zip nested in a zip,
  /// all by python's zipfile.
  @Test func everyZipLayoutPythonWritesIsRead() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("leak.log", ContainerFixtures.log(leak: true, line: 3))
    let script = """
      import zipfile, io, sys
      data = open('leak.log','rb').read()
      with zipfile.ZipFile('stored.zip','w',zipfile.ZIP_STORED) as z: z.writestr('a/s.log', data)
      with zipfile.ZipFile('deflated.zip','w',zipfile.ZIP_DEFLATED) as z: z.writestr('a/d.log', data)
      with zipfile.ZipFile('zip64.zip','w',zipfile.ZIP_DEFLATED) as z:
          with z.open('a/big.log','w',force_zip64=True) as f: f.write(data)
      class Pipe(io.RawIOBase):
          def __init__(self, f): self.f = f
          def writable(self): return True
          def write(self, b): return self.f.write(b)
      with open('streamed.zip','wb') as out:
          with zipfile.ZipFile(Pipe(out),'w',zipfile.ZIP_DEFLATED) as z:
              with z.open('a/p.log','w') as f: f.write(data)
      with open('streamed-stored.zip','wb') as out:
          with zipfile.ZipFile(Pipe(out),'w',zipfile.ZIP_STORED) as z:
              with z.open('a/q.log','w') as f: f.write(b'PK\\x07\\x08 decoy\\n' + data)
              with z.open('a/r.log','w') as f: f.write(data)
      inner = open('deflated.zip','rb').read()
      with zipfile.ZipFile('nested.zip','w',zipfile.ZIP_STORED) as z: z.writestr('inner.zip', inner)
      """
    guard try files.python(script) else { return }
    #expect(rawFindings(files.scan("stored.zip")) == ["stored.zip!/a/s.log:3:15"])
    #expect(rawFindings(files.scan("deflated.zip")) == ["deflated.zip!/a/d.log:3:15"])
    #expect(rawFindings(files.scan("zip64.zip")) == ["zip64.zip!/a/big.log:3:15"])
    #expect(rawFindings(files.scan("streamed.zip")) == ["streamed.zip!/a/p.log:3:15"])
    #expect(rawFindings(files.scan("nested.zip")) == ["nested.zip!/inner.zip!/a/d.log:3:15"])
    #expect(
      rawFindings(files.scan("streamed-stored.zip"))
        == ["streamed-stored.zip!/a/q.log:4:15", "streamed-stored.zip!/a/r.log:3:15"])
    for name in [
      "stored.zip", "deflated.zip", "zip64.zip", "streamed.zip", "streamed-stored.zip", "nested.zip",
    ] {
      #expect(files.scan(name).source.status == .heard, "\(name)")
    }
  }

  @Test(arguments: ["zip", "tgz"])
  func corruptTruncatedAndBombArchivesFail(format: String) throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("in/a.log", String(repeating: ContainerFixtures.log(leak: false, lines: 40), count: 100))
    try files.write("in/zeros.log", Data(count: 4 << 20))
    let make: (String, [String]) throws -> Bool = { name, members in
      format == "zip"
        ? try files.run(
          "sh",
          [
            "-c",
            "cd in && zip -q ../\(name).zip \(members.joined(separator: " ")) && mv ../\(name).zip ../\(name)",
          ])
        : try files.run("tar", ["-czf", name, "-C", "in"] + members)
    }
    guard try make("c", ["a.log"]), try make("t", ["a.log"]), try make("bomb", ["zeros.log"]) else { return }
    try files.corrupt("c", at: 0.4)
    try files.truncate("t", to: 0.6)
    for name in ["c", "t"] {
      let result = files.scan(name)
      #expect(result.source.status.failureReason != nil, "\(name): \(result.source)")
    }
    #expect(files.scan("t").source.status.failureReason?.contains("truncated") == true)
    let bomb = files.scan("bomb", limits: ContainerLimits(maxExpandedBytes: 1 << 20))
    #expect(
      bomb.source.status.failureReason?.contains("ContainerLimits.maxExpandedBytes") == true, "\(bomb.source)"
    )
  }

  @Test func nestingDeeperThanTheLimitFails() throws {
    let files = try ContainerFixtures()
    defer { files.remove() }
    try files.write("a.log", ContainerFixtures.log(leak: true))
    guard
      try files.python(
        "import gzip\nd=open('a.log','rb').read()\nfor _ in range(4): d=gzip.compress(d)\nopen('deep.gz','wb').write(d)"
      )
    else { return }
    #expect(files.scan("deep.gz").findings.first?.source == "deep.gz!!!!")
    let limited = files.scan("deep.gz", limits: ContainerLimits(maxDepth: 3))
    #expect(limited.source.status.failureReason?.contains("ContainerLimits.maxDepth") == true)
  }
}
