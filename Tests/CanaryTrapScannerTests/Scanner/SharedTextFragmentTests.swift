import Foundation
import Testing

@testable import CanaryTrapScanner

/// A fresh canary of `shape` at `location`, minted as a scope mints one.
private func mint(_ shape: CanaryShape, at location: CanaryLocation) -> Canary {
  Canary(value: CanaryGenerator().makeValue(shape), location: location, shape: shape)
}

/// Fragments made of text every canary of a shape shares identify none of them.
@Suite struct SharedTextFragmentTests {
  private func findings(of canary: Canary, in text: String) -> [LeakFinding] {
    LeakScanner(canaries: [canary]).scan(Data(text.utf8), source: "log")
  }

  @Test func anotherTestsEmailCanaryIsNotAFragmentOfOurs() {
    let ours = mint(.email, at: .requestBody(.json("email")))
    let theirs = mint(.email, at: .requestBody(.json("email")))
    #expect(findings(of: ours, in: "GET /users?email=\(theirs.value)&page=1").isEmpty)
  }

  @Test func aTruncatedEmailCanaryIsStillAFragment() {
    let ours = mint(.email, at: .requestBody(.json("email")))
    let truncated = String(ours.value.dropFirst(6))  // 20 random bytes + the shared domain
    let found = findings(of: ours, in: "email=\(truncated)")
    #expect(found.map(\.encoding) == ["fragment"])
  }

  @Test func anOrdinaryJWTWithTheSameHeaderIsNotAFragment() {
    let ours = mint(.jwt, at: .responseBody(.json("access_token")))
    let theirs = mint(.jwt, at: .responseBody(.json("access_token")))
    let header = String(ours.value.prefix { $0 != "." })
    let ordinary = header + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLWJ5dGVzLWhlcmU"
    #expect(findings(of: ours, in: "Authorization: Bearer \(ordinary)").isEmpty)
    #expect(findings(of: ours, in: "Authorization: Bearer \(theirs.value)").isEmpty)
  }

  @Test func aTruncatedJWTCanaryIsStillAFragment() {
    let ours = mint(.jwt, at: .responseBody(.json("access_token")))
    let parts = ours.value.split(separator: ".")
    let truncated = parts[0] + "." + parts[1].prefix(40) + "…"
    #expect(findings(of: ours, in: "token=\(truncated)").map(\.encoding) == ["fragment"])
  }

  @Test func sharedTextCountsAsNonIdentifying() {
    let value = Array("cnryabcdefghjkmn@example.invalid".utf8)
    let counts = DistinctiveBytes.prefixCounts(of: value, shape: nil)
    #expect(counts.last == 12)  // only the 12 letters between the prefix and the domain
  }
}

extension SharedTextFragmentTests {
  @Test func jwtCanariesShareNoIdentifyingRun() {
    // JWT canaries carry the same keys at the same offsets; only their random bytes identify them.
    let canaries = (0..<40).map { mint(.jwt, at: .responseBody(.json("token\($0)"))) }
    let ours = canaries[0]
    let others = canaries.dropFirst().map(\.value).joined(separator: "\n")
    #expect(findings(of: ours, in: others).isEmpty)
  }

  @Test func mintedJWTsHaveTheirFixedTextMarked() {
    let jwt = CanaryGenerator().makeValue(.jwt)
    let counts = DistinctiveBytes.prefixCounts(of: Array(jwt.utf8), shape: .jwt)
    let identifying = Int(counts.last!)
    // The header, the JSON keys and the dots are shared; the token, the date and the signature are not.
    #expect(identifying > 60 && identifying < jwt.utf8.count - 50)
  }
}
