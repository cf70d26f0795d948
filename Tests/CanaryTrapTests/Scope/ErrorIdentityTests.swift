import Testing

@testable import CanaryTrap

/// The adapters tell the error that stopped a run by identity, never by its description.
@Suite struct ErrorIdentityTests {
  final class Failure: Error, CustomStringConvertible {
    var description: String { "failed" }
  }

  struct Coded: Error, Equatable, CustomStringConvertible {
    var code: Int
    var description: String { "failed" }
  }

  struct Opaque: Error, CustomStringConvertible {
    var description: String { "failed" }
  }

  @Test("a class error is the same only as its own instance")
  func classErrorsByInstance() {
    let failure = Failure()
    #expect(ErrorIdentity.same(failure, failure))
    #expect(!ErrorIdentity.same(failure, Failure()), "twin: another instance that reads the same")
  }

  @Test("an equatable value error is the same only as an equal value of its type")
  func equatableErrorsByValue() {
    #expect(ErrorIdentity.same(Coded(code: 1), Coded(code: 1)))
    #expect(!ErrorIdentity.same(Coded(code: 1), Coded(code: 2)), "twin: another value that reads the same")
  }

  @Test("errors of different types are never the same, whatever they read")
  func differentTypes() {
    #expect(ErrorIdentity.same(Opaque(), Opaque()))
    #expect(!ErrorIdentity.same(Opaque(), Coded(code: 1)))
    #expect(!ErrorIdentity.same(Failure(), Opaque()))
  }
}
