import Foundation

/// Finds the value at a dotted JSON path such as `user.tokens[0]` in a JSON document.
enum JSONPathLookup {
  /// The string form of the scalar at `path` in `data`, or `nil` when there is none.
  static func value(at path: String, in data: Data) -> String? {
    guard let node = JSONValue.parse(data) else { return nil }
    return value(at: path, inParsed: node)
  }

  /// The string form of the scalar at `path` in a document already read.
  static func value(at path: String, inParsed root: JSONValue) -> String? {
    var node = root
    for step in steps(of: path) {
      switch (step, node) {
      case (.key(let key), .object(let object)):
        guard let child = object[key] else { return nil }
        node = child
      case (.index(let index), .array(let array)):
        guard array.indices.contains(index) else { return nil }
        node = array[index]
      default: return nil
      }
    }
    return node.scalarText
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

/// A JSON body read once (``JSONValue/read(_:)``), kept for the delivery proof's many lookups.
struct ParsedJSONBody: Sendable {
  /// The document.
  let root: JSONValue

  /// Reads `data`; nil when it is not JSON.
  init?(_ data: Data) {
    guard let root = JSONValue.parse(data) else { return nil }
    self.root = root
  }
}
