import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Scans every cookie in an `HTTPCookieStorage`: name, value, domain, path and attributes, one
/// cookie per line, as content named `cookies` (or the name you give).
///
/// The whole storage is scanned when the scope ends, including cookies stored before it began.
public struct CookieStorageSink: LeakSink, ImmediatelyBeginningSink {
  /// The name findings use, `cookies` unless told otherwise.
  public let name: String
  private let storage: StorageReference

  /// Scans `storage` (the shared storage by default).
  public init(storage: HTTPCookieStorage = .shared, name: String = "cookies") {
    self.name = name
    self.storage = StorageReference(storage: storage)
  }

  /// Every cookie as a line such as `sid=VALUE; Domain=127.0.0.1; Path=/; HttpOnly`.
  public func collect() async throws -> [SinkContent] {
    let cookies = (storage.storage.cookies ?? []).sorted {
      ($0.domain, $0.path, $0.name) < ($1.domain, $1.path, $1.name)
    }
    let text = cookies.map(Self.line).joined()
    return [.bytes(Data(text.utf8), name: name)]
  }

  /// One cookie as a `Set-Cookie`-like line ending in a newline.
  static func line(_ cookie: HTTPCookie) -> String {
    var parts = ["\(cookie.name)=\(cookie.value)", "Domain=\(cookie.domain)", "Path=\(cookie.path)"]
    if let expires = cookie.expiresDate {
      parts.append("Expires=\(ISO8601DateFormatter().string(from: expires))")
    }
    if cookie.isSecure { parts.append("Secure") }
    if cookie.isHTTPOnly { parts.append("HttpOnly") }
    if let comment = cookie.comment { parts.append("Comment=\(comment)") }
    if let commentURL = cookie.commentURL { parts.append("CommentURL=\(commentURL.absoluteString)") }
    return parts.joined(separator: "; ") + "\n"
  }

  /// Needs no set-up: the whole store is read when the scope ends.
  func beginImmediately(_ window: SinkWindow) throws {}
}

/// Holds an `HTTPCookieStorage`, which is thread-safe but not marked `Sendable` everywhere.
private struct StorageReference: @unchecked Sendable {
  let storage: HTTPCookieStorage
}
