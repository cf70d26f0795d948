import Foundation

/// An informational (`1xx`) response the server sends before the final one, such as
/// `103 Early Hints` with `Link` fields: a status line and fields, never a body.
public struct InformationalResponse: Sendable, Hashable {
  /// The status code, such as 103; sent as given (`101` is for protocol switches, not this).
  package var status: Int
  /// The reason phrase; nil uses the standard phrase for ``status``.
  package var reason: String?
  /// The header fields, in order.
  package var headers: HTTPHeaders

  /// Creates an informational response.
  public init(status: Int, reason: String? = nil, headers: HTTPHeaders = [:]) {
    self.status = status
    self.reason = reason
    self.headers = headers
  }

  /// `103 Early Hints` with one `Link` field per element of `links`.
  public static func earlyHints(links: [String]) -> InformationalResponse {
    var headers = HTTPHeaders()
    for link in links { headers.add("Link", link) }
    return InformationalResponse(status: 103, headers: headers)
  }
}

extension ServerResponse {
  /// A copy sent after `informational` (and after any informational responses it already had).
  public func preceded(by informational: InformationalResponse) -> ServerResponse {
    var copy = self
    copy.informational.append(informational)
    return copy
  }

  /// A copy whose chunked body ends with one more trailer field `name: value` (earlier ones are
  /// kept). Only a `Body.chunked(_:)` body carries trailers; add a `Trailer` header naming them
  /// when the client should expect them.
  public func trailer(_ name: String, _ value: String) -> ServerResponse {
    var copy = self
    copy.trailers.add(name, value)
    return copy
  }
}

extension ResponseSerializer {
  /// Appends each informational response: its status line, its fields and the empty line.
  static func appendInformational(_ responses: [InformationalResponse], to bytes: inout [UInt8]) {
    for response in responses {
      bytes.append(
        contentsOf: head(status: response.status, reason: response.reason, headers: response.headers))
    }
  }

  /// Appends the last chunk (`0`), the trailer fields and the empty line that ends the body.
  static func appendLastChunk(trailers: HTTPHeaders, to bytes: inout [UInt8]) {
    bytes.append(contentsOf: [UInt8(ascii: "0"), HTTPBytes.cr, HTTPBytes.lf])
    for field in trailers {
      bytes.append(contentsOf: field.name.utf8)
      bytes.append(contentsOf: [HTTPBytes.colon, HTTPBytes.space])
      bytes.append(contentsOf: field.value.utf8)
      bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
    }
    bytes.append(contentsOf: [HTTPBytes.cr, HTTPBytes.lf])
  }

  /// How many bytes ``appendLastChunk(trailers:to:)`` appends.
  static func lastChunkLength(trailers: HTTPHeaders) -> Int {
    trailers.reduce(5) { $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 2 }
  }
}
