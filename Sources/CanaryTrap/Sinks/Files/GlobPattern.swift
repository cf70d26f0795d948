/// A path pattern with `*` (any run of characters within one path component), `?` (one
/// character), `[abc]`/`[a-z]`/`[!abc]` (one character of a set) and `**` (any number of whole
/// directories, including none). Wildcards match dot files too.
struct GlobPattern: Sendable, Hashable, CustomStringConvertible {
  /// The pattern as written.
  let description: String
  private let components: [[UInt8]]

  /// Whether `text` contains a wildcard character and so needs matching rather than a lookup.
  static func hasWildcards(_ text: String) -> Bool {
    text.contains { $0 == "*" || $0 == "?" || $0 == "[" }
  }

  /// Creates a pattern matched against `/`-separated relative paths.
  init(_ pattern: String) {
    description = pattern
    components = pattern.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
  }

  /// Whether the relative path `path` (components separated by `/`) matches the whole pattern.
  func matches(_ path: String) -> Bool {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.utf8) }
    return Self.match(components[...], parts[...])
  }

  private static func match(_ pattern: ArraySlice<[UInt8]>, _ path: ArraySlice<[UInt8]>) -> Bool {
    guard let head = pattern.first else { return path.isEmpty }
    if head == Array("**".utf8) {
      let rest = pattern.dropFirst()
      var remaining = path
      while true {
        if match(rest, remaining) { return true }
        guard !remaining.isEmpty else { return false }
        remaining = remaining.dropFirst()
      }
    }
    guard let first = path.first, matchComponent(head[...], first[...]) else { return false }
    return match(pattern.dropFirst(), path.dropFirst())
  }

  /// Matches one path component against one pattern component (no `/` in either).
  static func matchComponent(_ pattern: ArraySlice<UInt8>, _ name: ArraySlice<UInt8>) -> Bool {
    var p = pattern.startIndex
    var n = name.startIndex
    var starPattern: Int?
    var starName = name.startIndex
    while n < name.endIndex {
      if p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") {
        starPattern = p
        starName = n
        p += 1
        continue
      }
      if p < pattern.endIndex, let next = matchOne(pattern, at: p, name[n]) {
        p = next
        n += 1
        continue
      }
      guard let star = starPattern else { return false }
      p = star + 1
      starName += 1
      n = starName
    }
    while p < pattern.endIndex, pattern[p] == UInt8(ascii: "*") { p += 1 }
    return p == pattern.endIndex
  }

  /// If the pattern element at `index` matches `byte`, the index after that element.
  private static func matchOne(_ pattern: ArraySlice<UInt8>, at index: Int, _ byte: UInt8) -> Int? {
    switch pattern[index] {
    case UInt8(ascii: "?"):
      return index + 1
    case UInt8(ascii: "["):
      guard let (matched, next) = matchSet(pattern, at: index, byte) else {
        return byte == UInt8(ascii: "[") ? index + 1 : nil
      }
      return matched ? next : nil
    case let literal:
      return literal == byte ? index + 1 : nil
    }
  }

  /// Matches a `[...]` set at `index`; nil if the set is not closed (then `[` is literal).
  private static func matchSet(_ pattern: ArraySlice<UInt8>, at index: Int, _ byte: UInt8) -> (Bool, Int)? {
    var i = index + 1
    let negated = i < pattern.endIndex && (pattern[i] == UInt8(ascii: "!") || pattern[i] == UInt8(ascii: "^"))
    if negated { i += 1 }
    var matched = false
    var first = true
    while i < pattern.endIndex {
      let current = pattern[i]
      if current == UInt8(ascii: "]") && !first {
        return (matched != negated, i + 1)
      }
      first = false
      if i + 2 < pattern.endIndex, pattern[i + 1] == UInt8(ascii: "-"), pattern[i + 2] != UInt8(ascii: "]") {
        if current <= byte && byte <= pattern[i + 2] { matched = true }
        i += 3
      } else {
        if current == byte { matched = true }
        i += 1
      }
    }
    return nil
  }
}
