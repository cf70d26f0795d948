/// The Xcode file templates `canary init --xcode-templates DIR` writes, built from the embedded
/// templates: one `<Title> Canary Suite.xctemplate` folder per kind, holding `TemplateInfo.plist`
/// and the suite in both flavours (`Swift Testing/` and `XCTest/`), its type renamed after the file
/// Xcode creates.
enum XcodeTemplates {
  /// Where Xcode looks for a user's file templates; the help suggests it.
  static let suggestedFolder = "~/Library/Developer/Xcode/Templates/File Templates/CanaryTrap"

  /// One file of a template: its path inside the output folder and its text.
  struct File: Sendable, Hashable {
    /// The path relative to the output folder, such as `Sign-In Canary Suite.xctemplate/TemplateInfo.plist`.
    let path: String
    /// The file's text.
    let text: String
  }

  /// The name of `kind`'s template folder.
  static func folderName(of kind: TemplateCatalog.Kind) -> String {
    "\(kind.title) Canary Suite.xctemplate"
  }

  /// Every file of every kind's template, or the name of a kind whose source is missing from this build.
  static func files() -> Result<[File], MissingTemplate> {
    var files: [File] = []
    for kind in TemplateCatalog.kinds {
      let folder = folderName(of: kind)
      for (flavour, xctest) in [("Swift Testing", false), ("XCTest", true)] {
        guard let source = TemplateCatalog.source(of: kind, xctest: xctest) else {
          return .failure(MissingTemplate(kind: kind.name))
        }
        let typeName = String(kind.fileName(xctest: xctest).dropLast(".swift".count))
        files.append(
          File(
            path: "\(folder)/\(flavour)/___FILEBASENAME___.swift",
            text: source.replacingOccurrences(of: typeName, with: "___FILEBASENAMEASIDENTIFIER___")))
      }
      files.append(File(path: "\(folder)/TemplateInfo.plist", text: info(of: kind)))
    }
    return .success(files)
  }

  /// A kind whose template text this build lacks.
  struct MissingTemplate: Error {
    /// The kind's name.
    let kind: String
  }

  /// The `TemplateInfo.plist` of `kind`: a text-substitution file template whose options are the
  /// suite's name and the testing system, the folder of the same name holding each flavour.
  static func info(of kind: TemplateCatalog.Kind) -> String {
    let summary = escaped(kind.summary)
    let suite = escaped(kind.suiteName)
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \t<key>Kind</key>
      \t<string>Xcode.IDEFoundation.TextSubstitutionFileTemplateKind</string>
      \t<key>Description</key>
      \t<string>A CanaryTrap suite for \(summary).</string>
      \t<key>Summary</key>
      \t<string>A CanaryTrap suite for \(summary)</string>
      \t<key>SortOrder</key>
      \t<string>1</string>
      \t<key>DefaultCompletionName</key>
      \t<string>\(suite)</string>
      \t<key>Platforms</key>
      \t<array/>
      \t<key>MainTemplateFile</key>
      \t<string>___FILEBASENAME___.swift</string>
      \t<key>Options</key>
      \t<array>
      \t\t<dict>
      \t\t\t<key>Identifier</key>
      \t\t\t<string>productName</string>
      \t\t\t<key>Required</key>
      \t\t\t<true/>
      \t\t\t<key>Name</key>
      \t\t\t<string>Suite name:</string>
      \t\t\t<key>Description</key>
      \t\t\t<string>The name of the test suite and its file</string>
      \t\t\t<key>Type</key>
      \t\t\t<string>text</string>
      \t\t\t<key>Default</key>
      \t\t\t<string>\(suite)</string>
      \t\t</dict>
      \t\t<dict>
      \t\t\t<key>Identifier</key>
      \t\t\t<string>testingSystem</string>
      \t\t\t<key>Name</key>
      \t\t\t<string>Testing System:</string>
      \t\t\t<key>Description</key>
      \t\t\t<string>Swift Testing or XCTest</string>
      \t\t\t<key>Type</key>
      \t\t\t<string>popup</string>
      \t\t\t<key>Default</key>
      \t\t\t<string>Swift Testing</string>
      \t\t\t<key>Values</key>
      \t\t\t<array>
      \t\t\t\t<string>Swift Testing</string>
      \t\t\t\t<string>XCTest</string>
      \t\t\t</array>
      \t\t</dict>
      \t</array>
      </dict>
      </plist>

      """
  }

  /// `text` with the characters XML gives a meaning escaped.
  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
