/// Where CanaryTrap lives, the one place reports and documentation take its address from.
package enum ProjectHome {
  /// The project's home page: SARIF's `informationUri`; the README's package URL is this plus `.git`.
  ///
  /// A placeholder until the project has a public address: change it here and in README.md
  /// (a test keeps the two equal).
  package static let url = "https://github.com/OWNER/CanaryTrap"
}
