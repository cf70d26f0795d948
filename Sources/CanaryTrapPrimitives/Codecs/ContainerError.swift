/// Why a container could not be read to its end; its source is then reported failed.
package enum ContainerError: Error, Equatable, CustomStringConvertible {
  /// The input ends before the container's framing says it should.
  case truncated(String)
  /// The bytes break the format.
  case corrupt(String)
  /// Reading on would pass a limit of the caller's (the scanner's `ContainerLimits`).
  case overLimit(String)
  /// A valid feature this reader does not decode (an encrypted member, an unknown method).
  case unsupported(String)

  package var description: String {
    switch self {
    case .truncated(let detail): "truncated: \(detail)"
    case .corrupt(let detail): "corrupt: \(detail)"
    case .overLimit(let detail): "over a limit: \(detail)"
    case .unsupported(let detail): "unsupported: \(detail)"
    }
  }

  /// Whether the whole scan must stop (a limit), rather than only the member at fault.
  package var stopsEverything: Bool {
    if case .overLimit = self { return true }
    return false
  }
}
