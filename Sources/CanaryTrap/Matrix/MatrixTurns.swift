import CanaryTrapPrimitives
import Foundation

/// Matrices of one process take turns: at most `limit` run at once, the others wait in order.
///
/// Swift Testing starts a suite's tests together. Forty matrices at once on two cores each get a
/// fortieth of the machine, and each of their thousands of requests waits for threads long enough
/// to meet its deadline; in turns, every matrix runs at the speed it would alone. A scope's time
/// waiting for its matrix's turn does not count toward its deadline.
final class MatrixTurns: Sendable {
  /// The turns every matrix of the process takes: as many at once as the machine has cores, at
  /// least two.
  static let shared = MatrixTurns(limit: max(2, ProcessInfo.processInfo.activeProcessorCount))

  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Bool, Never>
  }

  private struct State {
    var running = 0
    var waiting: [Waiter] = []
    var nextID: UInt64 = 0
  }

  /// How many matrices may run at once.
  let limit: Int
  private let state = Locked(State())

  /// Turns for at most `limit` matrices at once.
  init(limit: Int) { self.limit = max(1, limit) }

  /// Waits for a turn and returns `true` with it; returns `false` without one when the calling
  /// task is cancelled while it waits. Each `true` must be followed by ``give()``.
  func take() async -> Bool {
    let id = state.withLock { state -> UInt64 in
      state.nextID += 1
      return state.nextID
    }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let granted = state.withLock { state -> Bool? in
          if Task.isCancelled { return false }
          guard state.running < limit else {
            state.waiting.append(Waiter(id: id, continuation: continuation))
            return nil
          }
          state.running += 1
          return true
        }
        if let granted { continuation.resume(returning: granted) }
      }
    } onCancel: {
      let waiter = state.withLock { state -> Waiter? in
        guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return state.waiting.remove(at: index)
      }
      waiter?.continuation.resume(returning: false)
    }
  }

  /// Ends a turn taken with ``take()``, handing it to the longest waiting matrix.
  func give() {
    let next = state.withLock { state -> Waiter? in
      guard !state.waiting.isEmpty else {
        state.running -= 1
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.continuation.resume(returning: true)
  }

  /// How many matrices run and how many wait, for tests.
  var counts: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }
}
