/// The place in the user's test code a report points at: where the scope or assertion was written.
public struct ReportSourceLocation: Sendable, Hashable, Codable {
  /// The file ID, such as `MyAppTests/SignInTests.swift`.
  public var fileID: String
  /// The full path of the file.
  public var filePath: String
  /// The 1-based line.
  public var line: Int
  /// The 1-based column.
  public var column: Int

  /// Creates a source location.
  package init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

extension ReportSourceLocation {
  /// The location of a call, from the `#fileID`, `#filePath`, `#line` and `#column` it captured.
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.init(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }

  /// `Module/File.swift:42`, as messages name the place.
  package var shortDescription: String { "\(fileID):\(line)" }
}
