import Foundation

/// Flattens property-list values to lines of text a scanner can search: `path = value`, nested
/// keys joined with `.`, array elements as `[index]`. Data is written as its raw bytes, and if
/// it is itself a property list (an archived or encoded value), its contents are flattened too.
enum PropertyListText {
  /// The flattened bytes of `dictionary`, keys sorted.
  static func flatten(_ dictionary: [String: Any]) -> Data {
    var output = Data()
    append(dictionary, path: "", to: &output, depth: 0)
    return output
  }

  private static func append(_ value: Any, path: String, to output: inout Data, depth: Int) {
    guard depth < 32 else { return }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {  // values read through `Any` may arrive wrapped
      if let wrapped = mirror.children.first?.value {
        append(wrapped, path: path, to: &output, depth: depth + 1)
      } else {
        output.append(Data("\(path) = nil\n".utf8))
      }
      return
    }
    switch value {
    case let dictionary as [String: Any]:
      for key in dictionary.keys.sorted() {
        append(dictionary[key]!, path: path.isEmpty ? key : "\(path).\(key)", to: &output, depth: depth + 1)
      }
    case let dictionary as [AnyHashable: Any]:
      let keyed = Dictionary(
        dictionary.map { ("\($0.key)", $0.value) }, uniquingKeysWith: { first, _ in first })
      append(keyed, path: path, to: &output, depth: depth)
    case let array as [Any]:
      for (index, element) in array.enumerated() {
        append(element, path: "\(path)[\(index)]", to: &output, depth: depth + 1)
      }
    case let data as Data:
      output.append(Data("\(path) = ".utf8))
      output.append(data)
      output.append(UInt8(ascii: "\n"))
      if let nested = try? PropertyListSerialization.propertyList(from: data, format: nil),
        !(nested is String)
      {
        append(nested, path: "\(path)<plist>", to: &output, depth: depth + 1)
      }
    case let date as Date:
      output.append(Data("\(path) = \(ISO8601DateFormatter().string(from: date))\n".utf8))
    default:
      output.append(Data("\(path) = \(value)\n".utf8))
    }
  }
}
