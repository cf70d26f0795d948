import CanaryTrap
import Foundation

/// `canary manifest`: mint a manifest of fresh canaries for UI tests and log pipelines, or check one.
enum ManifestCommand {
  /// The most canaries one manifest may mint.
  static let maximumCount = 10_000

  static let command = CommandSpec(
    name: "manifest", abstract: "Mint a manifest of fresh canaries, or check one.",
    discussion: """
      Mints COUNT fresh canaries of SHAPE at locations PREFIX[1] … PREFIX[COUNT] and writes the \
      manifest JSON, for a UI test or a log pipeline to plant and for 'canary scan' and 'canary serve' \
      to look for. Every value is random, \(CanaryManifest.minimumValueLength) to \
      \(CanaryManifest.maximumValueLength) bytes with at least \(CanaryManifest.minimumDistinctCharacters) \
      distinct characters (what every manifest must hold). With --check FILE, reads a manifest and \
      says what is wrong with it, naming line and column for invalid JSON; it also refuses a value \
      that ordinary HTTP text holds (a header name such as Authorization, a media type such as \
      application/json, a common word, or part of one) and a value that occurs inside another or \
      repeats it, naming the canary indexes.
      """,
    options: [
      countOption, shapeOption, locationPrefixOption, outputOption, OutputOptions.force,
      OutputOptions.fifoWait,
      checkOption,
    ],
    epilogue: """
      EXIT STATUS:
        0  the manifest was written, or --check found it valid.
        2  error: bad usage, a manifest --check finds invalid, or an output that cannot be written.
      """,
    run: { parsed, io in execute(parsed, io: io) })

  static let countOption = Option<Int?>.integer(
    "--count", short: "n", help: "How many canaries to mint.", defaultValue: "1", range: 1...maximumCount)

  static let shapeOption = Option<String?>.value(
    "--shape", short: "s", placeholder: "SHAPE", help: "The form of every value; mixed cycles through all.",
    defaultValue: "token", choices: CanaryShape.allCases.map(\.rawValue) + ["mixed"])

  static let locationPrefixOption = Option<String?>.value(
    "--location-prefix", short: "l", placeholder: "PREFIX",
    help: "The location names' stem: canaries go to PREFIX[1], PREFIX[2], …", defaultValue: "app.secret",
    check: { $0.isEmpty ? "--location-prefix must not be empty" : nil })

  static let outputOption = OutputOptions.output("the manifest")

  static let checkOption = Option<ScanPath?>.path(
    "--check", help: "Check this manifest instead of minting one.")

  static func execute(_ parsed: ParsedCommand, io: CommandIO) -> Int32 {
    if let path = parsed[checkOption] { return check(path, io: io) }
    let count = parsed[countOption] ?? 1
    let shapeName = parsed[shapeOption] ?? "token"
    let prefix = parsed[locationPrefixOption] ?? "app.secret"
    let generator = CanaryGenerator()
    let canaries = (1...count).map { index in
      let shape =
        CanaryShape(rawValue: shapeName) ?? CanaryShape.allCases[(index - 1) % CanaryShape.allCases.count]
      return Canary(
        value: generator.makeValue(shape), location: CanaryLocation("\(prefix)[\(index)]"), shape: shape)
    }
    do {
      let manifest = CanaryManifest(canaries: canaries)
      // What is written must read back: the same checks every reader makes.
      var data = try manifest.jsonData()
      data.append(0x0A)
      _ = try CanaryManifest(jsonData: data)
      let output = try OutputOptions.open(parsed, option: outputOption, inputs: [])
      try OutputOptions.write(data, to: output, io: io)
      if let output {
        CommandRunner.complain(
          "wrote \(count) canaries to \(output.requested.displayName)", "canary manifest", io)
      }
    } catch {
      return CommandRunner.fail("\(error)", "canary manifest", io)
    }
    return ExitStatus.success
  }

  /// Reads the manifest at `path` and reports its canaries, or what is wrong with it.
  static func check(_ path: ScanPath, io: CommandIO) -> Int32 {
    do {
      let manifest = try CanaryManifest(contentsOfPath: path.bytes)
      guard !manifest.canaries.isEmpty else { throw ManifestError.noCanaries }
      if let problem = ManifestValueCheck.problem(in: manifest.canaries.map(\.value)) { throw problem }
      let shapes = Set(manifest.canaries.compactMap { $0.shape?.rawValue }).sorted()
      io.writeOutput(
        "\(path.displayName): valid, \(manifest.canaries.count) canar\(manifest.canaries.count == 1 ? "y" : "ies")"
          + (shapes.isEmpty ? "" : " (\(shapes.joined(separator: ", ")))") + "\n")
      return ExitStatus.success
    } catch {
      return CommandRunner.fail("\(error)", "canary manifest", io)
    }
  }
}
