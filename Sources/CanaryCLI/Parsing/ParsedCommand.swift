/// A command line parsed against a ``CommandSpec``: the options given and the positional
/// arguments, each also as the exact bytes the system passed (names need not be UTF-8).
package struct ParsedCommand: Sendable {
  /// The command's full name for messages, such as `canary scan`.
  package let commandName: String
  /// Every value given to each option, in order, keyed by its long name; a flag maps to `[]`.
  package var values: [String: [String]] = [:]
  /// The bytes of each value, parallel to ``values``.
  package var valueBytes: [String: [[UInt8]]] = [:]
  package var positionals: [String] = []
  package var positionalBytes: [[UInt8]] = []

  /// Whether the flag (or option) was given.
  package func flag(_ name: String) -> Bool { values[name] != nil }

  /// The last value given to `name`.
  package func value(_ name: String) -> String? { values[name]?.last }

  /// Every value given to `name`, in order.
  package func allValues(_ name: String) -> [String] { values[name] ?? [] }

  /// The last value of `name` as a number (the option's check has already accepted it).
  package func integer(_ name: String) -> Int? { value(name).flatMap { Int($0) } }

  /// The last value of `name` as a path with its exact bytes.
  func path(_ name: String) -> ScanPath? { valueBytes[name]?.last.map { ScanPath(bytes: $0) } }

  /// The positional arguments as paths with their exact bytes.
  var positionalPaths: [ScanPath] { positionalBytes.map { ScanPath(bytes: $0) } }
}

/// A command line the parser refuses: one line naming the bad argument, with exit status 2.
package struct CommandLineError: Error, CustomStringConvertible, Equatable {
  package var description: String
  package init(_ description: String) { self.description = description }
}
