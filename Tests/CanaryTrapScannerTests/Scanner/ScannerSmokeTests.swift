import Foundation
import Testing

@testable import CanaryTrapScanner

@Suite struct ScannerSmokeTests {
  let token = Canary(value: "cnry7h2kq9x4m3p8w5z6t1r0vb", location: .custom("request.header[X-Session]"))

  @Test func findsRawAndBase64() {
    let scanner = LeakScanner(canaries: [token])
    let basic = Data("user:\(token.value)".utf8).base64EncodedString()
    let text = "line one\nsession=\(token.value) ok\nAuthorization: Basic \(basic)\n"
    let findings = scanner.scan(Data(text.utf8), source: "log")
    #expect(findings.map(\.encoding) == ["raw", "base64"])
    #expect(findings.first?.line == 2)
    #expect(findings.first?.column == 9)
    #expect(findings.first?.offset == 17)
    #expect(findings.last?.line == 3)
  }

  @Test func cleanTextYieldsNothing() {
    let scanner = LeakScanner(canaries: [token])
    let text = "nothing here but cnry7h2kq9x4m3 and cnry7h2kq9x4m3pX8w5z6t1r0vb\n"
    #expect(scanner.scan(Data(text.utf8), source: "log").isEmpty)
  }
}
