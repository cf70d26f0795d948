/// An option declared once in a command's option table and read back typed, as
/// `parsed[Self.output]`: the parser and the help use its ``declaration``, so a misspelt option is a
/// compile error rather than a lookup that silently finds nothing.
package struct Option<Value>: Sendable {
  /// What the parser checks and the help shows.
  package let declaration: CommandOption
  /// Reads the value out of a parsed command line.
  private let read: @Sendable (ParsedCommand) -> Value

  private init(_ declaration: CommandOption, read: @escaping @Sendable (ParsedCommand) -> Value) {
    self.declaration = declaration
    self.read = read
  }

  /// The value this option has in `parsed`.
  func value(in parsed: ParsedCommand) -> Value { read(parsed) }

  /// The same declaration read through `transform`.
  package func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> Option<Other> {
    let read = self.read
    return Option<Other>(declaration) { transform(read($0)) }
  }
}

extension Option where Value == Bool {
  /// An option that takes no value: true when given.
  package static func flag(_ name: String, short: Character? = nil, help: String) -> Self {
    let declaration = CommandOption.flag(name, short: short, help: help)
    return Self(declaration) { $0.values[declaration.name] != nil }
  }
}

extension Option where Value == String? {
  /// An option that takes a value: the last one given, or `nil`.
  package static func value(
    _ name: String, short: Character? = nil, placeholder: String, help: String, defaultValue: String? = nil,
    choices: [String]? = nil, check: (@Sendable (String) -> String?)? = nil
  ) -> Self {
    let declaration = CommandOption.value(
      name, short: short, placeholder: placeholder, help: help, defaultValue: defaultValue, choices: choices,
      check: check)
    return Self(declaration) { $0.values[declaration.name]?.last }
  }
}

extension Option where Value == [String] {
  /// An option that may be given more than once: every value, in order.
  package static func repeated(
    _ name: String, short: Character? = nil, placeholder: String, help: String
  ) -> Self {
    let declaration = CommandOption.value(
      name, short: short, placeholder: placeholder, help: help, repeatable: true)
    return Self(declaration) { $0.values[declaration.name] ?? [] }
  }
}

extension Option where Value == Int? {
  /// An option whose value is a whole number within `range` (the parser has checked it), or `nil`.
  package static func integer(
    _ name: String, short: Character? = nil, placeholder: String = "N", help: String,
    defaultValue: String? = nil, range: ClosedRange<Int>
  ) -> Self {
    let declaration = CommandOption.integer(
      name, short: short, placeholder: placeholder, help: help, defaultValue: defaultValue, range: range)
    return Self(declaration) { parsed in parsed.values[declaration.name]?.last.flatMap { Int($0) } }
  }
}

extension Option where Value == ScanPath? {
  /// An option naming a file: the last one given with its exact bytes, or `nil`.
  static func path(_ name: String, short: Character? = nil, placeholder: String = "FILE", help: String)
    -> Self
  {
    let declaration = CommandOption.value(name, short: short, placeholder: placeholder, help: help)
    return Self(declaration) { parsed in parsed.valueBytes[declaration.name]?.last.map { ScanPath(bytes: $0) }
    }
  }
}

/// Anything a command's option table lists: a typed ``Option`` or a bare ``CommandOption``.
package protocol DeclaredOption: Sendable {
  /// What the parser checks and the help shows.
  var declaration: CommandOption { get }
}

extension Option: DeclaredOption {}

extension ParsedCommand {
  /// The value `option` has on this command line.
  package subscript<Value>(_ option: Option<Value>) -> Value { option.value(in: self) }
}
