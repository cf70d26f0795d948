/// Parses a command line against a ``CommandSpec``: `--opt value`, `--opt=value`, `-o value`,
/// `-ovalue`, flags, `--` to end options and `-` as an argument (standard input).
package enum OptionParser {
  /// What a command line asks for.
  package enum Outcome: Sendable {
    case run(ParsedCommand)
    /// `-h` or `--help` appeared before `--`.
    case help
  }

  /// Parses `arguments` (after the command's own words); `bytes`, when it ends with the same
  /// arguments as the system passed them, supplies their exact bytes.
  package static func parse(
    _ arguments: [String], bytes: [[UInt8]] = [], spec: CommandSpec, commandName: String
  ) throws(CommandLineError) -> Outcome {
    let raw = exactBytes(of: arguments, from: bytes)
    var parsed = ParsedCommand(commandName: commandName)
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      defer { index += 1 }
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        parsed.positionalBytes.append(raw[index])
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      // Split `--name=value` and `-ovalue`.
      var name = argument
      var attached: (text: String, bytes: [UInt8])?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        let prefixLength = argument[...equals].utf8.count
        attached = (
          String(argument[argument.index(after: equals)...]), Array(raw[index].dropFirst(prefixLength))
        )
      } else if !argument.hasPrefix("--"), argument.count > 2 {
        name = String(argument.prefix(2))
        attached = (String(argument.dropFirst(2)), Array(raw[index].dropFirst(name.utf8.count)))
      }
      guard let option = spec.option(named: name) else {
        throw CommandLineError(unknownOptionMessage(name, spec: spec, commandName: commandName))
      }
      if option.name == "--help" {
        if attached != nil { throw CommandLineError("--help takes no value") }
        return .help
      }
      switch option.kind {
      case .flag:
        if attached != nil {
          throw CommandLineError("\(option.name) takes no value, but was given '\(attached!.text)'")
        }
        parsed.values[option.name] = []
      case .value(let placeholder):
        let value: (text: String, bytes: [UInt8])
        if let attached {
          value = attached
        } else {
          index += 1
          guard index < arguments.count else {
            throw CommandLineError("\(option.name) needs a value (\(placeholder))")
          }
          value = (arguments[index], raw[index])
        }
        if let problem = option.problem(with: value.text) { throw CommandLineError(problem) }
        if option.repeatable {
          parsed.values[option.name, default: []].append(value.text)
          parsed.valueBytes[option.name, default: []].append(value.bytes)
        } else {
          parsed.values[option.name] = [value.text]
          parsed.valueBytes[option.name] = [value.bytes]
        }
      }
    }
    try checkPositionals(parsed, spec: spec)
    return .run(parsed)
  }

  /// Too many positional arguments, or a required one missing.
  private static func checkPositionals(_ parsed: ParsedCommand, spec: CommandSpec) throws(CommandLineError) {
    let repeating = spec.arguments.last?.repeating ?? false
    if !repeating, parsed.positionals.count > spec.arguments.count {
      throw CommandLineError("unexpected argument '\(parsed.positionals[spec.arguments.count])'")
    }
    for (position, argument) in spec.arguments.enumerated()
    where argument.required && parsed.positionals.count <= position {
      throw CommandLineError("missing \(argument.name)")
    }
  }

  /// `unknown option '--max-finding'; did you mean '--max-findings'?`
  package static func unknownOptionMessage(_ name: String, spec: CommandSpec, commandName: String) -> String {
    let message = "unknown option '\(name)'"
    if let suggestion = closest(to: name, among: spec.documentedOptions.map(\.name)) {
      return message + "; did you mean '\(suggestion)'? See '\(commandName) --help'."
    }
    return message + ". See '\(commandName) --help'."
  }

  /// The candidate nearest to `word` by edit distance, when it is near enough to be a typo.
  package static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
    let allowance = max(2, best.0.count / 3)
    return best.1 <= allowance ? best.0 : nil
  }

  /// Levenshtein distance over characters; words longer than 64 characters are never near.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let left = Array(a)
    let right = Array(b)
    guard left.count <= 64, right.count <= 64 else { return Int.max }
    var previous = Array(0...right.count)
    for (i, l) in left.enumerated() {
      var current = [i + 1]
      for (j, r) in right.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (l == r ? 0 : 1)))
      }
      previous = current
    }
    return previous[right.count]
  }

  /// The system's bytes of each argument when `bytes` ends with the same arguments (decoding
  /// each to the same text), otherwise their UTF-8.
  package static func exactBytes(of arguments: [String], from bytes: [[UInt8]]) -> [[UInt8]] {
    let tail = bytes.suffix(arguments.count)
    guard tail.count == arguments.count,
      zip(tail, arguments).allSatisfy({ String(decoding: $0, as: UTF8.self) == $1 })
    else { return arguments.map { Array($0.utf8) } }
    return Array(tail)
  }
}
