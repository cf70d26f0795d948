import Foundation
import Testing

@testable import CanaryTrapScanner

/// Canaries a wrapping logger cut across two lines: every shape, in its raw and encoded forms,
/// cut at every position by a line feed, CRLF, a line feed and indentation, or a line feed and
/// a repeated timestamp prefix, is found once, under the name the unbroken line gets, on the
/// line where it starts; halves of two canaries, or a near miss, joined the same way give nothing.
@Suite struct WrappedLineTests {
  static let generator = CanaryGenerator()
  static let canaries = CanaryShape.allCases.map { shape in
    Canary(value: generator.makeValue(shape), location: .custom("wrapped.\(shape)"), shape: shape)
  }
  static let scanner = LeakScanner(canaries: canaries)
  /// Forms are matched without fragments for the clean twins: a half of 16 bytes or more is
  /// a fragment, which is right but not what the twins check.
  static let wholeFormsOnly = LeakScanner(
    canaries: canaries, options: ScanOptions(encodings: Set(ScanEncoding.allCases), minFragment: nil))

  static let unreserved = CharacterSet(
    charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

  /// The forms a log line may hold a canary in: raw, percent-encoded, JSON-escaped (as
  /// JSONSerialization writes it), base64.
  static func forms(of value: String) -> [(name: String, text: String)] {
    let json = try! JSONSerialization.data(withJSONObject: [value], options: [.fragmentsAllowed])
    return [
      ("raw", value),
      ("percent", value.addingPercentEncoding(withAllowedCharacters: unreserved)!),
      ("json-escaped", String(String(decoding: json, as: UTF8.self).dropFirst(2).dropLast(2))),
      ("base64", Data(value.utf8).base64EncodedString()),
    ]
  }

  static let prefix = "2026-11-29T19:00:00.000Z DEBUG "
  /// What a wrapping logger writes between the two pieces of a line.
  static let breaks = ["\n", "\r\n", "\n    ", "\n\t", "\n" + prefix, "\r\n" + prefix + "  "]

  /// `first` then `second` on one logged line, cut after `cut` bytes of `first + second` with
  /// `layout`, between a line before and a line after.
  static func log(_ line: String, cut: Int, layout: String) -> [UInt8] {
    let bytes = Array(line.utf8)
    return Array("\(prefix)start\n".utf8) + bytes[..<cut] + Array(layout.utf8) + bytes[cut...]
      + Array("\n\(prefix)end\n".utf8)
  }

  @Test func everyFormCutAtEveryPositionIsFoundOnceOnItsLine() {
    var failures: [String] = []
    var cases = 0
    for canary in Self.canaries {
      for form in Self.forms(of: canary.value) {
        let line = Self.prefix + "leaked value=" + form.text
        let lead = (Self.prefix + "leaked value=").utf8.count
        let unbroken = Self.scanner.scan(Data((line + "\n").utf8), source: "log")
        guard unbroken.count == 1, let expected = unbroken.first?.encoding else {
          failures.append("\(canary.shape!) \(form.name) unbroken: \(unbroken.map(\.encoding))")
          continue
        }
        for cut in (lead + 1)..<Array(line.utf8).count {
          for layout in Self.breaks {
            cases += 1
            let findings = Self.scanner.scan(Data(Self.log(line, cut: cut, layout: layout)), source: "log")
            let ok =
              findings.count == 1 && findings[0].encoding == expected && findings[0].line == 2
              && findings[0].canary == canary
            if !ok {
              failures.append(
                "\(canary.shape!) \(form.name) cut \(cut - lead) \(layout.debugDescription): "
                  + "\(findings.map { "\($0.encoding)@\($0.line)" })")
            }
          }
        }
      }
    }
    #expect(cases > 5000)
    #expect(failures.isEmpty, "\(failures.count) of \(cases) cases failed; first: \(failures.prefix(8))")
  }

  @Test func halvesOfTwoCanariesJoinedAcrossABreakGiveNothing() {
    var found: [String] = []
    var cases = 0
    for (first, second) in zip(Self.canaries, Self.canaries.dropFirst() + Self.canaries.prefix(1)) {
      let a = Array(first.value.utf8)
      let b = Array(second.value.utf8)
      for cut in 1..<min(a.count, b.count) where a[..<cut] != b[..<cut] {
        // Random values can join into a real form by chance (a token ending in `ex` before an
        // email's `ample.invalid`): such a join is a canary, not a false finding, so skip it.
        let joined = Array((Self.prefix + "x=").utf8) + a[..<cut] + b[cut...] + [0x0A]
        guard Self.wholeFormsOnly.scan(Data(joined), source: "log").isEmpty else { continue }
        for layout in Self.breaks {
          cases += 1
          let text = Array((Self.prefix + "x=").utf8) + a[..<cut] + Array(layout.utf8) + b[cut...] + [0x0A]
          let findings = Self.wholeFormsOnly.scan(Data(text), source: "log")
          if !findings.isEmpty { found.append("\(first.shape!)|\(second.shape!) cut \(cut): \(findings)") }
        }
      }
    }
    #expect(cases > 500)
    #expect(found.isEmpty, "\(found.count) of \(cases): \(found.prefix(4))")
  }

  @Test func aNearMissCutAcrossABreakGivesNothing() {
    var found: [String] = []
    for canary in Self.canaries {
      let value = Array(canary.value.utf8)
      // A blank dropped or doubled at the cut reads as the continuation's layout: not a miss.
      for cut in 1..<value.count where value[cut] != 0x20 && value[cut - 1] != 0x20 {
        // The byte at the cut changed (to a byte no canary holds, so not a case variant),
        // dropped, or doubled: not the canary.
        var changed = value
        changed[cut] = UInt8(ascii: "~")
        var misses = [(changed[..<cut], changed[cut...]), (value[..<cut], value[(cut + 1)...])]
        if cut > 1 { misses.append((value[..<cut], value[(cut - 1)...])) }
        // A doubled byte in a run of bytes equal in any case (`a` doubled before `A`) still holds
        // the canary as the case-insensitive form reads it: not a miss.
        for (left, right) in misses
        where !String(decoding: left + right, as: UTF8.self).lowercased().contains(canary.value.lowercased())
        {
          for layout in Self.breaks {
            let text = Array((Self.prefix + "x=").utf8) + left + Array(layout.utf8) + right + [0x0A]
            let findings = Self.wholeFormsOnly.scan(Data(text), source: "log")
            if !findings.isEmpty { found.append("\(canary.shape!) cut \(cut): \(findings.map(\.excerpt))") }
          }
        }
      }
    }
    #expect(found.isEmpty, "\(found.count): \(found.prefix(4))")
  }

  /// A form starting with a blank that stands whole at the start of a continuation line, after
  /// a line ending in the same blank, is reported where it stands (line 2, column 1), not as a
  /// cut across the break that borrows the first line's blank. Twin: without the blank at the
  /// continuation's start, the form is cut, and found across the break from line 1.
  @Test func aFormWholeOnTheContinuationIsFoundAtItsOwnColumn() {
    let canary = Canary(value: " éabacdGaeGd6q", location: .custom("blank.first"))
    let scanner = LeakScanner(
      canaries: [canary], options: ScanOptions(encodings: Set(ScanEncoding.allCases), minFragment: nil))
    for form in [canary.value, " &#xe9;abacdGaeGd6q"] {
      let unbroken = scanner.scan(Data("x=\(form)\n".utf8), source: "log")
      #expect(unbroken.count == 1, "\(form): \(unbroken)")
      let whole = scanner.scan(Data("log: aaaa \n\(form) end\n".utf8), source: "log")
      #expect(whole.map(\.line) == [2] && whole.map(\.column) == [1], "\(form): \(whole)")
      #expect(whole.map(\.encoding) == unbroken.map(\.encoding))
      let cut = scanner.scan(Data("log: aaaa \n\(form.dropFirst()) end\n".utf8), source: "log")
      #expect(cut.map(\.line) == [1] && cut.map(\.column) == [10], "\(form): \(cut)")
      #expect(cut.map(\.encoding) == unbroken.map(\.encoding))
    }
  }

  /// The twin of the near misses: the same scanner, the same layouts, the canary intact.
  @Test func theIntactCanaryCutTheSameWayIsFound() {
    for canary in Self.canaries {
      let value = Array(canary.value.utf8)
      for cut in 1..<value.count {
        for layout in Self.breaks {
          let text =
            Array((Self.prefix + "x=").utf8) + value[..<cut] + Array(layout.utf8) + value[cut...] + [0x0A]
          let findings = Self.wholeFormsOnly.scan(Data(text), source: "log")
          #expect(
            findings.map(\.encoding) == ["raw"], "\(canary.shape!) cut \(cut) \(layout.debugDescription)")
        }
      }
    }
  }

  @Test func aWrappedCanaryAcrossEveryChunkBoundaryIsFoundOnce() {
    let canary = Self.canaries[0]
    let scanner = LeakScanner(canaries: [canary], options: ScanOptions(), chunkSize: 64)
    let value = Array(canary.value.utf8)
    let half = value.count / 2
    let text =
      Array(String(repeating: "filler line\n", count: 30).utf8) + value[..<half] + Array("\n    ".utf8)
      + value[half...] + Array("\nlast\n".utf8)
    let start = 30 * 12
    for split in (start - 80)...(text.count) {
      let stream = scanner.makeStream(source: "s")
      stream.feed(text[..<split])
      stream.feed(text[split...])
      let findings = stream.finish()
      #expect(findings.map(\.offset) == [start], "split at \(split)")
      #expect(findings.map(\.line) == [31])
    }
  }

  @Test func aPrefixLongerThanItsBoundIsNotSkipped() {
    let canary = Self.canaries[0]
    let value = Array(canary.value.utf8)
    let longPrefix = String(repeating: "p", count: LineJunctionSearch.maxRepeatedPrefix) + " "
    let cut = 4
    let within = Array("ab \(canary.value.prefix(cut))\nab ".utf8) + value[cut...] + [0x0A]
    #expect(Self.wholeFormsOnly.scan(Data(within), source: "s").map(\.encoding) == ["raw"])
    let beyond =
      Array("\(longPrefix)\(canary.value.prefix(cut))\n\(longPrefix)".utf8) + value[cut...] + [0x0A]
    #expect(Self.wholeFormsOnly.scan(Data(beyond), source: "s").isEmpty)
    let indented =
      Array("\(canary.value.prefix(cut))\n\(String(repeating: " ", count: 65))".utf8) + value[cut...]
    #expect(Self.wholeFormsOnly.scan(Data(indented), source: "s").isEmpty)
  }

  /// A prefix whose first number grew a digit on the continuation (`9:59:59.990 ` then
  /// `10:00:00.003 `): the lines start with different bytes, both digits, and the layout is still
  /// skipped. The twin: one character of the continued piece changed is clean.
  @Test(arguments: [true, false])
  func aPrefixWhoseFirstNumberGrewADigitIsSkipped(leak: Bool) {
    let value = Self.canaries[0].value
    var rest = String(value.dropFirst(6))
    if !leak { rest = String(rest.dropLast()) + (rest.last == "a" ? "b" : "a") }
    let log = "9:59:59.990 D app: token=\(value.prefix(6))\n10:00:00.003 D app: \(rest)\n"
    let findings = Self.wholeFormsOnly.scan(Data(log.utf8), source: "s")
    #expect(findings.map(\.encoding) == (leak ? ["raw"] : []), "\(log)")
    #expect(findings.allSatisfy { $0.line == 1 })
  }

  /// A prefix ending in a `:`, not a blank, as Python's logging writes one (`DEBUG:app:`) for a
  /// message logged in chunks: every form cut in its middle is found. The twin: one character of
  /// the continued piece changed is clean.
  @Test(arguments: [true, false])
  func aPrefixEndingInAColonIsSkipped(leak: Bool) {
    let value = Self.canaries[0].value
    // A form equal to the raw value is named `raw`.
    for (name, form) in Self.forms(of: value) where name == "raw" || form != value {
      let cut = form.count / 2
      var rest = String(form.dropFirst(cut))
      if !leak { rest = String(rest.dropLast()) + (rest.last == "a" ? "b" : "a") }
      let log = "DEBUG:app:GET /v1/items 200\nDEBUG:app:token=\(form.prefix(cut))\nDEBUG:app:\(rest)\n"
      let findings = Self.wholeFormsOnly.scan(Data(log.utf8), source: "s")
      #expect(findings.map(\.encoding) == (leak ? [name] : []), "\(log)")
      #expect(findings.allSatisfy { $0.line == 2 })
    }
  }

  /// A value over three lines: the third repeats the second's prefix, not the first line's text.
  /// The first goes on after its prefix with a number and `", `, and the third holds the value's
  /// last digits, as many, and then `", `: read against the first line, those digits seemed more
  /// prefix. The twin: the same layout with one digit of the last piece changed is clean.
  @Test(arguments: [true, false])
  func aLastPieceShapedAsTheFirstLinesTextIsNotTakenForPrefix(leak: Bool) throws {
    let canary = try #require(Self.canaries.first { $0.shape == .uuid })
    let hex = Data(canary.value.utf8).map { String(format: "%02X", $0) }.joined()
    // A UUID's last twelve characters are hex digits: the hex of its last ones is decimal digits.
    var last = String(hex.dropFirst(65))
    #expect(last.count == 7 && last.allSatisfy(\.isNumber))
    if !leak { last = String(last.dropLast()) + (last.last == "1" ? "2" : "1") }
    func stamp(_ second: Int) -> String { "2026-12-06T10:00:0\(second).\(100 * second)Z D app: " }
    let log =
      stamp(1) + "GET /v1/items 200\n" + stamp(3) + "9898403\", \"uuid\":\"" + hex.prefix(21) + "\n"
      + stamp(4) + hex.dropFirst(21).prefix(44) + "\n" + stamp(5) + last + "\", password: redacted\n"
    let findings = Self.wholeFormsOnly.scan(Data(log.utf8), source: "s")
    #expect(findings.map(\.encoding) == (leak ? ["hex"] : []), "\(log)")
    #expect(findings.allSatisfy { $0.line == 2 })
  }

  /// A value's first continuation that goes on after its prefix as the line before does (a long
  /// number, then `"; `): a long digit run is the lines' text, not a prefix's counter, so the
  /// continuation's piece is read. The twin: one digit of it changed is clean.
  @Test(arguments: [true, false])
  func aFirstContinuationShapedAsTheLineBeforeIsNotTakenForPrefix(leak: Bool) throws {
    let canary = try #require(Self.canaries.first { $0.shape == .number })
    // A numeric canary's hex is decimal digits.
    let hex = Data(canary.value.utf8).map { String(format: "%02x", $0) }.joined()
    var rest = String(hex.dropFirst(22))
    if !leak { rest = String(rest.dropLast()) + (rest.last == "1" ? "2" : "1") }
    let log =
      "[net 3/7] 6235706365323834\"; \"number\":\"" + hex.prefix(22) + "\n[net 4/7] " + rest + "\"; \n"
      + "[net 5/7] done\n"
    let findings = Self.wholeFormsOnly.scan(Data(log.utf8), source: "s")
    #expect(findings.map(\.encoding) == (leak ? ["hex"] : []), "\(log)")
  }

  /// A fragment across a break needs a few bytes on each side: 15 bytes of a token ending a
  /// line, and the next line starting with the token's 16th character (or a `W` where it is a
  /// `w`, read case folded), is chance, not a 16-byte fragment. The twins: four bytes on the
  /// short side are a fragment.
  @Test(arguments: [
    ("cnrycxvv38yspmu\nWARN other 5b66", false), ("c\nnrycxvv38yspmuw other", false),
    ("38yspmuw5b66g\ns3z other", false), ("cnry\ncxvv38yspmuw other", true),
    ("38yspmuw5b66g\ns3zy other", true),
  ])
  func aFragmentNeedsBytesOnBothSidesOfABreak(_ text: String, isFragment: Bool) {
    let canary = Canary(value: "cnrycxvv38yspmuw5b66gs3zy53jdn", location: .custom("wrapped"))
    let findings = LeakScanner(canaries: [canary]).scan(Data("x=\(text)\n".utf8), source: "s")
    #expect(findings.map(\.encoding) == (isFragment ? ["fragment"] : []), "\(text)")
  }
}
