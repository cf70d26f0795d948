import Foundation
import Testing

@testable import CanaryTrap

@Suite("XML path lookup for the delivery proof of XML bodies")
struct XMLPathLookupTests {
  private func values(_ path: String, _ xml: String) -> [String] {
    XMLPathLookup.values(at: path, in: Array(xml.utf8))
  }

  @Test("element text, attributes, entities, CDATA, comments and self-closing elements")
  func readsWhatTheWriterWrites() {
    let xml = """
      <?xml version="1.0"?><!-- a comment <a>x</a> --><login device='d&amp;1'>\
      <user>a&lt;b&#38;c&#x41;</user><factors><factor>f1</factor><factor><![CDATA[<f2>]]></factor></factors>\
      <empty/></login>
      """
    #expect(values("login/user", xml) == ["a<b&cA"])
    #expect(values("login/@device", xml) == ["d&1"])
    #expect(values("login/factors/factor", xml) == ["f1", "<f2>"])
    #expect(values("login/empty", xml) == [""])
    #expect(values("a", xml) == [], "inside a comment")
    #expect(values("login/missing", xml) == [])
  }

  @Test("a planted XML template reads back at every path it lists")
  func templateRoundTrips() {
    var root = XMLElementTemplate(name: "order")
    root.attributes = [("id", .canary(.token))]
    var item = XMLElementTemplate(name: "item")
    item.text = .canary(.password)
    root.children = [item]
    var minted: [String] = []
    let text = root.text { _ in
      minted.append("v\(minted.count)<&\"'>")
      return minted.last!
    }
    let leaves = root.leaves(at: "")
    #expect(leaves.map(\.0) == ["order/@id", "order/item"])
    for (index, leaf) in leaves.enumerated() {
      #expect(values(leaf.0, text) == [minted[index]], "\(leaf.0)")
    }
  }

  @Test("bounded: deep nesting, endless elements and truncated input stop the read, never crash")
  func hostileInputStopsTheRead() {
    let deep = String(repeating: "<a>", count: 10_000) + "x" + String(repeating: "</a>", count: 10_000)
    let path64 = Array(repeating: "a", count: XMLPathLookup.maxDepth).joined(separator: "/")
    #expect(values(path64, deep) == [], "past the depth limit nothing is read")
    let path10 = Array(repeating: "a", count: 10).joined(separator: "/")
    let shallow = String(repeating: "<a>", count: 10) + "x" + String(repeating: "</a>", count: 10)
    #expect(values(path10, shallow) == ["x"], "twin: within the limit the value is read")
    let many = "<r>" + String(repeating: "<e/>", count: XMLPathLookup.maxElements + 10) + "<k>v</k></r>"
    #expect(values("r/k", many) == [], "past the element limit nothing more is read")
    #expect(values("r/k", "<r><e/><k>v</k></r>") == ["v"])
    for truncated in ["<r><k>v", "<r><k a=\"1", "<r><!-- x", "<r><![CDATA[x", "<", "<r", "</", "&"] {
      _ = values("r/k", truncated)
    }
  }
}
