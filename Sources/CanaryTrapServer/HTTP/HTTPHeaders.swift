/// Header fields in the order they were sent, duplicates kept, names compared case-insensitively.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// One field: the name as written and its value.
  public typealias Element = (name: String, value: String)

  fileprivate struct Field: Sendable, Hashable {
    var name: String
    var value: String
  }

  private var storage: [Field]

  /// Creates an empty header list.
  package init() { storage = [] }

  /// Creates headers from fields, in order, duplicates kept.
  package init(_ fields: [(name: String, value: String)]) {
    storage = fields.map { Field(name: $0.name, value: $0.value) }
  }

  /// Creates headers from a literal such as `["Set-Cookie": "a=1", "Set-Cookie": "b=2"]`.
  public init(dictionaryLiteral elements: (String, String)...) {
    storage = elements.map { Field(name: $0.0, value: $0.1) }
  }

  /// The number of fields, duplicates included.
  package var count: Int { storage.count }

  /// Whether there is no field.
  package var isEmpty: Bool { storage.isEmpty }

  /// The fields in order.
  package var fields: [(name: String, value: String)] { storage.map { ($0.name, $0.value) } }

  /// Iterates the fields in order.
  public func makeIterator() -> Iterator { Iterator(base: storage.makeIterator()) }

  /// Iterates the fields in order.
  public struct Iterator: IteratorProtocol {
    fileprivate var base: IndexingIterator<[Field]>

    /// The next field, or nil after the last.
    public mutating func next() -> Element? { base.next().map { ($0.name, $0.value) } }
  }

  /// The first value of `name` (case-insensitive); setting replaces every field of that name.
  public subscript(name: String) -> String? {
    get { storage.first { Self.namesMatch($0.name, name) }?.value }
    set {
      guard let newValue else { return remove(name) }
      guard let index = storage.firstIndex(where: { Self.namesMatch($0.name, name) }) else {
        return storage.append(Field(name: name, value: newValue))
      }
      storage[index].value = newValue
      storage = storage.enumerated().filter { $0.offset <= index || !Self.namesMatch($0.element.name, name) }
        .map(\.element)
    }
  }

  /// Every value of `name` (case-insensitive), in order.
  public func values(for name: String) -> [String] {
    storage.filter { Self.namesMatch($0.name, name) }.map(\.value)
  }

  /// Whether a field named `name` is present (case-insensitive).
  public func contains(_ name: String) -> Bool {
    storage.contains { Self.namesMatch($0.name, name) }
  }

  /// Appends a field, keeping any earlier field of the same name.
  package mutating func add(_ name: String, _ value: String) {
    storage.append(Field(name: name, value: value))
  }

  /// Makes room for `count` fields, so a parser adding a known number allocates once.
  mutating func reserveCapacity(_ count: Int) {
    storage.reserveCapacity(count)
  }

  /// Removes every field named `name` (case-insensitive).
  package mutating func remove(_ name: String) {
    storage.removeAll { Self.namesMatch($0.name, name) }
  }

  /// Whether the comma-separated values of `name` contain `token` (case-insensitive).
  package func hasToken(_ token: String, in name: String) -> Bool {
    for field in storage where Self.namesMatch(field.name, name) {
      for element in field.value.utf8.split(separator: UInt8(ascii: ",")) {
        var trimmed = element[...]
        while let first = trimmed.first, first == 32 || first == 9 { trimmed = trimmed.dropFirst() }
        while let last = trimmed.last, last == 32 || last == 9 { trimmed = trimmed.dropLast() }
        if trimmed.elementsEqual(token.utf8, by: { Self.lowercase($0) == Self.lowercase($1) }) { return true }
      }
    }
    return false
  }

  /// Compares two ASCII names ignoring case, without allocating.
  static func namesMatch(_ left: String, _ right: String) -> Bool {
    // Names of different lengths never match: most comparisons end here, without iterating.
    guard left.utf8.count == right.utf8.count else { return false }
    var leftBytes = left.utf8.makeIterator()
    var rightBytes = right.utf8.makeIterator()
    while true {
      switch (leftBytes.next(), rightBytes.next()) {
      case (nil, nil): return true
      case (let a?, let b?):
        if a != b && lowercase(a) != lowercase(b) { return false }
      default: return false
      }
    }
  }

  private static func lowercase(_ byte: UInt8) -> UInt8 {
    (byte >= 65 && byte <= 90) ? byte + 32 : byte
  }
}

extension HTTPHeaders: CustomStringConvertible {
  /// The fields as `Name: value` lines.
  public var description: String {
    storage.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
  }
}
