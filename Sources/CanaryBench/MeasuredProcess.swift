import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a command as a child process and measures it the way `/usr/bin/time` does: wall clock,
/// CPU seconds and peak resident memory of that child alone (`wait4`), with a time limit.
struct MeasuredProcess {
  /// What one run cost.
  struct Measurement {
    /// The exit status, or `nil` when the child was killed (by the limit or a signal).
    var status: Int32?
    var wallSeconds: Double
    var cpuSeconds: Double
    /// Peak resident memory of the child, in MB.
    var peakMB: Double
    /// Whether the time limit killed the child.
    var timedOut: Bool
    /// What the child wrote to standard output.
    var output: Data
  }

  /// Runs `executable` with `arguments`, standard output captured in `outputFile`, standard error
  /// discarded; kills it after `limit` seconds.
  static func run(_ executable: String, _ arguments: [String], outputFile: URL, limit: Double) throws
    -> Measurement
  {
    #if os(Linux) || os(macOS)
      #if os(Linux)
        var actions = posix_spawn_file_actions_t()
      #else
        var actions: posix_spawn_file_actions_t? = nil
      #endif
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      let argv = ([executable] + arguments).map { strdup($0) } + [nil]
      defer { argv.forEach { free($0) } }
      var pid: pid_t = 0
      let started = ContinuousClock.now
      let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
      guard spawned == 0 else {
        throw BenchError(description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
      }
      var status: Int32 = 0
      var usage = rusage()
      var timedOut = false
      while true {
        let waited = wait4(pid, &status, WNOHANG, &usage)
        if waited == pid { break }
        if waited < 0 && errno != EINTR {
          throw BenchError(description: "waiting for \(executable): \(String(cString: strerror(errno)))")
        }
        if !timedOut && ScanBenchmark.seconds(ContinuousClock.now - started) > limit {
          kill(pid, SIGKILL)
          timedOut = true
        }
        usleep(2_000)
      }
      let wall = ScanBenchmark.seconds(ContinuousClock.now - started)
      let cpu =
        Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
        + Double(usage.ru_stime.tv_usec) / 1e6
      #if os(macOS)
        let peak = Double(usage.ru_maxrss) / 1_048_576  // bytes
      #else
        let peak = Double(usage.ru_maxrss) / 1024  // kilobytes
      #endif
      let exited = status & 0x7F == 0
      return Measurement(
        status: exited ? (status >> 8) & 0xFF : nil, wallSeconds: wall, cpuSeconds: cpu, peakMB: peak,
        timedOut: timedOut, output: (try? Data(contentsOf: outputFile)) ?? Data())
    #else
      throw ChildProcessSupport.Unavailable(tool: executable)
    #endif
  }
}
