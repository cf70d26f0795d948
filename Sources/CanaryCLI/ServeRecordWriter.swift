import Foundation

/// Writes the lines of `canary serve`'s record on a thread of its own, through a bounded queue,
/// so that a reader that reads slowly or not at all (a UI-test harness that reads the base URL
/// and nothing more, a `--record` FIFO whose reader sleeps) never slows or stops the server: the
/// server's I/O thread only queues, and a line that does not fit is dropped and counted.
///
/// On stop, ``finish(idleLimit:overallLimit:)`` waits for the queue to drain while the reader
/// keeps taking bytes, and gives up once it takes none for `idleLimit`, so a stop is prompt even
/// when nothing reads.
final class ServeRecordWriter: @unchecked Sendable {
  /// The most bytes queued and not yet written: 16 MiB (a request line is at most about 4.7 MiB).
  static let defaultMaxQueuedBytes = 16 << 20
  /// The most bytes handed to one write, so progress is seen between writes.
  static let chunkBytes = 64 << 10

  /// How the writing ended.
  struct Outcome {
    /// Lines dropped because the queue was full.
    var droppedLines: Int
    /// Bytes queued but never written because the reader stopped taking them (the last line,
    /// the summary, among them when nonzero).
    var unwrittenBytes: Int
    /// The first write error, which ended the writing.
    var failure: String?
  }

  private struct State {
    var queue: [Data] = []
    var queuedBytes = 0
    var droppedLines = 0
    var started = false
    var closed = false
    var failure: String?
    var lastProgress = ContinuousClock.now
  }

  private let write: @Sendable (Data) throws -> Void
  private let maxQueuedBytes: Int
  private let condition = NSCondition()
  private var state = State()

  /// A writer that hands bytes to `write` (which may block) on its own thread once
  /// ``start()`` is called; at most `maxQueuedBytes` wait in between.
  init(maxQueuedBytes: Int = defaultMaxQueuedBytes, write: @escaping @Sendable (Data) throws -> Void) {
    self.maxQueuedBytes = maxQueuedBytes
    self.write = write
  }

  /// Starts the writing thread (once); lines queued before are written first.
  func start() {
    let starting = locked { state -> Bool in
      defer { state.started = true }
      return !state.started
    }
    guard starting else { return }
    let thread = Thread { [self] in run() }
    thread.name = "canary.serve.record"
    thread.start()
  }

  /// Queues `line`; never blocks. Returns false, counting the line as dropped, when the queue
  /// holds something and `line` would take it past its limit (`always` queues it anyway: the
  /// one summary line). Lines after ``finish(idleLimit:overallLimit:)`` or a write error are
  /// not queued.
  @discardableResult
  func enqueue(_ line: Data, always: Bool = false) -> Bool {
    locked { state -> Bool in
      guard !state.closed || always, state.failure == nil else { return false }
      if !always && state.queuedBytes > 0 && state.queuedBytes + line.count > maxQueuedBytes {
        state.droppedLines += 1
        return false
      }
      state.queue.append(line)
      state.queuedBytes += line.count
      condition.signal()
      return true
    }
  }

  /// Lines dropped so far because the queue was full.
  var droppedLines: Int { locked { $0.droppedLines } }

  /// Closes the queue and waits until it is written, or until the reader has taken nothing for
  /// `idleLimit`, or `overallLimit` has passed.
  func finish(
    idleLimit: Duration = .milliseconds(500), overallLimit: Duration = .seconds(10)
  ) -> Outcome {
    let begun = ContinuousClock.now
    condition.lock()
    defer { condition.unlock() }
    state.closed = true
    state.lastProgress = max(state.lastProgress, begun)
    condition.broadcast()
    while state.started && state.queuedBytes > 0 && state.failure == nil {
      let now = ContinuousClock.now
      guard now - state.lastProgress < idleLimit, now - begun < overallLimit else { break }
      _ = condition.wait(until: Date().addingTimeInterval(0.02))
    }
    return Outcome(
      droppedLines: state.droppedLines, unwrittenBytes: state.failure == nil ? state.queuedBytes : 0,
      failure: state.failure)
  }

  private func run() {
    while true {
      condition.lock()
      while state.queue.isEmpty && !state.closed { condition.wait() }
      if state.queue.isEmpty {
        condition.unlock()
        return
      }
      let batch = state.queue
      state.queue.removeAll(keepingCapacity: true)
      condition.unlock()
      for line in batch {
        var offset = 0
        while offset < line.count {
          let end = min(line.count, offset + Self.chunkBytes)
          do {
            try write(line.subdata(in: offset..<end))
          } catch {
            locked { state in
              state.failure = "\(error)"
              state.queue.removeAll()
              state.queuedBytes = 0
              condition.broadcast()
            }
            return
          }
          let written = end - offset
          offset = end
          locked { state in
            state.queuedBytes -= written
            state.lastProgress = .now
            condition.broadcast()
          }
        }
      }
    }
  }

  private func locked<T>(_ body: (inout State) -> T) -> T {
    condition.lock()
    defer { condition.unlock() }
    return body(&state)
  }
}
