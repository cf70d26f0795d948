import Foundation

/// Why `user:password@` credentials the app put in a URL did not arrive as `Authorization: Basic`:
/// read from the requests to those URLs' paths that reached the server without credentials, and
/// from whether the server challenged them.
///
/// A transport may send userinfo credentials at once (FoundationNetworking) or only after a `401`
/// challenge (URLSession on Apple platforms); delivery is proven by what arrived either way.
struct UserinfoEvidence {
  /// The reason for an undelivered userinfo canary.
  let whyMissing: String

  init(_ evidence: DeliveryEvidence) {
    let paths = Set(
      evidence.sent.compactMap { sent -> String? in
        guard let url = sent.url, url.user != nil || url.password != nil else { return nil }
        return URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath
      })
    let bare = evidence.received.filter {
      paths.contains($0.path) && $0.headers.values(for: "Authorization").isEmpty
    }
    let challenged = bare.filter { request in
      evidence.answered.contains { answer in
        answer.requestSequence == request.sequence && answer.status == 401
          && Self.challengesBasic(answer.bytes)
      }
    }
    if bare.isEmpty {
      whyMissing = "the transport never sent the URL's credentials as Authorization: Basic"
    } else if challenged.isEmpty {
      whyMissing =
        "the request arrived without credentials and the server did not challenge it (a transport that sends userinfo only after a 401 needs the challenge)"
    } else {
      whyMissing =
        "the request arrived without credentials, the server challenged it (401, WWW-Authenticate: Basic) and the transport never answered with them"
    }
  }

  /// Whether a response's head holds `WWW-Authenticate: Basic`.
  static func challengesBasic(_ response: Data) -> Bool {
    let head = String(decoding: response.prefix(8192), as: UTF8.self).lowercased()
    return head.contains("\r\nwww-authenticate: basic")
  }
}
