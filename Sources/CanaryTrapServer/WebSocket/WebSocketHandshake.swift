import CanaryTrapPrimitives
import Foundation

/// The server's side of the WebSocket opening handshake (RFC 6455 §4.2): checks a client's
/// upgrade request and computes the `Sec-WebSocket-Accept` value of the `101` answer.
package enum WebSocketHandshake {
  /// The GUID RFC 6455 §1.3 appends to the client's key.
  static let magic = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// Why an upgrade request is not a valid WebSocket opening handshake.
  package enum Refusal: Error, Equatable, Sendable {
    /// Not a GET.
    case notGET
    /// `Upgrade: websocket` or `Connection: Upgrade` is missing.
    case notAnUpgrade
    /// `Sec-WebSocket-Version` is not 13 (answered 426 with the supported version).
    case unsupportedVersion
    /// `Sec-WebSocket-Key` is not the base64 of 16 bytes.
    case badKey
  }

  /// The `Sec-WebSocket-Accept` value for a client's `Sec-WebSocket-Key`.
  package static func acceptValue(forKey key: String) -> String {
    Data(SHA1.digest(Array((key + magic).utf8))).base64EncodedString()
  }

  /// The accept value for a request with `method` and `headers`, or why it is refused.
  package static func accept(method: String, headers: HTTPHeaders) -> Result<String, Refusal> {
    guard method == "GET" else { return .failure(.notGET) }
    let upgrade = headers.values(for: "Upgrade").joined(separator: ",").lowercased()
    let connection = headers.values(for: "Connection").joined(separator: ",").lowercased()
    guard tokens(upgrade).contains("websocket"), tokens(connection).contains("upgrade") else {
      return .failure(.notAnUpgrade)
    }
    guard headers.values(for: "Sec-WebSocket-Version").first?.trimmingCharacters(in: .whitespaces) == "13"
    else { return .failure(.unsupportedVersion) }
    guard let key = headers.values(for: "Sec-WebSocket-Key").first?.trimmingCharacters(in: .whitespaces),
      let decoded = Data(base64Encoded: key), decoded.count == 16
    else { return .failure(.badKey) }
    return .success(acceptValue(forKey: key))
  }

  private static func tokens(_ list: String) -> [String] {
    list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
  }
}
