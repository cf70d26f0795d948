/// A command line parsed against a ``CommandSpec``: the options given and the positional
/// arguments, each also as the exact bytes the system passed (names need not be UTF-8). Options
/// are read typed, through the ``Option`` that declared them: `parsed[Self.output]`.
package struct ParsedCommand: Sendable {
  /// The command's full name for messages, such as `canary scan`.
  package let commandName: String
  /// Every value given to each option, in order, keyed by its long name; a flag maps to `[]`.
  package var values: [String: [String]] = [:]
  /// The bytes of each value, parallel to ``values``.
  package var valueBytes: [String: [[UInt8]]] = [:]
  package var positionals: [String] = []
  package var positionalBytes: [[UInt8]] = []

  /// The positional arguments as paths with their exact bytes.
  var positionalPaths: [ScanPath] { positionalBytes.map { ScanPath(bytes: $0) } }
}

/// A command line the parser refuses: one line naming the bad argument, with exit status 2.
package struct CommandLineError: Error, CustomStringConvertible, Equatable {
  package var description: String
  package init(_ description: String) { self.description = description }
}
