import CanaryTrapPrimitives
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The app's transport under test: whatever sends a request and returns the response the app
/// would see. CanaryTrap only calls it; it never replaces it.
public struct Transport: Sendable {
  /// Sends one request through the app's real stack and returns what the app would receive.
  public let send: @Sendable (URLRequest) async throws -> (Data, URLResponse)

  /// Creates a transport from any closure, such as the app's own API client.
  public init(_ send: @escaping @Sendable (URLRequest) async throws -> (Data, URLResponse)) {
    self.send = send
  }

  /// How a ``urlSession(_:mode:)`` transport hands requests to its session.
  public enum SessionMode: String, Sendable, CaseIterable {
    /// A data task with the request's body.
    case data
    /// An upload task that sends the request's body from memory.
    case upload
    /// A download task whose file is read back into memory, then removed.
    case download
    /// An upload task that sends the request's body from a temporary file (deleted afterwards).
    case uploadFromFile
    /// A data task whose body is an `httpBodyStream` of unknown length (sent chunked).
    case streamedUpload
  }

  /// Sends every request through `session` with tasks of `mode` (data tasks by default).
  public static func urlSession(_ session: URLSession, mode: SessionMode = .data) -> Transport {
    let box = SessionBox(session: session)
    return Transport { request in
      switch mode {
      case .data: try await box.data(for: request)
      case .upload: try await box.upload(for: request)
      case .download: try await box.download(for: request)
      case .uploadFromFile: try await box.uploadFromFile(for: request)
      case .streamedUpload: try await box.streamedUpload(for: request)
      }
    }
  }

  /// Sends every request through upload tasks of `session`.
  package static func urlSessionUpload(_ session: URLSession) -> Transport {
    urlSession(session, mode: .upload)
  }

  /// Sends every request through download tasks of `session`.
  package static func urlSessionDownload(_ session: URLSession) -> Transport {
    urlSession(session, mode: .download)
  }
}

/// A session shared between tasks; `URLSession` is thread-safe. A task of the session is
/// cancelled when the Swift task awaiting it is, so a request past its deadline stops (on Linux,
/// with a URL cache, the Swift task is answered at once instead: see `cancel(_:)`).
private struct SessionBox: @unchecked Sendable {
  let session: URLSession

  func data(for request: URLRequest) async throws -> (Data, URLResponse) {
    try await run { finish in
      session.dataTask(with: request) { data, response, error in finish(data ?? Data(), response, error) }
    }
  }

  /// An upload task for a request with a body; a bodiless one (a `GET`) goes as a data task.
  func upload(for request: URLRequest) async throws -> (Data, URLResponse) {
    guard let body = request.httpBody else { return try await data(for: request) }
    var bodiless = request
    bodiless.httpBody = nil
    return try await run { finish in
      session.uploadTask(with: bodiless, from: body) { data, response, error in
        finish(data ?? Data(), response, error)
      }
    }
  }

  /// An upload task reading the body from a file it writes first and removes afterwards.
  func uploadFromFile(for request: URLRequest) async throws -> (Data, URLResponse) {
    guard let body = request.httpBody else { return try await data(for: request) }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "canarytrap-upload-\(UUID().uuidString).body")
    try body.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    var bodiless = request
    bodiless.httpBody = nil
    return try await run { finish in
      session.uploadTask(with: bodiless, fromFile: file) { data, response, error in
        finish(data ?? Data(), response, error)
      }
    }
  }

  /// A data task whose body is a stream of unknown length.
  func streamedUpload(for request: URLRequest) async throws -> (Data, URLResponse) {
    guard let body = request.httpBody else { return try await data(for: request) }
    var streamed = request
    streamed.httpBody = nil
    streamed.httpBodyStream = InputStream(data: body)
    return try await data(for: streamed)
  }

  func download(for request: URLRequest) async throws -> (Data, URLResponse) {
    try await run { finish in
      session.downloadTask(with: request) { file, response, error in
        // Apple's URLSession deletes the file when this handler returns; FoundationNetworking
        // leaves it in the temporary directory, canaries and all. Read it, then remove it.
        let data = file.flatMap { try? Data(contentsOf: $0) } ?? Data()
        if let file { try? FileManager.default.removeItem(at: file) }
        finish(data, response, error)
      }
    }
  }

  /// Creates a task with `make`, resumes it, and cancels it if the awaiting Swift task is cancelled.
  private func run(
    _ make: (@escaping @Sendable (Data, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
  ) async throws -> (Data, URLResponse) {
    let running = Locked(RunningTask())
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = make { data, response, error in
          guard let continuation = running.withLock({ $0.takeContinuation() }) else { return }
          Self.resume(continuation, data, response, error)
        }
        running.withLock {
          $0.task = TaskReference(task: task)
          $0.continuation = continuation
        }
        task.resume()
        if Task.isCancelled { cancel(running) }
      }
    } onCancel: {
      cancel(running)
    }
  }

  /// Cancels the running task. FoundationNetworking traps ("task not in the registry") when a
  /// task of a session with a URL cache is cancelled while its cache lookup is still pending, as
  /// it is just after `resume()`: there the awaiting Swift task gets `URLError(.cancelled)` at
  /// once and the session task is left to end on its own, its answer dropped.
  private func cancel(_ running: Locked<RunningTask>) {
    #if canImport(FoundationNetworking)
      if session.configuration.urlCache != nil {
        running.withLock { $0.takeContinuation() }?.resume(throwing: URLError(.cancelled))
        return
      }
    #endif
    running.withLock { $0.task }?.task.cancel()
  }

  private static func resume(
    _ continuation: CheckedContinuation<(Data, URLResponse), any Error>, _ data: Data,
    _ response: URLResponse?, _ error: (any Error)?
  ) {
    if let error {
      continuation.resume(throwing: error)
    } else if let response {
      continuation.resume(returning: (data, response))
    } else {
      continuation.resume(throwing: URLError(.badServerResponse))
    }
  }
}

/// Holds a `URLSessionTask`, which is thread-safe but not marked `Sendable` everywhere.
private struct TaskReference: @unchecked Sendable {
  let task: URLSessionTask
}

/// A session task and the continuation its awaiting Swift task waits on, resumed once: by the
/// task's completion, or by a cancellation that leaves the task running.
private struct RunningTask: Sendable {
  var task: TaskReference?
  var continuation: CheckedContinuation<(Data, URLResponse), any Error>?

  /// The continuation, unless it was already taken.
  mutating func takeContinuation() -> CheckedContinuation<(Data, URLResponse), any Error>? {
    defer { continuation = nil }
    return continuation
  }
}
