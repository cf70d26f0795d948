import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Reference systems under test: logging transports and an inspector, some leaky and some safe.
///
/// Each one is written the way app engineers write such code, so a canary run against it shows
/// what CanaryTrap finds in real logging patterns:
/// - ``PrintingLogger`` prints every request and response in full.
/// - ``InterceptingClient`` with a ``DenylistInterceptor`` blanks four JSON keys and logs the rest.
/// - ``RedactingTransport`` keeps only allowlisted parts and logs one redacted line per exchange.
/// - ``NetworkInspector`` records traffic through a `URLProtocol` and exports HAR and cURL files.
/// - ``WebSocketChatClient`` runs a WebSocket chat and logs each step: in full
///   (``WebSocketChatClient/printedLine(_:)``) or as shapes only (``WebSocketChatClient/redactedLine(_:)``).
/// - ``BreadcrumbUploader`` records a breadcrumb of every request and uploads them in batches,
///   zlib-compressed: with full URLs (``BreadcrumbUploader/Detail/full``) or routes only.
package enum Examples {}

/// Something that sends a request and returns the response, the seam every example fills.
package protocol HTTPClientTransport: Sendable {
  /// Sends `request` and returns the response body and the response.
  func send(_ request: URLRequest) async throws -> (Data, URLResponse)
}
