import CanaryTrapPrimitives
import Foundation
import Testing

@testable import CanaryTrap

@Suite("The delivery proof's percent decoding agrees with Foundation's")
struct PercentDecodeTests {
  /// What the proof decoded with before: Foundation's `removingPercentEncoding`, the text with
  /// only `+` replaced when that fails.
  private func foundation(_ text: String, plusIsSpace: Bool) -> String {
    let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : text
    return spaced.removingPercentEncoding ?? spaced
  }

  @Test(
    "valid, invalid and non-UTF-8 escapes, plus signs and plain text",
    arguments: [
      "plain", "a%20b", "card%5Bnumber%5D", "x+y", "x%2By", "%E2%82%AC", "%e2%82%ac", "bad%zz", "bad%2",
      "%", "%%", "%FF%FE", "caf%C3%A9+au+lait", "", "+", "a=b", "%00",
    ])
  func agreesWithFoundation(text: String) {
    for plusIsSpace in [false, true] {
      let decoded = PercentDecoding.decode(text, plusIsSpace: plusIsSpace)
      #expect(decoded == foundation(text, plusIsSpace: plusIsSpace), "\(text) plusIsSpace \(plusIsSpace)")
    }
  }
}

@Suite("The server's record and the delivery proof decode a request the same way")
struct OneDecoderTests {
  @Test("query items, form fields and cookies read by the proof are the record's")
  func proofReadsTheRecord() {
    let request = RecordedRequest(
      method: "POST", target: "/p?q=a%20b&plus=x+y&bad=%zz&euro=%E2%82%AC&&flag",
      headers: [
        "Content-Type": "application/x-www-form-urlencoded", "Cookie": "a=1; ;b=2",
      ],
      body: Data("f=x+y%21&g=%FF&h=%41".utf8))
    let inspection = RequestInspection(request: request)
    #expect(
      inspection.queryItems.map { "\($0.name)=\($0.value)" }
        == request.queryItems.map { "\($0.name)=\($0.value)" })
    #expect(request.queryItems.map(\.value) == ["a b", "x+y", "%zz", "€", ""])
    #expect(
      inspection.formFields.map { "\($0.name)=\($0.value)" }
        == request.formFields.map { "\($0.name)=\($0.value)" })
    #expect(request.formFields.map(\.value) == ["x y!", "%FF", "A"])
    #expect(inspection.cookies.map(\.value) == request.cookies.map(\.value))
  }

  @Test("bytes: escapes decoded even when the result is not UTF-8, bad escapes kept")
  func bytes() {
    #expect(
      PercentDecoding.decodedBytes(Array("a%FFb%zz+".utf8), plusIsSpace: true) == [
        0x61, 0xFF, 0x62, 0x25, 0x7A, 0x7A, 0x20,
      ])
    #expect(PercentDecoding.decodedBytes(Array("%4".utf8), plusIsSpace: false) == Array("%4".utf8))
  }
}
