import CanaryTrap
import Foundation
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite struct MarkupReportTests {
  private func html(_ report: LeakReport) -> String {
    String(decoding: report.rendered(as: .html), as: UTF8.self)
  }

  /// Every tag name in the page, in order.
  private func tags(in page: String) -> Set<String> {
    var names = Set<String>()
    var rest = page[...]
    while let open = rest.firstIndex(of: "<") {
      let after = rest[rest.index(after: open)...]
      let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" }
      names.insert(name.lowercased().replacingOccurrences(of: "/", with: ""))
      rest = after
    }
    return names
  }

  @Test func htmlEscapesEverythingItShows() {
    let page = html(ReportFixtures.hostile)
    let allowed: Set<String> = [
      "!doctype", "html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "div", "code",
      "table", "thead", "tbody", "tr", "th", "td", "span", "ol", "ul", "li", "pre", "footer",
      "details", "summary", "form", "fieldset", "legend", "label", "input", "mark", "wbr",
    ]
    #expect(tags(in: page).subtracting(allowed).isEmpty, "only the page's own tags")
    #expect(!page.contains("<script") && !page.contains("<img") && !page.contains("<b>"))
    #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"))
    #expect(page.contains("logs/&lt;img src=x onerror=alert(1)&gt;.log"))
    #expect(
      page.contains(
        "<title>CanaryTrap: scan of &quot;&lt;b&gt;logs&lt;/b&gt;&quot; &amp; &#39;more&#39;</title>"))
    #expect(!page.contains("\u{1}"))
  }

  @Test func htmlIsSelfContained() {
    let page = html(ReportFixtures.leaky)
    for external in ["<link", "<script", "src=", "href=", "url(", "@import"] {
      #expect(!page.contains(external), "\(external) would load something")
    }
    #expect(page.contains("<div class=\"verdict verdict-leaky\">LEAKY: 3 leaks at 2 locations</div>"))
    #expect(page.contains("<td class=\"cell leak\">base64</td>"))
    #expect(page.contains("<td class=\"delivery undelivered\">undelivered</td>"))
  }

  @Test(arguments: ["leaky", "hostile", "inconclusive", "clean", "scan"])
  func junitIsWellFormedXML(fixture: String) throws {
    let report = try #require(ReportFixtures.named[fixture])
    let data = report.rendered(as: .junit)
    let parser = XMLParser(data: data)
    let collector = TestCaseCollector()
    parser.delegate = collector
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(collector.testCaseNames.count == Set(collector.testCaseNames).count)
  }

  @Test func junitHasOneTestCasePerLocationAndFailsTheLeakyOnes() throws {
    let parser = XMLParser(data: ReportFixtures.hostile.rendered(as: .junit))
    let collector = TestCaseCollector()
    parser.delegate = collector
    #expect(parser.parse())
    #expect(
      collector.testCaseNames == [
        "<script>alert('loc')</script>", "source: logs/<img src=x onerror=alert(1)>.log", "run errors",
      ])
    #expect(collector.outcomes == ["failure", "error"])
    #expect(collector.classNames == ["scan of \"<b>logs</b>\" & 'more'"])
  }
}

/// Collects test case names, their class names and the outcome elements of a JUnit document.
final class TestCaseCollector: NSObject, XMLParserDelegate {
  var testCaseNames: [String] = []
  var classNames = Set<String>()
  var outcomes: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    switch elementName {
    case "testcase":
      testCaseNames.append(attributes["name"] ?? "")
      classNames.insert(attributes["classname"] ?? "")
    case "failure", "error", "skipped": outcomes.append(elementName)
    default: break
    }
  }
}
