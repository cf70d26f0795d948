import Foundation
import Testing

@testable import CanaryTrap

/// The seed corpora of the `bzip2` and `lz4` fuzz targets are real, whole files: each one opens,
/// is heard, and shows the fuzz canary it holds, so the fuzzer starts from inputs inside the format.
@Suite struct ContainerSeedCorpusTests {
  @Test(arguments: ["bzip2", "lz4"])
  func everySeedOpensAndShowsItsCanary(target: String) {
    let seeds = FuzzCorpusReplayTests.corpus(target)
    #expect(seeds.count >= 3, "Fuzz/Corpus/\(target) holds \(seeds.count) seeds")
    let scanner = LeakScanner(canaries: [Canary(value: "cnryFuzzContainer42", location: .custom("fuzz"))])
    for (name, bytes) in seeds {
      let result = scanner.scan(.bytes(Data(bytes), name: name))
      #expect(result.source.status == .heard, "\(name): \(result.source)")
      #expect(result.findings.contains { $0.encoding == "raw" && $0.source.hasPrefix(name + "!") }, "\(name)")
    }
  }
}
