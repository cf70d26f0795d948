import Foundation

/// An allowlist redactor for the parts of an HTTP exchange: what it was not told is safe, it
/// replaces with a marker that says something was there.
package struct Redactor: Sendable {
  /// Header names (lowercase) whose values are kept.
  package var safeHeaders: Set<String> = [
    "accept", "accept-encoding", "accept-language", "age", "cache-control", "content-encoding",
    "content-length", "content-type", "date", "etag", "last-modified", "retry-after", "user-agent",
    "vary",
  ]
  /// Query item names (lowercase) whose values are kept.
  package var safeQueryItems: Set<String> = ["limit", "sort", "page", "include", "fields"]
  /// JSON keys (lowercase) whose scalar values are kept.
  package var safeJSONKeys: Set<String> = ["id", "status", "type", "code", "count", "next", "expires_in"]
  /// What replaces a value that is not allowlisted.
  package var marker = "<redacted>"

  /// Creates a redactor with the default allowlists.
  package init() {}

  /// The URL without userinfo and fragment, with path segments classified and query values
  /// replaced unless their name is allowlisted.
  package func url(_ url: URL?) -> String {
    guard let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return "<no url>"
    }
    components.user = nil
    components.password = nil
    components.fragment = nil
    components.percentEncodedPath = components.percentEncodedPath
      .split(separator: "/", omittingEmptySubsequences: false)
      .map { segment(String($0)) }
      .joined(separator: "/")
    components.percentEncodedQueryItems = components.percentEncodedQueryItems?.map { item in
      let name = item.name.removingPercentEncoding ?? item.name
      guard safeQueryItems.contains(name.lowercased()) else {
        return URLQueryItem(name: item.name, value: "REDACTED")
      }
      return item
    }
    return components.string ?? "<unprintable url>"
  }

  /// A path segment, or what it looked like when it looks like personal data or a secret.
  ///
  /// Route words and short IDs are kept; `;name=value` parameters keep only their names.
  package func segment(_ raw: String) -> String {
    var parts = raw.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
    let base = parts.removeFirst()
    let parameters = parts.map { parameter in
      let name = parameter.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
      return shape(of: name) == nil ? "\(name)=:value" : ":parameter"
    }
    return ([shape(of: base) ?? base] + parameters).joined(separator: ";")
  }

  /// The placeholder for a segment that looks like an email, number, UUID or token, else nil.
  private func shape(of raw: String) -> String? {
    let decoded = raw.removingPercentEncoding ?? raw
    if decoded.contains("@") { return ":email" }
    if decoded.wholeMatch(of: /[0-9]{7,}/) != nil { return ":number" }
    if decoded.wholeMatch(of: /[0-9a-fA-F-]{32,36}/) != nil { return ":uuid" }
    if decoded.wholeMatch(of: /[A-Za-z0-9_\-.~]{0,23}/) == nil { return ":token" }
    return nil
  }

  /// Every header as `Name: value`, sorted, with values of unlisted headers replaced.
  package func headers(_ fields: [(name: String, value: String)]) -> [String] {
    fields.sorted { $0.name.lowercased() < $1.name.lowercased() }.map { field in
      safeHeaders.contains(field.name.lowercased())
        ? "\(field.name): \(field.value)" : "\(field.name): \(marker)"
    }
  }

  /// A JSON body with its structure kept and unlisted values replaced; any other body as its
  /// size and media type, such as `<123 bytes text/plain>`.
  package func body(_ data: Data?, contentType: String?) -> String {
    guard let data, !data.isEmpty else { return "<empty>" }
    let mediaType = contentType?.split(separator: ";").first.map {
      $0.trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard mediaType?.contains("json") == true,
      let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else {
      return "<\(data.count) bytes \(mediaType ?? "unknown type")>"
    }
    let redacted = redactJSON(object, key: nil)
    guard
      let text = try? JSONSerialization.data(
        withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed])
    else { return "<\(data.count) bytes json>" }
    return String(decoding: text, as: UTF8.self)
  }

  /// The JSON value with every scalar replaced unless its key is allowlisted.
  private func redactJSON(_ value: Any, key: String?) -> Any {
    switch value {
    case let object as [String: Any]:
      var result: [String: Any] = [:]
      for (name, inner) in object {
        result[shape(of: name) == nil ? name : ":key"] = redactJSON(inner, key: name)
      }
      return result
    case let array as [Any]:
      return array.prefix(3).map { redactJSON($0, key: key) }
        + (array.count > 3 ? ["… \(array.count - 3) more"] : [])
    case is NSNull:
      return NSNull()
    default:
      guard let key, safeJSONKeys.contains(key.lowercased()), shape(of: "\(value)") == nil else {
        return marker
      }
      return value
    }
  }
}
