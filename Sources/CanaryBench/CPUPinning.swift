import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Pins the calling thread to one CPU (Linux), so `canary-bench serve` can place the server and
/// its clients the same way run after run: on two shared cores a round trip costs about 0.02 or
/// about 0.1 ms depending on where the scheduler puts the two ends.
enum CPUPinning {
  private typealias SetAffinity = @convention(c) (Int32, Int, UnsafeRawPointer) -> Int32

  /// The bytes of a `cpu_set_t` (1,024 CPUs).
  private static let maskBytes = 128

  /// Restricts the calling thread (and threads it creates afterwards) to `cpu`, or to every CPU
  /// when `cpu` is nil. Returns false where that is not possible.
  @discardableResult
  static func pinCurrentThread(to cpu: Int?) -> Bool {
    #if os(Linux)
      guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "sched_setaffinity") else {
        return false
      }
      let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
      var mask = [UInt8](repeating: 0, count: maskBytes)
      if let cpu {
        guard cpu >= 0 && cpu < maskBytes * 8 else { return false }
        mask[cpu / 8] = 1 << UInt8(cpu % 8)
      } else {
        for index in 0..<min(maskBytes * 8, ProcessInfo.processInfo.processorCount) {
          mask[index / 8] |= 1 << UInt8(index % 8)
        }
      }
      // pid 0: the calling thread.
      return mask.withUnsafeBytes { setAffinity(0, maskBytes, $0.baseAddress!) } == 0
    #else
      return false
    #endif
  }

  /// `executable` and `arguments` run on `cpu` through taskset when both are given and taskset
  /// is installed; otherwise unchanged.
  static func command(_ executable: String, _ arguments: [String], cpu: Int?) -> (String, [String]) {
    guard let cpu, let taskset = ServeBenchmarkTools.find("taskset") else { return (executable, arguments) }
    return (taskset, ["-c", String(cpu), executable] + arguments)
  }
}
