/// Generates a command's help text from its ``CommandSpec``; no help is kept by hand.
package enum HelpFormatter {
  /// The width help text is wrapped to.
  package static let width = 100
  /// The column option and argument descriptions start at.
  package static let descriptionColumn = 26

  /// The full help of `spec`, invoked as `commandName` (such as `canary scan`).
  package static func help(for spec: CommandSpec, commandName: String) -> String {
    var text = "OVERVIEW: \(spec.abstract)\n\n"
    text += usage(for: spec, commandName: commandName) + "\n"
    if !spec.discussion.isEmpty { text += "\n" + paragraphs(spec.discussion) }
    if !spec.subcommands.isEmpty {
      text += "\nSUBCOMMANDS:\n"
      for child in spec.subcommands { text += row(child.name, child.abstract) }
    }
    if !spec.arguments.isEmpty {
      text += "\nARGUMENTS:\n"
      for argument in spec.arguments { text += row(argument.synopsis, argument.help) }
    }
    text += "\nOPTIONS:\n"
    for option in spec.documentedOptions { text += row(option.synopsis, words: describe(option)) }
    if !spec.subcommands.isEmpty {
      text += "\nRun '\(commandName) <subcommand> --help' for a subcommand's options.\n"
    }
    if !spec.epilogue.isEmpty { text += "\n" + paragraphs(spec.epilogue) }
    return text
  }

  /// `USAGE: canary scan [--manifest FILE] [--format FORMAT] … PATH...`, wrapped.
  package static func usage(for spec: CommandSpec, commandName: String) -> String {
    var words: [String] = []
    if !spec.subcommands.isEmpty { words.append("<subcommand>") }
    for option in spec.options {
      words.append(option.repeatable ? "[\(option.synopsisForUsage) ...]" : "[\(option.synopsisForUsage)]")
    }
    words += spec.arguments.map(\.synopsis)
    let lead = "USAGE: \(commandName) "
    return wrap(words: words, firstPrefix: lead, prefix: String(repeating: " ", count: lead.count))
  }

  /// An option's help with its choices and default appended, as words to wrap; the default is
  /// one word so that `(default: …)` is never split across lines.
  package static func describe(_ option: CommandOption) -> [String] {
    var words = option.help.split(separator: " ").map(String.init)
    if let choices = option.choices {
      words +=
        ["One", "of:"] + (choices.joined(separator: ", ") + ".").split(separator: " ").map(String.init)
    }
    if let defaultValue = option.defaultValue { words.append("(default: \(defaultValue))") }
    return words
  }

  /// One row: the name in the left column, the description wrapped beside it.
  package static func row(_ name: String, _ description: String) -> String {
    row(name, words: description.split(separator: " ").map(String.init))
  }

  /// One row: the name in the left column, the words wrapped beside it.
  package static func row(_ name: String, words: [String]) -> String {
    let indent = String(repeating: " ", count: descriptionColumn)
    let left = "  " + name
    if left.count + 2 > descriptionColumn {
      return left + "\n" + wrap(words: words, firstPrefix: indent, prefix: indent) + "\n"
    }
    let first = left + String(repeating: " ", count: descriptionColumn - left.count)
    return wrap(words: words, firstPrefix: first, prefix: indent) + "\n"
  }

  /// Wraps prose paragraphs (separated by blank lines); lines that start with a space are kept
  /// as they are (examples, lists).
  package static func paragraphs(_ text: String) -> String {
    var output = ""
    var paragraph: [String] = []
    func flush() {
      if !paragraph.isEmpty {
        output += wrap(paragraph.joined(separator: " "), firstPrefix: "", prefix: "") + "\n"
      }
      paragraph = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        flush()
        output += "\n"
      } else if line.first == " " {
        flush()
        output += line + "\n"
      } else {
        paragraph.append(String(line))
      }
    }
    flush()
    while output.hasSuffix("\n\n") { output.removeLast() }
    return output
  }

  /// Greedy word wrap to ``width``.
  package static func wrap(_ text: String, firstPrefix: String, prefix: String) -> String {
    wrap(words: text.split(separator: " ").map(String.init), firstPrefix: firstPrefix, prefix: prefix)
  }

  /// Greedy wrap of `words`, each kept whole on one line, to ``width``.
  package static func wrap(words: [String], firstPrefix: String, prefix: String) -> String {
    var lines: [String] = []
    var line = firstPrefix
    var lineHasWord = false
    for word in words {
      if lineHasWord, line.count + 1 + word.count > width {
        lines.append(line)
        line = prefix
        lineHasWord = false
      }
      line += (lineHasWord ? " " : "") + word
      lineHasWord = true
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}

extension CommandOption {
  /// The form the usage line shows: the long name and its placeholder.
  package var synopsisForUsage: String {
    if case .value(let placeholder) = kind { return "\(name) \(placeholder)" }
    return name
  }
}
