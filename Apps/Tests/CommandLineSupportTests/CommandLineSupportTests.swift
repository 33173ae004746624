import AppSupport
import ArgumentParser
import CommandLineSupport
import Testing

/// The pieces the three command lines share: display escaping, strict UTF-8, numeric options,
/// the architecture option and the exit statuses.
struct CommandLineSupportTests {
  // A title cannot forge a listing line or reach the terminal as an escape sequence.
  @Test(arguments: [
    ("Buy milk", "Buy milk"),
    ("Buy\nmilk", "Buy\\nmilk"),
    ("tab\there", "tab\\there"),
    ("clear\u{1B}[2J", "clear\\u{1B}[2J"),
    ("back\\slash", "back\\\\slash"),
    ("bell\u{07}", "bell\\u{7}"),
    ("rtl\u{202E}txt", "rtl\\u{202E}txt"),
    ("é 🙂", "é 🙂"),
  ])
  func controlCharactersAreShownEscaped(_ text: String, _ shown: String) {
    #expect(DisplayText.escaped(text) == shown)
  }

  @Test func invalidUTF8IsRefused() {
    #expect(StrictInput.decode([0x61, 0xFF, 0x62]) == nil)
    #expect(StrictInput.decode([0xC3, 0xA9]) == "é")
    #expect("\(InvalidUTF8(where: "argument 2"))" == "argument 2 is not valid UTF-8")
  }

  @Test func numericOptionsRefuseNaNInfinityAndOutOfRange() {
    #expect(throws: ValidationError.self) {
      try NumericOption.check(.nan, of: "--timeout", atLeast: 0, allowsInfinity: true)
    }
    #expect(throws: ValidationError.self) { try NumericOption.check(.infinity, of: "--rate") }
    #expect(throws: ValidationError.self) {
      try NumericOption.check(1.5, of: "--fail-rate", atLeast: 0, atMost: 1)
    }
    #expect(throws: ValidationError.self) { try NumericOption.check(0, of: "--pages", in: 1...10) }
    #expect(throws: Never.self) {
      try NumericOption.check(.infinity, of: "--timeout", atLeast: 0, allowsInfinity: true)
    }
  }

  @Test func theArchitectureOptionParsesEachNameInAnyCase() throws {
    #expect(try ArchitectureOption.parse(["--architecture", "Reactor"]).architecture == .reactor)
    #expect(try ArchitectureOption.parse([]).architecture == .store)
    #expect(throws: (any Error).self) { try ArchitectureOption.parse(["--architecture", "mvc"]) }
  }

  @Test func exitStatusesAreTheSysexitsCodes() {
    #expect(ExitStatus.allCases.map(\.rawValue) == [0, 1, 64, 65, 66, 74, 75])
    #expect(ExitStatus.helpText.contains("64  usage"))
  }
}
