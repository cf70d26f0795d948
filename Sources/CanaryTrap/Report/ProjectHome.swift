/// Where CanaryTrap lives, the one place reports and documentation take its address from.
package enum ProjectHome {
  /// The project's home page; the README's package URL is this plus `.git`.
  ///
  /// The project has no public address yet, so this is a placeholder with `OWNER` in it. To
  /// publish: change it here and in README.md (`SARIFReportTests` keeps the two equal), then
  /// `CI/check-release.sh` passes. While it is a placeholder, SARIF logs leave `informationUri`
  /// out rather than send readers to an address that does not exist.
  package static let url = "https://github.com/OWNER/CanaryTrap"

  /// Whether ``url`` is still the placeholder.
  package static var isPlaceholder: Bool { url.contains("/OWNER/") }

  /// SARIF's `tool.driver.informationUri`: the home page once it is real, else nothing.
  package static var informationURI: String? { isPlaceholder ? nil : url }
}
