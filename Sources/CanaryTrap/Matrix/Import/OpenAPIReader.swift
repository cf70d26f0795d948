import Foundation

/// Walks an OpenAPI 3.0/3.1 document and turns each operation into a ``PlannedExchange``.
struct OpenAPIReader {
  typealias Object = [String: JSONValue]

  static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
  static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]
  static let framingHeaders: Set<String> = [
    "content-length", "content-type", "transfer-encoding", "connection", "content-encoding", "set-cookie",
  ]

  let root: JSONValue
  var collector: ImportCollector
  /// What is left of the current operation's canary and schema-node budgets.
  private var canaryBudget = 0
  private var nodeBudget = 0
  private var budgetReported = false

  init(root: JSONValue, limits: ImportLimits) {
    self.root = root
    self.collector = ImportCollector(limits: limits)
  }

  var limits: ImportLimits { collector.limits }

  // MARK: Budget

  /// Gives the next operation its full canary and schema-node budgets.
  mutating func startOperationBudget() {
    canaryBudget = limits.maxCanariesPerKind
    nodeBudget = limits.maxCanariesPerKind * 10
    budgetReported = false
  }

  /// Spends one schema node (and one canary when `canary`); false, reported once, when the
  /// operation's budget is spent.
  mutating func spend(at pointer: String, canary: Bool) -> Bool {
    nodeBudget -= 1
    if canary { canaryBudget -= 1 }
    if nodeBudget >= 0 && canaryBudget >= 0 { return true }
    if !budgetReported {
      budgetReported = true
      collector.skip(
        pointer,
        "the operation's schemas are larger than \(limits.maxCanariesPerKind) canaries (ImportLimits.maxCanariesPerKind): the rest is not planted"
      )
    }
    return false
  }

  // MARK: Helpers

  static func isToken(_ name: String) -> Bool {
    !name.isEmpty
      && name.unicodeScalars.allSatisfy { scalar in
        scalar.isASCII
          && (CharacterSet.alphanumerics.contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
      }
  }

  /// A ``KindImportError/malformed(pointer:_:)`` at `pointer`.
  func malformed(_ pointer: String, _ detail: String) -> KindImportError {
    .malformed(pointer: pointer, detail)
  }
}
