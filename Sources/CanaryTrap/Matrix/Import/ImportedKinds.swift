import Foundation

/// The ``RequestKind``s read from an OpenAPI document or a HAR archive, with what each plants and
/// every construct that was not planted, so that nothing the document holds is skipped silently.
public struct ImportedKinds: Sendable {
  /// What one kind plants: its request and every planted location.
  package struct Plan: Sendable {
    /// The kind's name (`[a-z0-9-]`).
    package let kindName: String
    /// Where the kind came from: the operation (`GET /pets/{petId}`) or the recorded entry.
    package let origin: String
    /// The request method.
    package let method: String
    /// Every location the kind plants, with the shape of its canary, in planting order.
    package let locations: [(location: CanaryLocation, shape: CanaryShape)]
  }

  /// A construct of the document that was not planted, or planted only in part.
  public struct Skipped: Sendable, Hashable, CustomStringConvertible {
    /// Where it is: a JSON pointer into the document (`/paths/~1pets/get/requestBody`).
    public let pointer: String
    /// Why it was not planted.
    public let reason: String

    /// `pointer: reason`.
    public var description: String { "\(pointer): \(reason)" }
  }

  /// The kinds, one per operation or entry, ready for ``CanaryTrap/runMatrix(through:kinds:fileID:filePath:line:column:)``.
  public let kinds: [RequestKind]
  /// What each kind plants, in the order of ``kinds``.
  package let plans: [Plan]
  /// The constructs not planted, at most `ImportLimits.maxSkippedRecorded` of them.
  public let skipped: [Skipped]
  /// How many constructs were not planted, the unrecorded ones beyond the limit included.
  public let skippedCount: Int
  /// The parameters the document marks `"x-canary": false` (not secret: sent with their example
  /// or a plain value, never a canary), at most `ImportLimits.maxSkippedRecorded` of them; they
  /// do not make the import incomplete.
  package let declined: [Skipped]
  /// How many parameters were declined, the unrecorded ones beyond the limit included.
  package let declinedCount: Int

  /// How many canaries the kinds plant in all.
  package var canaryCount: Int { plans.reduce(0) { $0 + $1.locations.count } }

  /// Whether every construct of the document was planted.
  public var isComplete: Bool { skippedCount == 0 }

  /// The kinds, or an error listing what was not planted when anything was.
  public func requireComplete() throws -> [RequestKind] {
    guard isComplete else { throw KindImportError.incomplete(skipped: skipped, count: skippedCount) }
    return kinds
  }
}

/// The bounds an import keeps to, whatever the document holds.
public struct ImportLimits: Sendable, Hashable {
  /// The largest document read, in bytes.
  package var maxDocumentBytes = 32 << 20
  /// The deepest JSON nesting read.
  package var maxNesting = 256
  /// The deepest schema (or recorded JSON body) planted; deeper levels are reported.
  package var maxSchemaDepth = 12
  /// The most kinds made; further operations or entries are reported.
  package var maxKinds = 2_000
  /// The most canaries one kind plants; further ones are reported.
  package var maxCanariesPerKind = 400
  /// The most canaries all kinds plant together; further kinds are reported.
  package var maxCanaries = 50_000
  /// The most skipped constructs, and separately the most declined parameters, listed one by
  /// one; the rest are counted.
  package var maxSkippedRecorded = 1_000

  /// The default limits.
  public init() {}
}

/// Why a document could not be read into kinds.
package enum KindImportError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The document is larger than ``ImportLimits/maxDocumentBytes``.
  case tooLarge(bytes: Int, limit: Int)
  /// The document is not JSON (a YAML OpenAPI document must be converted to JSON first).
  case notJSON(String)
  /// The document nests deeper than ``ImportLimits/maxNesting``.
  case tooDeep(limit: Int)
  /// The document is JSON but not what was expected at `pointer`.
  case malformed(pointer: String, String)
  /// ``ImportedKinds/requireComplete()`` found constructs that were not planted.
  case incomplete(skipped: [ImportedKinds.Skipped], count: Int)

  /// What is wrong, and where.
  package var description: String {
    switch self {
    case .tooLarge(let bytes, let limit):
      "the document is \(bytes) bytes, more than the limit of \(limit) bytes"
    case .notJSON(let detail): detail
    case .tooDeep(let limit): "the document nests deeper than \(limit) levels"
    case .malformed(let pointer, let detail): "\(pointer.isEmpty ? "/" : pointer): \(detail)"
    case .incomplete(let skipped, let count):
      "\(count) construct(s) were not planted:\n"
        + skipped.prefix(20).map { "  \($0)" }.joined(separator: "\n")
        + (count > 20 ? "\n  … and \(count - 20) more" : "")
    }
  }
}

/// Collects kinds and skipped constructs while a reader walks a document, keeping to the limits.
struct ImportCollector {
  let limits: ImportLimits
  private(set) var exchanges: [(PlannedExchange, String)] = []
  private(set) var skipped: [ImportedKinds.Skipped] = []
  private(set) var skippedCount = 0
  private(set) var declined: [ImportedKinds.Skipped] = []
  private(set) var declinedCount = 0
  private var canaries = 0
  private var names: Set<String> = []

  init(limits: ImportLimits) { self.limits = limits }

  mutating func skip(_ pointer: String, _ reason: String) {
    skippedCount += 1
    if skipped.count < limits.maxSkippedRecorded { skipped.append(.init(pointer: pointer, reason: reason)) }
  }

  /// Notes a parameter the document marks `"x-canary": false`, sent as `value`.
  mutating func decline(_ pointer: String, _ name: String, sentAs value: String) {
    declinedCount += 1
    if declined.count < limits.maxSkippedRecorded {
      declined.append(
        .init(pointer: pointer, reason: "\(name) is marked \"x-canary\": false: sent as `\(value)`"))
    }
  }

  /// A kind name made of `[a-z0-9-]` from `words`, unique among the names handed out.
  mutating func uniqueName(prefix: String, _ words: String) -> String {
    var slug = ""
    for character in words.lowercased() {
      if character.isASCII && (character.isLetter || character.isNumber) {
        slug.append(character)
      } else if !slug.hasSuffix("-") {
        slug.append("-")
      }
    }
    while slug.hasSuffix("-") { slug.removeLast() }
    let base = prefix + "-" + String(slug.prefix(60))
    var name = base
    var counter = 2
    while !names.insert(name).inserted {
      name = "\(base)-\(counter)"
      counter += 1
    }
    return name
  }

  /// Adds the exchange as a kind, unless a limit stops it (then it is reported at `pointer`).
  mutating func add(_ exchange: PlannedExchange, origin: String, pointer: String) {
    guard exchanges.count < limits.maxKinds else {
      return skip(pointer, "not planted: more than \(limits.maxKinds) kinds (ImportLimits.maxKinds)")
    }
    let count = exchange.canaryCount
    guard canaries + count <= limits.maxCanaries else {
      return skip(
        pointer, "not planted: more than \(limits.maxCanaries) canaries in all (ImportLimits.maxCanaries)")
    }
    canaries += count
    exchanges.append((exchange, origin))
  }

  func result() -> ImportedKinds {
    ImportedKinds(
      kinds: exchanges.map { RequestKind(planned: $0.0) },
      plans: exchanges.map { exchange, origin in
        ImportedKinds.Plan(
          kindName: exchange.kindName, origin: origin, method: exchange.method,
          locations: exchange.locations.map { (location: $0.0, shape: $0.1) })
      },
      skipped: skipped, skippedCount: skippedCount, declined: declined, declinedCount: declinedCount)
  }

  /// Reads `data` as JSON within the limits; with `refusingDuplicateKeys` (a whole document), a
  /// key repeated in one object is an error naming its JSON pointer.
  static func decode(_ data: Data, limits: ImportLimits, what: String, refusingDuplicateKeys: Bool = false)
    throws -> JSONValue
  {
    guard data.count <= limits.maxDocumentBytes else {
      throw KindImportError.tooLarge(bytes: data.count, limit: limits.maxDocumentBytes)
    }
    let firstByte = data.first { !(" \t\r\n" as String).utf8.contains($0) }
    guard firstByte == UInt8(ascii: "{") else {
      let text = String(decoding: data.prefix(200), as: UTF8.self)
      let yamlLike = text.contains("openapi:") || text.contains("swagger:") || text.hasPrefix("---")
      throw KindImportError.notJSON(
        yamlLike
          ? "the \(what) looks like YAML; only JSON is read: convert it first, e.g. `python3 -c 'import json,sys,yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)' < api.yaml > api.json`"
          : "the \(what) is not a JSON object (it must start with `{`)")
    }
    guard nestingDepth(of: data) <= limits.maxNesting else {
      throw KindImportError.tooDeep(limit: limits.maxNesting)
    }
    let value: JSONValue
    do {
      value = try JSONValue.read(data)
    } catch {
      throw KindImportError.notJSON("the \(what) is not valid JSON: \(JSONErrorText.describe(error))")
    }
    if refusingDuplicateKeys, let duplicate = JSONDuplicateKeys.first(in: data) {
      throw KindImportError.malformed(
        pointer: duplicate.pointer,
        "the key \"\(duplicate.key)\" occurs twice in one object; JSON readers keep one or the "
          + "other, so the \(what) is refused rather than read with one of them dropped")
    }
    return value
  }

  /// The deepest nesting of `[` and `{` outside strings.
  static func nestingDepth(of data: Data) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in data {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
      default: break
      }
    }
    return deepest
  }
}

/// A short description of a JSON decoding error.
enum JSONErrorText {
  static func describe(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      return context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription
    }
    return "\(error)"
  }
}

/// JSON pointer helpers (RFC 6901).
enum JSONPointer {
  static func escape(_ token: String) -> String {
    token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
  }

  static func unescape(_ token: Substring) -> String {
    token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
  }

  static func child(_ pointer: String, _ token: String) -> String { pointer + "/" + escape(token) }
}
