/// The package's version, written in one place: SARIF's `tool.driver.version` and
/// `canary --version` both read it.
package enum CanaryTrapVersion {
  /// The version of this release.
  package static let current = "1.0.0"
}
