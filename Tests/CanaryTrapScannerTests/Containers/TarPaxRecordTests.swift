import Foundation
import ServerTestSupport
import Testing

@testable import CanaryTrapScanner

/// Pax extended-header records (`LENGTH key=value\n`) whose length lies: the ten-minute fuzz run
/// of the `tar` target found a length shorter than its own digits, which crashed the reader.
@Suite struct TarPaxRecordTests {
  @Test func wellFormedRecordsAreRead() {
    let records = TarReader.paxRecords(Array("18 path=a/b/c.log\n11 size=42\n".utf8))
    #expect(records == ["path": "a/b/c.log", "size": "42"])
  }

  @Test(arguments: [
    "1 x=y\n", "2 x=y\n", "99999999999999999999 x=y\n", "9223372036854775807 x=y\n", "-5 x=y\n",
  ])
  func aLengthThatCannotBeTrueEndsTheRecordsWithoutACrash(text: String) {
    #expect(TarReader.paxRecords(Array(text.utf8)).isEmpty)
  }

  @Test func theFuzzFoundArchiveIsScannedNotACrash() throws {
    let seeds = FuzzCorpus.files("tar").filter { $0.name.hasPrefix("crash-pax") }
    #expect(seeds.count == 1)
    let scanner = LeakScanner(canaries: [Canary(value: "cnryFuzzContainer42", location: .custom("fuzz"))])
    for (name, bytes) in seeds {
      let result = scanner.scan(.bytes(Data(bytes), name: name))
      // It holds a fragment of the fuzz canary; what matters is that the scan returns.
      #expect(result.findings.allSatisfy { $0.source.hasPrefix(name + "!") }, "\(name)")
    }
  }
}
