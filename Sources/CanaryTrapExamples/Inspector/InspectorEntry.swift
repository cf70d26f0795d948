import Foundation

/// One exchange the ``NetworkInspector`` recorded, with `Authorization` and `Cookie` values
/// already replaced.
public struct InspectorEntry: Sendable, Identifiable {
  /// A header field as sent or received.
  public struct Header: Sendable, Hashable {
    /// The field name.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// One redirect the exchange went through.
  public struct Redirect: Sendable, Hashable {
    /// The redirect status, such as 302.
    public var status: Int
    /// The URL the redirect pointed to.
    public var location: String

    /// Creates a redirect record.
    public init(status: Int, location: String) {
      self.status = status
      self.location = location
    }
  }

  /// A unique identifier.
  public var id = UUID()
  /// When the request started.
  public var startedAt: Date
  /// How long the exchange took, in seconds.
  public var duration: TimeInterval
  /// The request method.
  public var method: String
  /// The request URL as the app built it.
  public var url: String
  /// The request headers, with sensitive ones redacted.
  public var requestHeaders: [Header]
  /// The request body.
  public var requestBody: Data?
  /// The response status, or nil when the exchange failed.
  public var statusCode: Int?
  /// The response headers.
  public var responseHeaders: [Header]
  /// The response body.
  public var responseBody: Data?
  /// The redirects followed on the way, in order.
  public var redirects: [Redirect]
  /// The URL of the final response.
  public var finalURL: String?
  /// Why the exchange failed, if it did.
  public var error: String?

  /// Creates an entry.
  public init(
    startedAt: Date, duration: TimeInterval, method: String, url: String, requestHeaders: [Header],
    requestBody: Data?, statusCode: Int?, responseHeaders: [Header], responseBody: Data?,
    redirects: [Redirect], finalURL: String?, error: String?
  ) {
    self.startedAt = startedAt
    self.duration = duration
    self.method = method
    self.url = url
    self.requestHeaders = requestHeaders
    self.requestBody = requestBody
    self.statusCode = statusCode
    self.responseHeaders = responseHeaders
    self.responseBody = responseBody
    self.redirects = redirects
    self.finalURL = finalURL
    self.error = error
  }

  /// The value of the first request header named `name`, ignoring case.
  public func requestHeader(_ name: String) -> String? {
    requestHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// The value of the first response header named `name`, ignoring case.
  public func responseHeader(_ name: String) -> String? {
    responseHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
