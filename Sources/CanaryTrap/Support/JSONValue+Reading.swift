import Foundation

extension JSONValue {
  /// Reads JSON whose shape is not known in advance (a manifest, a baseline, a request body, an
  /// envelope header): the one way CanaryTrap reads such JSON. ``FastJSONParser`` reads it when it
  /// can; `JSONDecoder` decides everything else and names the error, so what a document means
  /// never depends on which of the two read it.
  package static func read(_ data: Data) throws -> JSONValue {
    if let parsed = data.withUnsafeBytes({ FastJSONParser.parse($0.bindMemory(to: UInt8.self)) }) {
      return parsed
    }
    return try JSONDecoder().decode(JSONValue.self, from: data)
  }

  /// The JSON `data` holds, or nil when it is not JSON.
  package static func parse(_ data: Data) -> JSONValue? { try? read(data) }

  /// A scalar's text as a JSON path lookup compares it: a string as itself, a number without a
  /// fraction as an integer (`3`, not `3.0`); nil for anything else.
  package var scalarText: String? {
    switch self {
    case .string(let string): return string
    case .number(let number):
      if let integer = Int64(exactly: number) { return String(integer) }
      return String(number)
    case .null, .bool, .array, .object: return nil
    }
  }
}
