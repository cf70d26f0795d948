/// One option a command accepts, declared once: parsing, validation, errors and the generated help
/// all come from this declaration.
package struct CommandOption: Sendable {
  /// Whether the option stands alone or takes a value.
  package enum Kind: Sendable, Equatable {
    /// `--force`: present or not.
    case flag
    /// `--output FILE`: takes a value, shown in help under the placeholder.
    case value(placeholder: String)
  }

  /// The long name with its dashes, such as `--max-findings`.
  package let name: String
  /// The one-letter short name without its dash (`o` for `-o`), if any.
  package let short: Character?
  package let kind: Kind
  /// What the option does, one or more sentences; the help wraps it.
  package let help: String
  /// The default shown in help, such as `16`; `nil` shows none.
  package let defaultValue: String?
  /// The only values accepted, when the option is a choice.
  package let choices: [String]?
  /// Whether the option may be given more than once (every value is kept); otherwise the last wins.
  package let repeatable: Bool
  /// Checks a value and returns what is wrong with it, or `nil` when it is acceptable.
  package let check: (@Sendable (String) -> String?)?

  /// Declares an option that takes no value.
  package static func flag(_ name: String, short: Character? = nil, help: String) -> CommandOption {
    CommandOption(
      name: name, short: short, kind: .flag, help: help, defaultValue: nil, choices: nil, repeatable: false,
      check: nil)
  }

  /// Declares an option that takes a value.
  package static func value(
    _ name: String, short: Character? = nil, placeholder: String, help: String, defaultValue: String? = nil,
    choices: [String]? = nil, repeatable: Bool = false, check: (@Sendable (String) -> String?)? = nil
  ) -> CommandOption {
    CommandOption(
      name: name, short: short, kind: .value(placeholder: placeholder), help: help,
      defaultValue: defaultValue,
      choices: choices, repeatable: repeatable, check: check)
  }

  /// Declares an option whose value is a whole number within `range`.
  package static func integer(
    _ name: String, short: Character? = nil, placeholder: String = "N", help: String,
    defaultValue: String? = nil,
    range: ClosedRange<Int>
  ) -> CommandOption {
    value(
      name, short: short, placeholder: placeholder, help: help, defaultValue: defaultValue,
      check: { text in
        guard let number = Int(text), range.contains(number) else {
          return "\(name) needs a number from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
        }
        return nil
      })
  }

  /// `-o, --output FILE`, as the help's left column shows it.
  package var synopsis: String {
    var text = short.map { "-\($0), " } ?? ""
    text += name
    if case .value(let placeholder) = kind { text += " " + placeholder }
    return text
  }

  /// The problem with `value`, or `nil` when it is acceptable.
  package func problem(with value: String) -> String? {
    if let choices, !choices.contains(value) {
      return "\(name) must be one of \(choices.joined(separator: "|")), not '\(value)'"
    }
    return check?(value)
  }
}

/// One positional argument a command takes.
package struct CommandArgument: Sendable {
  /// The name help shows, such as `PATH`.
  package let name: String
  package let help: String
  /// Whether the command fails without it.
  package let required: Bool
  /// Whether it may be given more than once (only the last argument may).
  package let repeating: Bool

  package init(_ name: String, help: String, required: Bool = true, repeating: Bool = false) {
    self.name = name
    self.help = help
    self.required = required
    self.repeating = repeating
  }

  /// `PATH...`, `[DIR]`.
  package var synopsis: String {
    let text = name + (repeating ? "..." : "")
    return required ? text : "[\(text)]"
  }
}
