import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The delivery rules, one location family at a time, each run through a real scope, server and
/// URLSession: a canary counts as delivered only when it arrives *with its own value* at *its own
/// location*; an altered value, a missing carrier or a value moved elsewhere leaves it undelivered
/// and the verdict inconclusive; arriving twice (a retry) proves it once and changes nothing.
@Suite("Verdict rules: delivery proof per location family")
struct DeliveryRuleTests {
  /// A location family: where a canary is planted and how the app puts it there.
  struct Family: Sendable, CustomTestStringConvertible {
    var name: String
    var location: CanaryLocation
    var plant: @Sendable (URLRequest, String) -> URLRequest = { request, _ in request }
    var respond: @Sendable (String) -> ServerResponse = { _ in .text("ok") }
    /// For a response-side family: how the transport alters, drops and moves what the server sent.
    var responseSide = false
    /// Routes besides the fallback answer (a redirect and its target).
    var serve: (@Sendable (LoopbackServer, String) -> Void)? = nil
    /// How the carrier is altered, dropped or moved (`how`) when the generic edits cannot reach
    /// it: a request (Basic credentials, URL userinfo) or, with `editsRedirect`, a followed hop.
    var requestEdit: (@Sendable (URLRequest, String, _ how: String) -> URLRequest)? = nil
    /// The same for a response whose carrier is its URL.
    var responseEdit: (@Sendable (Data, HTTPURLResponse, String, _ how: String) -> (Data, HTTPURLResponse))? =
      nil
    /// The edit is made by the session's redirect delegate to the request of the followed hop.
    var editsRedirect = false
    var testDescription: String { name }
  }

  static func post(_ request: URLRequest, _ body: String, type: String) -> URLRequest {
    var request = request
    request.httpMethod = "POST"
    request.httpBody = Data(body.utf8)
    request.setValue(type, forHTTPHeaderField: "Content-Type")
    return request
  }

  static func withQuery(_ request: URLRequest, _ name: String, _ value: String) -> URLRequest {
    var request = request
    var components = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
    components.queryItems = [URLQueryItem(name: name, value: value)]
    request.url = components.url
    return request
  }

  static let requestFamilies: [Family] = [
    Family(
      name: "request header", location: .requestHeader("X-Session"),
      plant: { request, value in
        var request = request
        request.setValue(value, forHTTPHeaderField: "X-Session")
        return request
      }),
    Family(
      name: "request query item", location: .requestURL(.query("session")),
      plant: { request, value in withQuery(request, "session", value) }),
    Family(
      name: "request path segment", location: .requestURL(.path(2)),
      plant: { request, value in
        var request = request
        request.url = request.url!.appendingPathComponent(value)
        return request
      }),
    Family(
      name: "request cookie", location: .requestCookie("sid"),
      plant: { request, value in
        var request = request
        request.setValue("theme=dark; sid=\(value)", forHTTPHeaderField: "Cookie")
        return request
      }),
    Family(
      name: "request JSON body", location: .requestBody(.json("password")),
      plant: { request, value in
        post(request, #"{"user":"ann","password":"\#(value)"}"#, type: "application/json")
      }),
    Family(
      name: "request form body", location: .requestBody(.form("password")),
      plant: { request, value in
        post(request, "user=ann&password=\(value)", type: "application/x-www-form-urlencoded")
      }),
  ]

  static let responseFamilies: [Family] = [
    Family(
      name: "response header", location: .responseHeader("X-Token"),
      respond: { value in ServerResponse.text("ok").header("X-Token", value) }, responseSide: true),
    Family(
      name: "response JSON body", location: .responseBody(.json("token")),
      respond: { value in .json(#"{"token":"\#(value)","ttl":60}"#) }, responseSide: true),
  ]

  static let families = requestFamilies + responseFamilies + DeliveryRuleFamilies.more

  /// A response changed by a transport: the canary's value redacted, dropped or moved.
  static func alterResponse(_ data: Data, _ response: HTTPURLResponse, _ value: String, how: String)
    -> (Data, HTTPURLResponse)
  {
    var headers = Edit.headers(of: response)
    var text = String(decoding: data, as: UTF8.self)
    let carriedByHeader = headers.contains { $0.value.contains(value) }
    switch how {
    case "alter":
      for (name, field) in headers { headers[name] = Edit.redact(field, value) }
      text = Edit.redact(text, value)
    case "drop":
      headers = headers.filter { !$0.value.contains(value) }
      text = text.replacingOccurrences(of: value, with: "")
    default:  // move: a header's value into the body, a body's value into a header
      headers = headers.filter { !$0.value.contains(value) }
      text = text.replacingOccurrences(of: value, with: "")
      if carriedByHeader { text += " moved=\(value)" } else { headers["X-Moved"] = value }
    }
    return (Data(text.utf8), Edit.response(response, headers: headers))
  }

  /// A request changed by a transport: the canary's value redacted, dropped or moved.
  static func alterRequest(_ request: URLRequest, _ value: String, how: String) -> URLRequest {
    switch how {
    case "alter": Edit.redactEverywhere(request, value)
    case "drop": Edit.dropEverywhere(request, value)
    default: Edit.move(request, value)
    }
  }

  static func change(_ family: Family, _ how: String) -> VerdictProbe.Change {
    var change = VerdictProbe.Change()
    if family.editsRedirect {
      change.redirect = { request, value in
        family.requestEdit?(request, value, how) ?? alterRequest(request, value, how: how)
      }
    } else if let edit = family.responseEdit {
      change.response = { data, response, value in edit(data, response, value, how) }
    } else if let edit = family.requestEdit {
      change.request = { request, value in edit(request, value, how) }
    } else if family.responseSide {
      change.response = { data, response, value in alterResponse(data, response, value, how: how) }
    } else {
      change.request = { request, value in
        switch how {
        case "alter": Edit.redactEverywhere(request, value)
        case "drop": Edit.dropEverywhere(request, value)
        default: Edit.move(request, value)
        }
      }
    }
    return change
  }

  static func run(_ family: Family, _ change: VerdictProbe.Change = .none) async -> VerdictProbe.Outcome {
    await VerdictProbe.run(
      family.location, change: change, plant: family.plant, respond: family.respond, serve: family.serve)
  }

  @Test(
    "delivered: a canary that arrives with its own value at its own location is delivered, the run clean",
    arguments: families)
  func deliveredAsPlanted(_ family: Family) async {
    let outcome = await Self.run(family)
    #expect(outcome.isDelivered, "\(family.name): \(String(describing: outcome.status))")
    #expect(
      outcome.report.verdict == .clean,
      "\(family.name): \(outcome.report.problemSources) \(outcome.report.errors)")
  }

  @Test(
    "altered value: a canary whose carrier arrives with another value is undelivered, the run inconclusive",
    arguments: families)
  func alteredValueIsUndelivered(_ family: Family) async {
    let outcome = await Self.run(family, Self.change(family, "alter"))
    #expect(!outcome.isDelivered, "\(family.name): an altered value counted as delivered")
    #expect(outcome.report.verdict == .inconclusive, "\(family.name)")
    #expect(outcome.report.findings.isEmpty)
  }

  @Test(
    "missing: a canary whose carrier never arrives is undelivered, the run inconclusive", arguments: families)
  func missingIsUndelivered(_ family: Family) async {
    let outcome = await Self.run(family, Self.change(family, "drop"))
    #expect(!outcome.isDelivered, "\(family.name): a dropped canary counted as delivered")
    #expect(outcome.report.verdict == .inconclusive, "\(family.name)")
  }

  @Test(
    "moved: a canary that arrives only at another location is undelivered at its own", arguments: families)
  func movedIsUndelivered(_ family: Family) async {
    let outcome = await Self.run(family, Self.change(family, "move"))
    #expect(!outcome.isDelivered, "\(family.name): a canary moved elsewhere counted as delivered")
    #expect(outcome.report.verdict == .inconclusive, "\(family.name)")
  }

  @Test(
    "delivered twice: a canary sent twice is delivered once proven; a retry that lost it undoes nothing",
    arguments: families)
  func deliveredTwice(_ family: Family) async {
    var twice = VerdictProbe.Change()
    twice.sends = 2
    let both = await Self.run(family, twice)
    #expect(both.isDelivered, "\(family.name): delivered twice")
    #expect(both.report.verdict == .clean, "\(family.name)")
    // The first send intact, the retry redacted: the first arrival proves it.
    var retryAltered = Self.change(family, "alter")
    retryAltered.sends = 2
    retryAltered.changesOnlyRetries = true
    let once = await Self.run(family, retryAltered)
    #expect(once.isDelivered, "\(family.name): one intact arrival of two")
    // Both sends redacted: arriving twice with the wrong value proves nothing.
    var bothAltered = Self.change(family, "alter")
    bothAltered.sends = 2
    let never = await Self.run(family, bothAltered)
    #expect(!never.isDelivered, "\(family.name): two altered arrivals counted as delivered")
  }

  /// A header that arrives with *any* value is not the canary delivered: the proof compares the
  /// value, not only the name.
  @Test("a header rewritten by the transport (same name, another value) is not delivered")
  func headerWithAnotherValueIsNotDelivered() async {
    var rewrite = VerdictProbe.Change()
    rewrite.request = { request, _ in
      var request = request
      request.setValue("Bearer [REDACTED]", forHTTPHeaderField: "Authorization")
      return request
    }
    let plant: @Sendable (URLRequest, String) -> URLRequest = { request, value in
      var request = request
      request.setValue("Bearer \(value)", forHTTPHeaderField: "Authorization")
      return request
    }
    let rewritten = await VerdictProbe.run(.requestHeader("Authorization"), change: rewrite, plant: plant)
    #expect(!rewritten.isDelivered)
    #expect(rewritten.report.verdict == .inconclusive)
    let intact = await VerdictProbe.run(.requestHeader("Authorization"), plant: plant)
    #expect(intact.isDelivered)
    #expect(intact.report.verdict == .clean)
  }

  /// A change that rewrites the request's URL string and body text with `edit`.
  static func rewriting(_ edit: @escaping @Sendable (String, String) -> String) -> VerdictProbe.Change {
    var change = VerdictProbe.Change()
    change.request = { request, value in
      var request = request
      request.url = URL(string: edit(request.url!.absoluteString, value))
      if let body = request.httpBody {
        request.httpBody = Data(edit(String(decoding: body, as: UTF8.self), value).utf8)
      }
      return request
    }
    return change
  }

  @Test("moved within its carrier: another path segment, query item or JSON key is not its location")
  func movedWithinItsCarrierIsUndelivered() async {
    // A gateway prefix shifts the path: the value arrives as segment 3, not 2.
    let path = DeliveryRuleTests.families.first { $0.name == "request path segment" }!
    let prefixed = Self.rewriting { url, _ in
      url.replacingOccurrences(of: "/api/item/", with: "/v2/api/item/")
    }
    let shifted = await Self.run(path, prefixed)
    #expect(!shifted.isDelivered, "a value in another path segment counted as delivered")
    // A renamed query item: `sid=` instead of `session=`.
    let query = DeliveryRuleTests.families.first { $0.name == "request query item" }!
    let renamedQuery = await Self.run(
      query, Self.rewriting { url, _ in url.replacingOccurrences(of: "session=", with: "sid=") })
    #expect(!renamedQuery.isDelivered, "a value in another query item counted as delivered")
    // A renamed JSON key: `pwd` instead of `password`.
    let json = DeliveryRuleTests.families.first { $0.name == "request JSON body" }!
    let renamedKey = await Self.run(
      json, Self.rewriting { text, _ in text.replacingOccurrences(of: "\"password\"", with: "\"pwd\"") })
    #expect(!renamedKey.isDelivered, "a value under another JSON key counted as delivered")
    // A renamed key in the response's JSON: `tok` instead of `token`.
    let responseJSON = DeliveryRuleTests.families.first { $0.name == "response JSON body" }!
    let renamedResponseKey = Self.rewritingResponse {
      $0.replacingOccurrences(of: "\"token\"", with: "\"tok\"")
    }
    #expect(
      !(await Self.run(responseJSON, renamedResponseKey)).isDelivered,
      "a response value under another JSON key counted as delivered")
    // A renamed cookie: `session=` instead of `sid=`.
    let cookie = DeliveryRuleTests.families.first { $0.name == "request cookie" }!
    var renamedCookie = VerdictProbe.Change()
    renamedCookie.request = { request, value in
      var request = request
      request.setValue("theme=dark; session=\(value)", forHTTPHeaderField: "Cookie")
      return request
    }
    #expect(
      !(await Self.run(cookie, renamedCookie)).isDelivered, "a value in another cookie counted as delivered")
    // Twin: the same rewrites that leave the canary's own place alone keep it delivered.
    let harmless = Self.rewriting { text, _ in text.replacingOccurrences(of: "ann", with: "bob") }
    #expect(await Self.run(json, harmless).isDelivered)
    #expect(await Self.run(path, harmless).isDelivered)
    let harmlessResponse = Self.rewritingResponse {
      $0.replacingOccurrences(of: "\"ttl\"", with: "\"expires\"")
    }
    #expect(await Self.run(responseJSON, harmlessResponse).isDelivered)
  }

  /// A change that rewrites the text of the response body the app receives.
  static func rewritingResponse(_ edit: @escaping @Sendable (String) -> String) -> VerdictProbe.Change {
    var change = VerdictProbe.Change()
    change.response = { data, response, _ in
      (Data(edit(String(decoding: data, as: UTF8.self)).utf8), response)
    }
    return change
  }

  @Test("no request at all: every request-side canary is undelivered and the run inconclusive")
  func nothingSentIsUndelivered() async {
    let (_, report) = await CanaryTrap.withScope(title: "nothing-sent", configuration: VerdictProbe.quiet) {
      trap in
      trap.memoryLog().write("the app did nothing")
      _ = trap.canary(.token, at: .requestHeader("X-Session"))
    }
    #expect(report.undelivered.count == 1)
    #expect(report.verdict == .inconclusive)
  }
}
