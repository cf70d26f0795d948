import Foundation

/// What the server answered to one request, and whether every byte of it reached the socket.
///
/// Use it to prove that a response-side canary really left the server: a response cut short by a
/// fault, or never sent because the client went away first, is not ``fullyWritten``.
package struct SentResponse: Sendable {
  /// The ``RecordedRequest/sequence`` of the request it answers.
  package var requestSequence: Int
  /// The connection it was written to.
  package var connectionID: Int
  /// The status code.
  package var status: Int
  /// The fault injected, if any (a faulted response is never ``fullyWritten``).
  package var fault: ServerResponse.Fault?
  /// The exact bytes the server meant to send: head and body, the truncated part for
  /// ``ServerResponse/Fault/closeMidBody``, the broken response for
  /// ``ServerResponse/Fault/malformedStatusLine``, the informational responses for
  /// ``ServerResponse/Fault/closeBeforeResponse``; empty for a reset.
  package var bytes: Data {
    get { Data(storage) }
    set { storage = Array(newValue) }
  }
  /// The bytes, sharing the buffer that was written (no copy per response).
  var storage: [UInt8]
  /// Whether every byte was handed to the kernel (the client may still have dropped them).
  package var fullyWritten: Bool

  /// Creates a record of a response.
  package init(
    requestSequence: Int, connectionID: Int, status: Int, fault: ServerResponse.Fault?, bytes: Data,
    fullyWritten: Bool = false
  ) {
    self.requestSequence = requestSequence
    self.connectionID = connectionID
    self.status = status
    self.fault = fault
    self.storage = Array(bytes)
    self.fullyWritten = fullyWritten
  }

  /// Creates a record sharing the written buffer.
  init(requestSequence: Int, connectionID: Int, status: Int, fault: ServerResponse.Fault?, storage: [UInt8]) {
    self.requestSequence = requestSequence
    self.connectionID = connectionID
    self.status = status
    self.fault = fault
    self.storage = storage
    self.fullyWritten = false
  }

  /// Whether `text` appears in the bytes sent (head or body), as UTF-8.
  package func contains(_ text: String) -> Bool {
    let needle = Array(text.utf8)
    guard let first = needle.first else { return true }
    var index = storage.startIndex
    while let candidate = storage[index...].firstIndex(of: first), candidate + needle.count <= storage.count {
      if storage[candidate..<(candidate + needle.count)].elementsEqual(needle) { return true }
      index = candidate + 1
    }
    return false
  }
}
