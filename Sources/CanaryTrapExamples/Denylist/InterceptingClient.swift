import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A step an API client runs around every request: it may change the request before it is sent
/// and observes the outcome afterwards.
package protocol RequestInterceptor: Sendable {
  /// Returns the request to send, possibly changed.
  func adapt(_ request: URLRequest) async throws -> URLRequest
  /// Observes how the request ended: a response and its body, or an error.
  func didFinish(_ request: URLRequest, response: HTTPURLResponse?, data: Data?, error: (any Error)?) async
}

extension RequestInterceptor {
  /// Sends the request unchanged.
  package func adapt(_ request: URLRequest) async throws -> URLRequest { request }
  /// Observes nothing.
  package func didFinish(
    _ request: URLRequest, response: HTTPURLResponse?, data: Data?, error: (any Error)?
  ) async {}
}

/// An API client that runs a chain of ``RequestInterceptor``s around a URLSession, the shape of
/// most hand-written clients.
package struct InterceptingClient: HTTPClientTransport {
  /// The session that sends the requests.
  package let session: URLSession
  /// The interceptors, run in order before sending and in order after the response.
  package let interceptors: [any RequestInterceptor]

  /// Creates a client sending through `session`.
  package init(session: URLSession = .shared, interceptors: [any RequestInterceptor]) {
    self.session = session
    self.interceptors = interceptors
  }

  /// Adapts the request through every interceptor, sends it and reports the outcome to each.
  package func send(_ request: URLRequest) async throws -> (Data, URLResponse) {
    var adapted = request
    for interceptor in interceptors {
      adapted = try await interceptor.adapt(adapted)
    }
    do {
      let (data, response) = try await session.data(for: adapted)
      for interceptor in interceptors {
        await interceptor.didFinish(adapted, response: response as? HTTPURLResponse, data: data, error: nil)
      }
      return (data, response)
    } catch {
      for interceptor in interceptors {
        await interceptor.didFinish(adapted, response: nil, data: nil, error: error)
      }
      throw error
    }
  }
}
