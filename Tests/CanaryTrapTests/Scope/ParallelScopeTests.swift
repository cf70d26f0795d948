import CanaryTrap
import Foundation
import Testing

@Suite("Scopes running in parallel")
struct ParallelScopeTests {
  @Test("50 parallel scopes printing everything to stdout never report each other's canaries")
  func fiftyScopesStayApart() async throws {
    let session = TestTransports.session()
    let results = await withTaskGroup(of: MatrixResult.self) { group in
      for index in 0..<50 {
        group.addTask {
          await CanaryTrap.matrix(title: "parallel-\(index)", kinds: [.getQuery, .responseHeader]) { trap in
            TestTransports.leaky(.urlSession(session), into: trap.memoryLog(), alsoPrint: true)
          }
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 50)
    var everyValue = Set<String>()
    for result in results {
      let report = try #require(result.report)
      let own = Set(report.canaries.map(\.value))
      #expect(own.count == 4)
      everyValue.formUnion(own)
      #expect(result.allDelivered)
      #expect(!report.findings.isEmpty)
      #expect(report.findings.allSatisfy { own.contains($0.canary.value) })
      // The shared stdout holds other scopes' canaries too; each report names only its own.
      #expect(report.findings.contains { $0.source.contains("standard") || $0.source.contains("std") })
    }
    #expect(everyValue.count == 200)
  }
}
