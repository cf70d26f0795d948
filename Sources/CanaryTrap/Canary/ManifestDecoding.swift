import Foundation

/// Turns manifest JSON into a ``CanaryManifest`` and back, naming the exact field at fault.
enum ManifestDecoding {
  static func decode(_ data: Data) throws -> CanaryManifest {
    try checkUTF8(data)
    let root: JSONValue
    do {
      root = try JSONValue.read(data)
    } catch {
      throw ManifestError.invalidJSON(reason: syntaxError(in: data) ?? describe(error))
    }
    guard case .object(var fields) = root else {
      throw ManifestError.invalidJSON(reason: "the top level must be an object")
    }
    let version = try readVersion(fields.removeValue(forKey: "version"))
    guard case .array(let entries)? = fields.removeValue(forKey: "canaries") else {
      throw ManifestError.invalidField(path: "canaries", expected: "an array of canaries")
    }
    guard entries.count <= CanaryManifest.maximumCanaryCount else {
      throw ManifestError.tooManyCanaries(count: entries.count, maximum: CanaryManifest.maximumCanaryCount)
    }
    let canaries = try entries.enumerated().map { index, entry in try readCanary(entry, index: index) }
    return CanaryManifest(canaries: canaries, version: version, extraFields: fields)
  }

  private static func readVersion(_ value: JSONValue?) throws -> Int {
    guard let value else { return CanaryManifest.currentVersion }
    guard case .number(let number) = value, let version = Int(exactly: number) else {
      throw ManifestError.invalidField(path: "version", expected: "an integer")
    }
    guard version == CanaryManifest.currentVersion else {
      throw ManifestError.unsupportedVersion(version)
    }
    return version
  }

  private static func readCanary(_ entry: JSONValue, index: Int) throws -> Canary {
    guard case .object(var fields) = entry else {
      throw ManifestError.invalidField(path: "canaries[\(index)]", expected: "an object")
    }
    guard case .string(let value)? = fields.removeValue(forKey: "value") else {
      throw ManifestError.invalidField(path: "canaries[\(index)].value", expected: "a string")
    }
    guard case .string(let location)? = fields.removeValue(forKey: "location") else {
      throw ManifestError.invalidField(path: "canaries[\(index)].location", expected: "a string")
    }
    var shape: CanaryShape?
    if case .string(let name)? = fields["shape"], let known = CanaryShape(rawValue: name) {
      shape = known
      fields.removeValue(forKey: "shape")
    }
    // An emptied copy keeps its storage: at 100,000 canaries, 23 MB held through the scan.
    let canary = Canary(
      value: value, location: CanaryLocation(location), shape: shape,
      extraFields: fields.isEmpty ? [:] : fields)
    try CanaryManifest.validate(canary, at: index)
    return canary
  }

  /// Throws ``ManifestError/invalidUTF8(offset:line:column:)`` at the first byte that is not
  /// part of well-formed UTF-8.
  static func checkUTF8(_ data: Data) throws {
    if data.withUnsafeBytes(isASCII) { return }  // the common case, 8 bytes at a time
    let bytes = [UInt8](data)
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    var line = 1
    var lineStart = 0
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        if scalar == "\n" {
          line += 1
          lineStart = offset + 1
        }
        offset += UTF8.width(scalar)
      case .emptyInput: break loop
      case .error:
        throw ManifestError.invalidUTF8(offset: offset, line: line, column: offset - lineStart + 1)
      }
    }
  }

  /// Whether every byte is below 0x80.
  private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
    var index = 0
    var high: UInt64 = 0
    while index + 8 <= bytes.count {
      high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < bytes.count {
      high |= UInt64(bytes[index])
      index += 1
    }
    return high & 0x8080_8080_8080_8080 == 0
  }

  /// The parser's reason for rejecting `data`, with its byte position turned into a line and
  /// column ("Invalid value around line 2, column 31"), when it names one.
  static func syntaxError(in data: Data) -> String? {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return nil
    } catch {
      guard let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
      guard let range = text.range(of: "character "),
        let offset = Int(text[range.upperBound...].prefix { $0.isNumber })
      else { return text }
      let before = data.prefix(offset)
      let line = before.count { $0 == 0x0A } + 1
      let lineStart =
        before.lastIndex(of: 0x0A).map { before.distance(from: before.startIndex, to: $0) + 1 } ?? 0
      let column = offset - lineStart + 1
      return text[..<range.lowerBound] + "line \(line), column \(column) (byte offset \(offset))"
    }
  }

  static func describe(_ error: any Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey]
      return (underlying as? String) ?? context.debugDescription
    }
    return String(describing: error)
  }

  /// The manifest as an encodable document with unknown fields merged back in.
  struct Document: Encodable {
    let manifest: CanaryManifest

    init(_ manifest: CanaryManifest) { self.manifest = manifest }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in manifest.extraFields { try container.encode(value, forKey: AnyCodingKey(key)) }
      try container.encode(manifest.version, forKey: AnyCodingKey("version"))
      try container.encode(manifest.canaries.map(Entry.init), forKey: AnyCodingKey("canaries"))
    }
  }

  struct Entry: Encodable {
    let canary: Canary

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in canary.extraFields { try container.encode(value, forKey: AnyCodingKey(key)) }
      try container.encode(canary.value, forKey: AnyCodingKey("value"))
      try container.encode(canary.location.description, forKey: AnyCodingKey("location"))
      if let shape = canary.shape { try container.encode(shape.rawValue, forKey: AnyCodingKey("shape")) }
    }
  }
}
