extension LeakReport {
  /// HTML (filled in by the next step).
  func htmlRendering() -> String { "" }
}
