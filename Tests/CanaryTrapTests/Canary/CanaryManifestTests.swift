import Foundation
import Testing

@testable import CanaryTrap

@Suite struct CanaryManifestTests {
  @Test func roundTripIsLosslessIncludingUnknownFields() throws {
    let json = """
      { "version": 1, "generator": {"name": "ui-tests", "run": 7},
        "canaries": [
          { "value": "cnry7h2kabcdefghjkmnpqrstuvw", "location": "request.header[X-Session]", "shape": "token",
            "note": "planted by hand", "tags": ["a", null, true, 2.5] },
          { "value": "some secret from elsewhere", "location": "logs.custom[thing]", "shape": "unknown-shape" }
        ] }
      """
    let manifest = try CanaryManifest(jsonData: Data(json.utf8))
    #expect(manifest.canaries.count == 2)
    #expect(manifest.canaries[0].location == .requestHeader("X-Session"))
    #expect(manifest.canaries[0].shape == .token)
    #expect(manifest.canaries[0].extraFields["note"] == .string("planted by hand"))
    #expect(manifest.canaries[1].location == .custom("logs.custom[thing]"))
    #expect(manifest.canaries[1].shape == nil)
    #expect(manifest.canaries[1].extraFields["shape"] == .string("unknown-shape"))
    #expect(manifest.extraFields["generator"] != nil)

    let again = try CanaryManifest(jsonData: try manifest.jsonData())
    #expect(again == manifest)
    let original = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! NSDictionary
    let written = try JSONSerialization.jsonObject(with: try manifest.jsonData()) as! NSDictionary
    #expect(original == written)
  }

  @Test func mintedSetRoundTripsThroughAFile() throws {
    let set = CanarySet()
    for shape in CanaryShape.allCases { set.mint(shape, at: .requestBody(.json("user.\(shape)"))) }
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID()).json")
    defer { try? FileManager.default.removeItem(at: url) }
    try set.manifest.write(to: url)
    #expect(try CanaryManifest(contentsOf: url) == set.manifest)
  }

  @Test(arguments: [
    (#"{"canaries": [{"value": "short", "location": "x"}]}"#, "canaries[0].value \"short\" is 5 bytes"),
    (#"{"canaries": [{"location": "x"}]}"#, "canaries[0].value must be a string"),
    (#"{"canaries": [{"value": "cnry0123456789abc"}]}"#, "canaries[0].location must be a string"),
    (#"{"canaries": {"value": "x"}}"#, "canaries must be an array"),
    (#"{"version": 2, "canaries": []}"#, "version 2 is not supported"),
    (#"{"version": "1", "canaries": []}"#, "version must be an integer"),
    (#"[1, 2]"#, "top level must be an object"),
    (#"{"canaries": [ "#, "not valid JSON"),
    (#"{"canaries": ["cnry0123456789abc"]}"#, "canaries[0] must be an object"),
  ])
  func malformedManifestsNameWhatIsWrong(json: String, expected: String) {
    do {
      _ = try CanaryManifest(jsonData: Data(json.utf8))
      Issue.record("expected an error containing \(expected)")
    } catch {
      #expect(String(describing: error).contains(expected), "\(error)")
    }
  }

  @Test func unreadableFileNamesThePath() {
    let url = URL(fileURLWithPath: "/nonexistent/dir/manifest.json")
    #expect(throws: ManifestError.self) { try CanaryManifest(contentsOf: url) }
    do {
      _ = try CanaryManifest(contentsOf: url)
    } catch {
      #expect(String(describing: error).contains("/nonexistent/dir/manifest.json"))
    }
  }

  @Test func addingAShortValueIsRefused() {
    let set = CanarySet()
    #expect(throws: ManifestError.self) {
      try set.add(Canary(value: "abc", location: .requestHeader("X")))
    }
    #expect(set.count == 0)
  }
}
