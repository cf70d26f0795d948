import Foundation
import Testing

@testable import CanaryCLI

/// What a template may import: what a user's test target has with the README's setup
/// (the `CanaryTrap` and `CanaryTrapTesting` products) plus the toolchain's own modules.
private let importsAUserHas: Set<String> = [
  "CanaryTrap", "CanaryTrapTesting", "Foundation", "FoundationNetworking", "Testing", "XCTest",
]

@Suite struct TemplateImportsTests {
  /// The module names a Swift source imports, from lines that start with `import` or
  /// `@testable import` (commented-out imports are not imports).
  private func imports(of source: String) -> [String] {
    source.split(separator: "\n").compactMap { line in
      let words = line.trimmingCharacters(in: .whitespaces).split(separator: " ")
      guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") })
      else { return nil }
      return words.count > index + 1 ? String(words[index + 1]) : nil
    }
  }

  @Test func everyTemplateImportsOnlyWhatTheReadmeSetupProvides() {
    #expect(TemplateSources.files.count == TemplateCatalog.kinds.count * 2)
    for (name, source) in TemplateSources.files {
      let extra = Set(imports(of: source)).subtracting(importsAUserHas)
      #expect(extra.isEmpty, "\(name) imports \(extra.sorted()), which the README's setup does not provide")
      #expect(source.contains("// Replace with your API client"), "\(name) does not mark its stand-in client")
    }
  }

  @Test func theImportCheckCatchesAnExampleModuleImport() {
    let source = "import CanaryTrapExamples\n@testable import MyApp\n// import Hidden\nimport Testing\n"
    #expect(imports(of: source) == ["CanaryTrapExamples", "MyApp", "Testing"])
  }
}
