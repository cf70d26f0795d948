import CanaryCLI

/// Whether this platform can start external tools (wrk, nginx, ripgrep) with Foundation's
/// `Process`, which exists on macOS and Linux but not on iOS, tvOS, watchOS or visionOS.
enum ChildProcessSupport {
  /// The error a benchmark step gets where `Process` does not exist.
  struct Unavailable: Error, CustomStringConvertible {
    /// The tool that could not be started.
    var tool: String

    /// Names the tool and why it cannot run.
    var description: String {
      "cannot run '\(tool)': this platform cannot start other processes (Process exists on macOS and Linux only)"
    }
  }
}
