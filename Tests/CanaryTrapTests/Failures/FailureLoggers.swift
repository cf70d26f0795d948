import CanaryTrap
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Loggers that speak only when an exchange fails, as apps write them, around a real transport.
enum FailureLoggers {
  /// Quiet on success; on a failure (a thrown error, a status of 400 or more, or a body that is
  /// not the JSON the app asked for) logs the request's method and URL and why: leaks every
  /// canary of a failing request's URL.
  static func urlOnFailure(_ base: Transport, into log: some LogSink) -> Transport {
    Transport { request in
      let line = "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "-")"
      do {
        let (data, response) = try await base.send(request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status >= 400 {
          log.write("\(line) failed with status \(status)")
        } else if (try? JSONSerialization.jsonObject(with: data)) == nil {
          log.write("\(line) failed: the response could not be decoded")
        }
        return (data, response)
      } catch {
        log.write("\(line) failed: \(error.localizedDescription)")
        throw error
      }
    }
  }

  /// Quiet on success; on a thrown error logs the error as Foundation describes it, which names
  /// the failing URL (in `NSErrorFailingURLStringKey`) for most transport errors.
  static func errorDescription(_ base: Transport, into log: some LogSink) -> Transport {
    Transport { request in
      do {
        return try await base.send(request)
      } catch {
        log.write("request failed: \(error)")
        throw error
      }
    }
  }

  /// The strict safe logger: the method, the route (the first two path segments) and the status
  /// on success; the method, the route and the `URLError` code on failure.
  static func strict(_ base: Transport, into log: some LogSink) -> Transport {
    Transport { request in
      let route = "/" + (request.url?.path ?? "").split(separator: "/").prefix(2).joined(separator: "/")
      let method = request.httpMethod ?? "GET"
      do {
        let (data, response) = try await base.send(request)
        log.write("\(method) \(route) → \((response as? HTTPURLResponse)?.statusCode ?? 0)")
        return (data, response)
      } catch {
        log.write("\(method) \(route) ✗ \((error as? URLError)?.code.rawValue ?? -1)")
        throw error
      }
    }
  }

  /// A transport that turns every thrown error into an empty `200`: the app's error path never
  /// runs, whatever the exchange did.
  static func swallowing(_ base: Transport) -> Transport {
    Transport { request in
      do {
        return try await base.send(request)
      } catch {
        let response = HTTPURLResponse(
          url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
        return (Data(), response)
      }
    }
  }

  /// A data task awaited through a continuation with no cancellation handler: cancelling the
  /// awaiting task leaves the request running to its end.
  static func ignoringCancellation(_ session: URLSession) -> Transport {
    Transport { request in
      try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: request) { data, response, error in
          if let data, let response {
            continuation.resume(returning: (data, response))
          } else {
            continuation.resume(throwing: error ?? URLError(.badServerResponse))
          }
        }.resume()
      }
    }
  }

  /// Sends every request without its body.
  static func droppingBodies(_ base: Transport) -> Transport {
    Transport { request in
      var bodiless = request
      bodiless.httpBody = nil
      return try await base.send(bodiless)
    }
  }
}
