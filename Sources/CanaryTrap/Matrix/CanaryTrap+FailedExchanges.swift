import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What the matrix does for kinds whose exchanges fail on purpose (``RequestKind/failure``).
extension CanaryTrap {
  /// How often the matrix looks whether the server has received a request it is to cancel.
  static let arrivalPollInterval: Duration = .milliseconds(5)

  /// Sends `request` and cancels it once the scope's server has received it (the
  /// ``ExchangeFailure/cancelled`` kind), within the same deadlines as any matrix request.
  func sendCancellingOnArrival(
    _ request: URLRequest, through transport: Transport, until deadline: ContinuousClock.Instant,
    notAfter limit: ContinuousClock.Instant
  ) async -> Deadline.Outcome<(Data, URLResponse)> {
    let path = request.url?.path ?? "/"
    let before = server.requests(to: path).count
    let finished = Locked(false)
    let sending = Task {
      defer { finished.withLock { $0 = true } }
      return await Deadline.run(until: deadline, notAfter: limit) { try await transport.send(request) }
    }
    while !finished.current, ContinuousClock.now < deadline, server.requests(to: path).count <= before {
      try? await Task.sleep(for: Self.arrivalPollInterval)
    }
    sending.cancel()
    return await sending.value
  }

  /// Why a request of a kind that fails by `failure` does not count when the transport returned
  /// `status` instead: the app's error path never ran.
  func unsurfacedFailure(_ failure: ExchangeFailure, status: Int) -> String {
    let reason =
      switch failure {
      case .timedOut:
        "the transport ignores URLRequest.timeoutInterval (\(Int(RequestKind.failureTimeout)) s): it waited"
          + " for the server's answer, sent after \(RequestKind.heldAnswer)"
      case .cancelled:
        "the transport does not stop its request when its Swift task is cancelled (a continuation around a"
          + " URLSession task needs withTaskCancellationHandler to cancel the task)"
      default:
        "a transport that turns a failure into a response hides the app's error path from this run;"
          + " let the error through to the matrix"
      }
    return "returned \(status), but its exchange was made to fail (\(failure.summary)), so the app's error"
      + " path never ran: \(reason)"
  }

  /// `error` as a message about a request, with every canary of the scope in it (raw or
  /// percent-encoded, as an error's failing URL holds them) replaced by `{canary}`.
  func masked(_ error: any Error) -> String {
    var text = "\(error)"
    let encodings: [CharacterSet] = [.urlUserAllowed, .urlPasswordAllowed, .urlPathAllowed, .urlQueryAllowed]
    for value in canaries.canaries.map(\.value) {
      let forms = [value] + encodings.compactMap { value.addingPercentEncoding(withAllowedCharacters: $0) }
      for form in Set(forms) where text.contains(form) {
        text = text.replacingOccurrences(of: form, with: "{canary}")
      }
    }
    return text
  }

  /// How a failure reached the app, in a form that is the same in every run, such as
  /// `NSURLErrorDomain -1001` or `CancellationError`.
  static func label(_ error: any Error) -> String {
    if let urlError = error as? URLError { return "NSURLErrorDomain \(urlError.code.rawValue)" }
    let bridged = error as NSError
    if bridged.domain == NSURLErrorDomain { return "NSURLErrorDomain \(bridged.code)" }
    return String(describing: type(of: error))
  }
}
