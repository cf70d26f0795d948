import Foundation

/// One exchange the ``NetworkInspector`` recorded, with `Authorization` and `Cookie` values
/// already replaced.
package struct InspectorEntry: Sendable, Identifiable {
  /// A header field as sent or received.
  package struct Header: Sendable, Hashable {
    /// The field name.
    package var name: String
    /// The field value.
    package var value: String

    /// Creates a header field.
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// One redirect the exchange went through.
  package struct Redirect: Sendable, Hashable {
    /// The redirect status, such as 302.
    package var status: Int
    /// The URL the redirect pointed to.
    package var location: String

    /// Creates a redirect record.
    package init(status: Int, location: String) {
      self.status = status
      self.location = location
    }
  }

  /// A unique identifier.
  package var id = UUID()
  /// When the request started.
  package var startedAt: Date
  /// How long the exchange took, in seconds.
  package var duration: TimeInterval
  /// The request method.
  package var method: String
  /// The request URL as the app built it.
  package var url: String
  /// The request headers, with sensitive ones redacted.
  package var requestHeaders: [Header]
  /// The request body.
  package var requestBody: Data?
  /// The response status, or nil when the exchange failed.
  package var statusCode: Int?
  /// The response headers.
  package var responseHeaders: [Header]
  /// The response body.
  package var responseBody: Data?
  /// The redirects followed on the way, in order.
  package var redirects: [Redirect]
  /// The URL of the final response.
  package var finalURL: String?
  /// Why the exchange failed, if it did.
  package var error: String?

  /// Creates an entry.
  package init(
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
  package func requestHeader(_ name: String) -> String? {
    requestHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// The value of the first response header named `name`, ignoring case.
  package func responseHeader(_ name: String) -> String? {
    responseHeaders.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
