import CanaryTrapExamples
import Foundation
import Testing

@Suite struct RedactorTests {
  let redactor = Redactor()

  @Test func urlKeepsRoutesAndReplacesDataShapedSegments() {
    let url = URL(
      string:
        "https://alice:pw@api.example.com/users/a%40b.example/loans/12345678/\(UUID().uuidString)/cnry5kq2abcdefghjkmnpqrstuvw?limit=20&token=abc#top"
    )
    #expect(
      redactor.url(url)
        == "https://api.example.com/users/:email/loans/:number/:uuid/:token?limit=20&token=REDACTED")
  }

  @Test func pathParametersKeepOnlyTheirNames() {
    #expect(redactor.segment("cart;sid=cnry5kq2abcdefghjkmnpqrstuvw") == "cart;sid=:value")
    #expect(redactor.segment("trace-abc;jsessionid=x") == "trace-abc;jsessionid=:value")
  }

  @Test func unlistedHeadersAreReplacedWhateverTheirCase() {
    let lines = redactor.headers([
      (name: "authorization", value: "Bearer x"), (name: "Content-Type", value: "application/json"),
      (name: "X-New-Secret", value: "s"),
    ])
    #expect(
      lines == ["authorization: <redacted>", "Content-Type: application/json", "X-New-Secret: <redacted>"])
  }

  @Test func jsonKeepsItsShapeAndOnlySafeValues() {
    let body = Data(
      #"{"access_token":"eyJ.secret","expires_in":3600,"user":{"id":"u-1","email":"a@b.c"}}"#.utf8)
    #expect(
      redactor.body(body, contentType: "application/json; charset=utf-8")
        == #"{"access_token":"<redacted>","expires_in":3600,"user":{"email":"<redacted>","id":"u-1"}}"#)
  }

  @Test func aSafeKeyHoldingADataShapedValueIsStillReplaced() {
    let id = UUID().uuidString.lowercased()
    let body = Data(#"{"user":{"id":"\#(id)"}}"#.utf8)
    #expect(redactor.body(body, contentType: "application/json") == #"{"user":{"id":"<redacted>"}}"#)
  }

  @Test func nonJSONBodiesAreSummarised() {
    #expect(
      redactor.body(Data("password=hunter2".utf8), contentType: "application/x-www-form-urlencoded")
        == "<16 bytes application/x-www-form-urlencoded>")
    #expect(
      redactor.body(Data(count: 5), contentType: "multipart/form-data; boundary=XyZ")
        == "<5 bytes multipart/form-data>")
  }

  @Test func longArraysAreCutToThreeElements() {
    let body = Data("[1,2,3,4,5,6]".utf8)
    #expect(
      redactor.body(body, contentType: "application/json")
        == #"["<redacted>","<redacted>","<redacted>","… 3 more"]"#)
  }
}
