import Foundation
import Testing

/// The mutation list of `CI/mutate.sh` follows the code: every entry's `original` text is found
/// exactly once in its file, so a refactoring that moves the code fails here, in `swift test`, and
/// not only in CI's mutation stage.
@Suite("CI/mutations.txt follows the code")
struct MutationListTests {
  private static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// One entry of the list: the file it mutates, the text it replaces and the replacement.
  struct Mutation: Equatable {
    var name: String
    var file = ""
    var tests = ""
    var original: [String] = []
    var mutant: [String] = []
  }

  /// Parses the list's format (`== name`, `key: value` lines, `--- original`, `--- mutant`,
  /// `--- end`); throws on an entry that is never closed.
  static func parse(_ text: String) throws -> [Mutation] {
    struct Unclosed: Error, CustomStringConvertible {
      var name: String
      var description: String { "entry \(name) has no `--- end`" }
    }
    var mutations: [Mutation] = []
    var current: Mutation?
    var section = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if current == nil {
        if line.hasPrefix("== ") {
          current = Mutation(name: String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces))
          section = "fields"
        }
        continue
      }
      switch line {
      case "--- original": section = "original"
      case "--- mutant": section = "mutant"
      case "--- end":
        mutations.append(current!)
        current = nil
      default:
        if section == "original" {
          current!.original.append(line)
        } else if section == "mutant" {
          current!.mutant.append(line)
        } else if let colon = line.firstIndex(of: ":") {
          let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          switch line[..<colon] {
          case "file": current!.file = value
          case "tests": current!.tests = value
          default: break
          }
        }
      }
    }
    if let current { throw Unclosed(name: current.name) }
    return mutations
  }

  /// Why `mutation` cannot be applied to the tree at `root`, or nil when it can.
  static func staleness(of mutation: Mutation, under root: URL) -> String? {
    let path = root.appendingPathComponent(mutation.file).path
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      return "\(mutation.name): file \(mutation.file) is gone"
    }
    let original = mutation.original.joined(separator: "\n")
    let count = text.components(separatedBy: original).count - 1
    if original.isEmpty || count != 1 {
      return "\(mutation.name): original text found \(count) times in \(mutation.file)"
    }
    if mutation.mutant == mutation.original { return "\(mutation.name): the mutant changes nothing" }
    if mutation.tests.isEmpty { return "\(mutation.name): names no tests" }
    return nil
  }

  @Test("Every mutation's original text is found exactly once in its file")
  func everyOriginalIsFound() throws {
    let list = try String(
      contentsOf: Self.root.appendingPathComponent("CI/mutations.txt"), encoding: .utf8)
    let mutations = try Self.parse(list)
    #expect(mutations.count >= 50, "only \(mutations.count) mutations parsed: the parser lost entries")
    let stale = mutations.compactMap { Self.staleness(of: $0, under: Self.root) }
    #expect(stale == [], "update CI/mutations.txt to the code as it is now")
  }

  @Test("A mutation whose text moved is called stale, naming the file")
  func movedTextIsStale() throws {
    let list = """
      == moved
      file: Package.swift
      tests: Nothing
      --- original
      this text is in no file
      --- mutant
      neither is this
      --- end

      == gone
      file: Sources/NoSuchFile.swift
      tests: Nothing
      --- original
      a
      --- mutant
      b
      --- end
      """
    let mutations = try Self.parse(list)
    #expect(mutations.map(\.name) == ["moved", "gone"])
    #expect(
      mutations.map { Self.staleness(of: $0, under: Self.root) } == [
        "moved: original text found 0 times in Package.swift",
        "gone: file Sources/NoSuchFile.swift is gone",
      ])
  }
}
