import Foundation

/// Finds the value at a dotted JSON path such as `user.tokens[0]` in a JSON document.
enum JSONPathLookup {
  /// The string form of the scalar at `path` in `data`, or `nil` when there is none.
  static func value(at path: String, in data: Data) -> String? {
    guard let node = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    else { return nil }
    return value(at: path, inParsed: node)
  }

  /// The string form of the scalar at `path` in a document `JSONSerialization` already parsed.
  static func value(at path: String, inParsed root: Any) -> String? {
    var node = root
    for step in steps(of: path) {
      switch step {
      case .key(let key):
        guard let object = node as? [String: Any], let child = object[key] else { return nil }
        node = child
      case .index(let index):
        guard let array = node as? [Any], array.indices.contains(index) else { return nil }
        node = array[index]
      }
    }
    if let string = node as? String { return string }
    if let number = node as? NSNumber { return number.stringValue }
    return nil
  }

  enum Step: Equatable {
    case key(String)
    case index(Int)
  }

  /// `a.b[2].c` → key a, key b, index 2, key c.
  static func steps(of path: String) -> [Step] {
    var steps: [Step] = []
    for component in path.split(separator: ".") {
      var rest = Substring(component)
      if let bracket = rest.firstIndex(of: "[") {
        let key = rest[..<bracket]
        if !key.isEmpty { steps.append(.key(String(key))) }
        rest = rest[bracket...]
        while rest.first == "[", let close = rest.firstIndex(of: "]") {
          if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) {
            steps.append(.index(index))
          }
          rest = rest[rest.index(after: close)...]
        }
      } else {
        steps.append(.key(String(rest)))
      }
    }
    return steps
  }
}

/// A JSON body parsed once by `JSONSerialization`, kept for the delivery proof's many lookups.
final class ParsedJSONBody: @unchecked Sendable {
  /// The parsed document; never mutated after `init`.
  let root: Any

  /// Parses `data`; nil when it is not JSON.
  init?(_ data: Data) {
    guard let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
      return nil
    }
    self.root = root
  }
}
