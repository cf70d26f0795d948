extension LeakReport {
  /// JUnit XML (filled in by the next step).
  func junitRendering() -> String { "" }
}
