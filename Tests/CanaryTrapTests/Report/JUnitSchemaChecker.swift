import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A structural checker of JUnit XML written here from the rules of the Jenkins `junit-10.xsd`
/// (jenkinsci/xunit-plugin) and the Ant JUnit schema (windyroad/JUnit-Schema) that strict CI
/// parsers apply; no schema file is copied. It returns one sentence per violation.
enum JUnitSchemaChecker {
  /// One parsed element: name, attributes, child elements and its non-blank text.
  final class Element {
    let name: String
    let attributes: [String: String]
    var children: [Element] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
      self.name = name
      self.attributes = attributes
    }
  }

  /// Every rule broken by `data`, empty when it is valid.
  static func violations(in data: Data) -> [String] {
    let builder = TreeBuilder()
    let parser = XMLParser(data: data)
    parser.delegate = builder
    let parsed = parser.parse()
    guard parsed, builder.mismatch == nil, let root = builder.root else {
      let why = builder.mismatch ?? parser.parserError.map { "\($0)" } ?? "no root element"
      return ["not well-formed XML: \(why)"]
    }
    var problems: [String] = []
    guard root.name == "testsuites" else { return ["the root is <\(root.name)>, not <testsuites>"] }
    problems += unknownAttributes(of: root, allowed: ["name", "time", "tests", "failures", "errors"])
    problems += surefireTime(root)
    for child in root.children where child.name != "testsuite" {
      problems.append("<testsuites> holds <\(child.name)>; only <testsuite> is allowed")
    }
    if !root.text.isEmpty { problems.append("<testsuites> holds text") }
    for suite in root.children where suite.name == "testsuite" { problems += check(suite: suite) }
    return problems
  }

  private static let suiteAttributes: Set<String> = [
    "name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname", "id",
    "package", "file", "log", "url",
  ]
  private static let caseAttributes: Set<String> = ["name", "time", "classname", "group"]
  private static let outcomes: Set<String> = ["skipped", "error", "failure"]

  private static func check(suite: Element) -> [String] {
    var problems = unknownAttributes(of: suite, allowed: suiteAttributes)
    // Jenkins requires these; Ant adds timestamp, hostname and time.
    for required in ["name", "tests", "failures", "errors", "timestamp", "hostname", "time"]
    where suite.attributes[required] == nil {
      problems.append("<testsuite> lacks required \(required)")
    }
    if suite.attributes["name"]?.isEmpty == true { problems.append("<testsuite> name is empty") }
    if suite.attributes["hostname"]?.isEmpty == true { problems.append("<testsuite> hostname is empty") }
    for integer in ["tests", "failures", "errors", "skipped", "id"] {
      if let value = suite.attributes[integer], Int(value) == nil {
        problems.append("<testsuite> \(integer)=\"\(value)\" is not an integer")
      }
    }
    if let stamp = suite.attributes["timestamp"],
      stamp.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}/) == nil
    {
      problems.append("<testsuite> timestamp \"\(stamp)\" is not YYYY-MM-DDTHH:MM:SS without a zone")
    }
    problems += surefireTime(suite)
    // Ant's order: one <properties>, the test cases, <system-out>, <system-err>.
    let names = suite.children.map(\.name)
    let cases = names.filter { $0 == "testcase" }.count
    let expected = ["properties"] + Array(repeating: "testcase", count: cases) + ["system-out", "system-err"]
    if names != expected {
      problems.append("<testsuite> children are \(names), not properties, testcases, system-out, system-err")
    }
    if !suite.text.isEmpty { problems.append("<testsuite> holds text") }
    for child in suite.children {
      switch child.name {
      case "properties": problems += check(properties: child)
      case "testcase": problems += check(testCase: child)
      case "system-out", "system-err":
        if !child.children.isEmpty { problems.append("<\(child.name)> holds elements") }
      default: break
      }
    }
    let testCases = suite.children.filter { $0.name == "testcase" }
    func count(_ outcome: String) -> Int {
      testCases.filter { $0.children.contains { $0.name == outcome } }.count
    }
    for (attribute, actual) in [
      ("tests", testCases.count), ("failures", count("failure")), ("errors", count("error")),
      ("skipped", count("skipped")),
    ] {
      if let value = suite.attributes[attribute].flatMap(Int.init), value != actual {
        problems.append("<testsuite> \(attribute)=\(value) but it holds \(actual)")
      }
    }
    return problems
  }

  private static func check(properties: Element) -> [String] {
    var problems = unknownAttributes(of: properties, allowed: [])
    for property in properties.children {
      guard property.name == "property" else {
        problems.append("<properties> holds <\(property.name)>")
        continue
      }
      problems += unknownAttributes(of: property, allowed: ["name", "value"])
      if (property.attributes["name"] ?? "").isEmpty { problems.append("<property> lacks a name") }
      if property.attributes["value"] == nil { problems.append("<property> lacks a value") }
    }
    return problems
  }

  private static func check(testCase: Element) -> [String] {
    let name = testCase.attributes["name"] ?? "?"
    var problems = unknownAttributes(of: testCase, allowed: caseAttributes)
    for required in ["name", "classname", "time"] where testCase.attributes[required] == nil {
      problems.append("<testcase \(name)> lacks required \(required)")
    }
    if let time = testCase.attributes["time"], Decimal(string: time) == nil || Double(time) == nil {
      problems.append("<testcase \(name)> time \"\(time)\" is not a decimal")
    }
    // Ant: at most one outcome and nothing else inside a case.
    if testCase.children.count > 1 { problems.append("<testcase \(name)> holds more than one element") }
    for child in testCase.children {
      guard outcomes.contains(child.name) else {
        problems.append("<testcase \(name)> holds <\(child.name)>")
        continue
      }
      problems += unknownAttributes(of: child, allowed: ["type", "message"])
      if child.name != "skipped", child.attributes["type"] == nil {
        problems.append("<\(child.name)> in \(name) lacks required type")
      }
      if !child.children.isEmpty { problems.append("<\(child.name)> in \(name) holds elements") }
    }
    return problems
  }

  private static func unknownAttributes(of element: Element, allowed: Set<String>) -> [String] {
    element.attributes.keys.sorted().filter { !allowed.contains($0) }.map {
      "<\(element.name)> has attribute \($0), which the schema does not allow"
    }
  }

  /// Jenkins' SUREFIRE_TIME and Ant's decimal: digits, an optional fraction, no unit.
  private static func surefireTime(_ element: Element) -> [String] {
    guard let time = element.attributes["time"] else { return [] }
    return time.wholeMatch(of: /[0-9]+(\.[0-9]*)?/) == nil
      ? ["<\(element.name)> time \"\(time)\" is not a plain decimal of seconds"] : []
  }

  private final class TreeBuilder: NSObject, XMLParserDelegate {
    var root: Element?
    /// The first end tag that did not close the open element (Linux's parser lets some through).
    var mismatch: String?
    private var stack: [Element] = []

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      let element = Element(name: elementName, attributes: attributes)
      if let parent = stack.last { parent.children.append(element) } else { root = element }
      stack.append(element)
    }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
      if stack.last?.name != elementName, mismatch == nil {
        mismatch = "</\(elementName)> closes <\(stack.last?.name ?? "nothing")>"
      }
      _ = stack.popLast()
    }

    func parserDidEndDocument(_ parser: XMLParser) {
      if let open = stack.last, mismatch == nil { mismatch = "<\(open.name)> is never closed" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      guard let element = stack.last,
        !["failure", "error", "skipped", "system-out", "system-err"].contains(element.name)
      else { return }
      element.text += string.trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }
}
