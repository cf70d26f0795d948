import Foundation

#if canImport(Darwin)
  extension Transport {
    /// Runs each request's ``WebSocketPlan`` through a `URLSessionWebSocketTask` of `session`:
    /// opens the task with the request (its `ws://` URL and headers, `Sec-WebSocket-Protocol`
    /// included), sends the plan's messages, receives the expected number of the server's
    /// messages, and closes with the plan's code and reason. Returns the messages received (one per
    /// line) and the handshake's response.
    ///
    /// Apple platforms only: FoundationNetworking's WebSocket task fails at once with
    /// `NSURLErrorUnsupportedURL` where libcurl lacks WebSockets (see <doc:StreamingExchanges>).
    public static func urlSessionWebSocket(_ session: URLSession) -> Transport {
      let box = WebSocketSessionBox(session: session)
      return Transport { request in try await box.exchange(request) }
    }
  }

  /// A session shared between tasks; `URLSession` is thread-safe.
  private struct WebSocketSessionBox: @unchecked Sendable {
    let session: URLSession

    func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
      guard let plan = WebSocketPlan(request: request) else { throw URLError(.badURL) }
      var handshake = request
      handshake.httpBody = nil
      let task = session.webSocketTask(with: handshake)
      task.resume()
      do {
        for message in plan.messages {
          switch message {
          case .text(let text): try await task.send(.string(text))
          case .binary(let data): try await task.send(.data(data))
          }
        }
        var transcript = Data()
        for _ in 0..<plan.expectedServerMessages {
          switch try await task.receive() {
          case .string(let text): transcript.append(Data(text.utf8))
          case .data(let data): transcript.append(data)
          @unknown default: break
          }
          transcript.append(0x0A)
        }
        let code = URLSessionWebSocketTask.CloseCode(rawValue: Int(plan.closeCode)) ?? .normalClosure
        task.cancel(with: code, reason: Data(plan.closeReason.utf8))
        guard let response = task.response else { throw URLError(.badServerResponse) }
        return (transcript, response)
      } catch {
        task.cancel()
        throw error
      }
    }
  }
#endif
