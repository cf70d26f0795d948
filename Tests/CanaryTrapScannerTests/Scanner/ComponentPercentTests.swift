import Foundation
import Testing

@testable import CanaryTrapScanner

/// URL encoders keep different reserved characters in each component; a password canary must be
/// found whole (as `percent`), not only as a fragment, wherever Foundation puts it.
@Suite struct ComponentPercentTests {
  private func encodings(of canary: Canary, in text: String) -> [String] {
    LeakScanner(canaries: [canary]).scan(Data(text.utf8), source: "log").map(\.encoding)
  }

  private func password() -> Canary {
    Canary(value: "cnryqzt5k8p2vwx3 !$&+=/?@#%P!", location: .requestURL(.password), shape: .password)
  }

  @Test func passwordInFoundationUserinfoIsFoundWhole() throws {
    let canary = password()
    var components = URLComponents(string: "http://127.0.0.1:8080/signin")!
    components.user = "alice"
    components.password = canary.value
    let url = try #require(components.url)
    #expect(url.absoluteString != "http://alice:\(canary.value)@127.0.0.1:8080/signin")
    #expect(encodings(of: canary, in: "GET \(url.absoluteString)") == ["percent"])
  }

  @Test func passwordInFoundationPathAndQueryIsFoundWhole() throws {
    let canary = password()
    var components = URLComponents(string: "http://127.0.0.1:8080/")!
    components.path = "/reset/\(canary.value)"
    components.queryItems = [URLQueryItem(name: "p", value: canary.value)]
    let url = try #require(components.url)
    #expect(encodings(of: canary, in: url.absoluteString) == ["percent", "percent"])
  }

  @Test func javaScriptComponentEncodingIsFoundWhole() {
    let canary = Canary(value: "cnryqzt5k8p2vwx3 (it's)*!", location: .requestURL(.query("q")))
    #expect(encodings(of: canary, in: "q=cnryqzt5k8p2vwx3%20(it's)*!") == ["percent"])
  }

  @Test func aDifferentPasswordIsNotFound() {
    let canary = password()
    #expect(encodings(of: canary, in: "http://alice:cnryqzt5k8p2vwx4%20!$&+=%2F%3F%40%23%25P!@host").isEmpty)
  }
}
