import Foundation
import Testing

@testable import CanaryTrap
@testable import CanaryTrapScanner

@Suite struct CanaryGeneratorTests {
  @Test func hundredThousandMintedCanariesAreDistinct() {
    let set = CanarySet()
    for index in 0..<100_000 {
      set.mint(CanaryShape.allCases[index % CanaryShape.allCases.count], at: .requestHeader("X-\(index)"))
    }
    #expect(Set(set.canaries.map(\.value)).count == 100_000)
  }

  @Test func tokensCarryThePrefixAndOver100RandomBits() {
    let token = CanaryGenerator().makeValue(.token)
    #expect(token.hasPrefix("cnry"))
    // 26 symbols of a 32-letter alphabet: 130 bits.
    #expect(token.utf8.count == 4 + 26)
    #expect(token.allSatisfy { $0.isLowercase || $0.isNumber })
  }

  @Test func uuidParsesAndStartsWithTheCanaryGroup() throws {
    let value = CanaryGenerator().makeValue(.uuid)
    let uuid = try #require(UUID(uuidString: value))
    #expect(uuid.uuidString.lowercased() == value)
    #expect(value.hasPrefix("ca4a"))
    #expect(Array(value)[14] == "4", "version 4")
  }

  @Test func jwtHasThreeBase64URLPartsWhosePayloadHoldsAToken() throws {
    let jwt = CanaryGenerator().makeValue(.jwt)
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    #expect(parts.count == 3)
    for part in parts {
      #expect(!part.isEmpty)
      #expect(part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }
    let header = try JSONSerialization.jsonObject(with: try #require(decodeBase64URL(parts[0])))
    #expect((header as? [String: String])?["typ"] == "JWT")
    let payload = try JSONSerialization.jsonObject(with: try #require(decodeBase64URL(parts[1])))
    let subject = try #require((payload as? [String: Any])?["sub"] as? String)
    #expect(subject.hasPrefix("cnry") && subject.utf8.count == 30)
    #expect(try #require(decodeBase64URL(parts[2])).count == 32)
  }

  @Test func emailIsAValidAddressAtTheInvalidDomain() {
    let email = CanaryGenerator().makeValue(.email)
    let pieces = email.split(separator: "@")
    #expect(pieces.count == 2)
    #expect(pieces[1] == "example.invalid")
    #expect(pieces[0].hasPrefix("cnry"))
    #expect(pieces[0].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
  }

  @Test func numberIsLongAndAllDigits() {
    let number = CanaryGenerator().makeValue(.number)
    #expect(number.count == 34)
    #expect(number.allSatisfy { $0.isWholeNumber })
    #expect(number.hasPrefix("9"))
  }

  @Test func passwordNeedsEncodingInURLsAndForms() {
    let password = CanaryGenerator().makeValue(.password)
    #expect(password.hasPrefix("cnry"))
    let symbols = password.filter { "+&=/ %?#!@$".contains($0) }
    #expect(symbols.count >= 5)
    #expect(password.contains(" ") && password.contains("%"))
    let encoded = password.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)
    #expect(encoded != password)
  }

  @Test func passwordDrawsItsSymbolsOnlyFromTheSetEveryEncoderTreatsAlike() {
    for _ in 0..<200 {
      let password = Array(CanaryGenerator().makeValue(.password).utf8)
      let tail = Array(CanaryGenerator.passwordTail.utf8)
      #expect(password.count == 4 + 22 + 1 + 3 + tail.count)
      #expect(Array(password.suffix(tail.count)) == tail)
      #expect(password[26] == UInt8(ascii: " "))
      #expect(password[27..<30].allSatisfy(CanaryGenerator.passwordSymbols.contains))
    }
  }

  @Test func everyShapeIsLongEnoughForAManifest() throws {
    let set = CanarySet()
    for shape in CanaryShape.allCases {
      let canary = set.mint(shape, at: .responseBody(.text))
      #expect(canary.value.utf8.count >= CanaryManifest.minimumValueLength)
      #expect(canary.shape == shape)
    }
  }

  private func decodeBase64URL(_ text: String) -> Data? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
    return Data(base64Encoded: base64)
  }
}
