import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The location families of ``DeliveryRuleTests`` beyond headers, queries, paths, cookies, JSON
/// and form bodies: a followed redirect hop, the final URL, a response cookie, a multipart field,
/// an XML element, Basic credentials and URL userinfo. Each runs through the same real scope,
/// server and URLSession, with the same five rules (delivered, altered, missing, moved, twice).
enum DeliveryRuleFamilies {
  typealias Family = DeliveryRuleTests.Family

  static let boundary = "canary-boundary-7f3a"

  /// A redirect from `/api/item` to `/done` with `name=value` in its `Location` query.
  static func redirecting(_ name: String) -> @Sendable (LoopbackServer, String) -> Void {
    { server, value in
      server.on(
        .get, "/api/item", respond: ServerResponse.status(302).header("Location", "/done?\(name)=\(value)"))
      server.on(.get, "/done", respond: .text("done"))
    }
  }

  /// `Authorization: Basic base64(user:password)`.
  static func basic(_ request: URLRequest, user: String, password: String) -> URLRequest {
    var request = request
    let token = Data("\(user):\(password)".utf8).base64EncodedString()
    request.setValue("Basic \(token)", forHTTPHeaderField: "Authorization")
    return request
  }

  /// `url` with its query replaced by `query` (nil removes it).
  static func url(_ url: URL, query: String?) -> URL {
    var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
    components.percentEncodedQuery = query
    return components.url!
  }

  static let more: [Family] = {
    var families: [Family] = [
      Family(
        name: "redirect hop query (followed, edited by the redirect delegate)",
        location: .redirect(hop: 1, .query("code")), serve: DeliveryRuleFamilies.redirecting("code"),
        editsRedirect: true),
      Family(
        name: "final URL query (after a followed redirect)", location: .finalURL(.query("token")),
        responseSide: true, serve: DeliveryRuleFamilies.redirecting("token"),
        responseEdit: { data, response, value, how in
          var headers = Edit.headers(of: response)
          let finalURL = response.url!
          let changed: URL
          switch how {
          case "alter":
            changed = DeliveryRuleFamilies.url(
              finalURL, query: "token=" + String(repeating: "x", count: value.count))
          case "drop": changed = DeliveryRuleFamilies.url(finalURL, query: nil)
          default:
            changed = DeliveryRuleFamilies.url(finalURL, query: nil)
            headers["X-Moved"] = value
          }
          return (
            data,
            HTTPURLResponse(
              url: changed, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)!
          )
        }),
      Family(
        name: "response cookie", location: .responseCookie("sid"),
        respond: { value in ServerResponse.text("ok").header("Set-Cookie", "sid=\(value); Path=/") },
        responseSide: true),
      Family(
        name: "request multipart field", location: .requestBody(.multipartField("password")),
        plant: { request, value in
          let body =
            "--\(DeliveryRuleFamilies.boundary)\r\nContent-Disposition: form-data; name=\"user\"\r\n\r\nann\r\n"
            + "--\(DeliveryRuleFamilies.boundary)\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n\(value)\r\n"
            + "--\(DeliveryRuleFamilies.boundary)--\r\n"
          return DeliveryRuleTests.post(
            request, body, type: "multipart/form-data; boundary=\(DeliveryRuleFamilies.boundary)")
        }),
      Family(
        name: "request XML element", location: .requestBody(.xml("login/password")),
        plant: { request, value in
          DeliveryRuleTests.post(
            request, "<login><user>ann</user><password>\(value)</password></login>", type: "application/xml")
        }),
      Family(
        name: "Basic credentials password", location: .requestCredential(header: "Authorization", .password),
        plant: { request, value in DeliveryRuleFamilies.basic(request, user: "ann", password: value) },
        requestEdit: { request, value, how in
          switch how {
          case "alter":
            return DeliveryRuleFamilies.basic(
              request, user: "ann", password: String(repeating: "x", count: value.count))
          case "drop":
            var request = request
            request.setValue(nil, forHTTPHeaderField: "Authorization")
            return request
          default:  // moved to the user part
            return DeliveryRuleFamilies.basic(request, user: value, password: "ann")
          }
        }),
    ]
    #if canImport(FoundationNetworking)
      // FoundationNetworking sends a URL's userinfo as Basic credentials at once; Apple's URLSession
      // only after a challenge, which this fallback answer never makes.
      families.append(
        Family(
          name: "URL userinfo password", location: .requestURL(.password),
          plant: { request, value in DeliveryRuleFamilies.userinfo(request, user: "ann", password: value) },
          requestEdit: { request, value, how in
            switch how {
            case "alter":
              return DeliveryRuleFamilies.userinfo(
                request, user: "ann", password: String(repeating: "x", count: value.count))
            case "drop": return DeliveryRuleFamilies.userinfo(request, user: nil, password: nil)
            default:
              var request = DeliveryRuleFamilies.userinfo(request, user: nil, password: nil)
              request.setValue(value, forHTTPHeaderField: "X-Moved")
              return request
            }
          }))
    #endif
    return families
  }()

  /// The request with `user:password@` in its URL (nil removes the userinfo).
  static func userinfo(_ request: URLRequest, user: String?, password: String?) -> URLRequest {
    var request = request
    var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
    components.user = user
    components.password = password
    request.url = components.url
    return request
  }
}
