import Testing

@testable import CanaryTrap

@Suite struct GlobPatternTests {
  @Test(arguments: [
    ("*.log", "app.log", true),
    ("*.log", "logs/app.log", false),
    ("**/*.log", "app.log", true),
    ("**/*.log", "a/b/c/app.log", true),
    ("logs/**", "logs/a/b.txt", true),
    ("logs/**/x.txt", "logs/x.txt", true),
    ("logs/**/x.txt", "other/x.txt", false),
    ("app-?.log", "app-1.log", true),
    ("app-?.log", "app-12.log", false),
    ("app-[0-9].log", "app-7.log", true),
    ("app-[!0-9].log", "app-7.log", false),
    ("app-[!0-9].log", "app-x.log", true),
    ("*", ".hidden", true),
    ("a*b*c", "axxbyyc", true),
    ("a*b*c", "axxbyy", false),
    ("[unclosed", "[unclosed", true),
  ])
  func matchesPathsLikeAShellWithDoubleStar(pattern: String, path: String, expected: Bool) {
    #expect(GlobPattern(pattern).matches(path) == expected)
  }

  @Test func detectsWildcards() {
    #expect(GlobPattern.hasWildcards("logs/*.log"))
    #expect(!GlobPattern.hasWildcards("logs/app.log"))
  }
}
