import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A cached response as text a scanner can search: URL, status, headers, then the body's bytes.
enum CachedResponseText {
  /// The flattened bytes of `cached`.
  static func flatten(_ cached: CachedURLResponse) -> Data {
    var text = "URL: \(cached.response.url?.absoluteString ?? "")\n"
    if let http = cached.response as? HTTPURLResponse {
      text += "Status: \(http.statusCode)\n"
      let headers = http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }.sorted { $0.0 < $1.0 }
      for (name, value) in headers {
        text += "\(name): \(value)\n"
      }
    }
    if let userInfo = cached.userInfo, !userInfo.isEmpty {
      for (key, value) in userInfo.map({ ("\($0.key)", "\($0.value)") }).sorted(by: { $0.0 < $1.0 }) {
        text += "UserInfo \(key): \(value)\n"
      }
    }
    text += "\n"
    var data = Data(text.utf8)
    data.append(cached.data)
    return data
  }
}
