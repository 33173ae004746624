import Foundation

/// A seeded, reproducible generator of hostile command lines for fuzz-style tests of parsers.
///
/// It mixes the words a parser knows (verbs, flags) with what a user or a script might send by
/// mistake: numbers out of range, signs, empty strings, white space, quotes, dashes, unicode
/// (combining marks, right-to-left overrides, emoji, NUL), long strings and random garbage.
///
/// ```swift
/// var fuzz = Fuzz(seed: 7, verbs: ["add", "rm"], flags: ["--db", "--json"])
/// let arguments = fuzz.arguments()  // e.g. ["rm", "--json", "-1", "é"]
/// let line = fuzz.line()            // e.g. "add  \"💥"
/// ```
public struct Fuzz: Sendable {
  private var state: UInt64
  /// The words the parser knows as commands.
  public let verbs: [String]
  /// The options and flags the parser knows.
  public let flags: [String]
  /// The lengths of the long strings among the tokens.
  public let longLengths: [Int]

  /// Tokens that are hard on parsers.
  public static let hostile: [String] = [
    "", " ", "  ", "\t", "\n", "-", "--", "---", "-h", "--help", "help", "=", "--=", "\"", "'",
    "\"\"", "''", "\"unclosed", "'unclosed", "#", "?", "0", "1", "2", "-1", "-0", "+1", "1.5",
    "1e3", "0x10", "007", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "18446744073709551615", "18446744073709551616", "99999999999999999999999", "NaN", "inf",
    "é", "e\u{301}", "💥", "👩‍👩‍👧", "日本語", "\u{202E}evil", "\u{0}", "a\u{0}b", "\u{FEFF}",
    "\u{7F}", "\u{1B}[31m", "%s%n", "$(rm -rf /)", "../../etc/passwd", "/dev/null", "null",
    "true", "[]", "{}",
  ]

  /// A generator that always makes the same inputs for the same `seed`.
  ///
  /// `longest` caps the long strings among the tokens (256, 4,096 and 70,000 characters): an
  /// argument parser that suggests a near option for an unknown one compares each long string
  /// with every option, which takes seconds per 70,000 characters in a debug build.
  public init(seed: UInt64, verbs: [String], flags: [String] = [], longest: Int = 70_000) {
    state = seed
    self.verbs = verbs
    self.flags = flags
    longLengths = [256, 4_096, 70_000].filter { $0 <= longest }
  }

  /// The next number of SplitMix64.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range`.
  public mutating func roll(_ range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
  }

  /// One of `choices`.
  public mutating func pick<T>(_ choices: [T]) -> T {
    choices[roll(0...(choices.count - 1))]
  }

  /// One token: a verb, a flag, a hostile token, a number, garbage or a long string.
  public mutating func token() -> String {
    switch roll(0...19) {
    case 0...5: return verbs.isEmpty ? pick(Self.hostile) : pick(verbs)
    case 6...8: return flags.isEmpty ? pick(Self.hostile) : pick(flags)
    case 9...13: return pick(Self.hostile)
    case 14...15: return String(Int64(bitPattern: next()) >> roll(0...63))
    case 16...17: return garbage(length: roll(1...12))
    case 18: return flags.isEmpty ? garbage(length: 3) : pick(flags) + "=" + pick(Self.hostile)
    default:
      return String(repeating: pick(["x", "é", "💥", " "]), count: pick(longLengths))
    }
  }

  /// Random characters: printable ASCII, then any scalar now and then (not surrogates).
  public mutating func garbage(length: Int) -> String {
    var text = ""
    for _ in 0..<length {
      let value: UInt32 =
        roll(0...3) == 0 ? UInt32(roll(0...0x2_FFFF)) : UInt32(roll(0x20...0x7E))
      text.unicodeScalars.append(Unicode.Scalar(value) ?? "?")
    }
    return text
  }

  /// A command line's arguments: usually a verb first, then up to six tokens.
  public mutating func arguments() -> [String] {
    var arguments: [String] = []
    if roll(0...4) != 0, !verbs.isEmpty { arguments.append(pick(verbs)) }
    for _ in 0..<roll(0...6) { arguments.append(token()) }
    return arguments
  }

  /// A typed line: tokens joined by one or more spaces (or a tab), sometimes padded.
  public mutating func line() -> String {
    var words = arguments()
    if roll(0...9) == 0 { words.insert(pick(Self.hostile), at: 0) }
    var line = ""
    for (index, word) in words.enumerated() {
      if index > 0 { line += pick([" ", " ", " ", "  ", "\t"]) }
      line += word
    }
    return roll(0...9) == 0 ? "  \(line)  " : line
  }
}

/// What a parser made of fuzzed inputs (``Fuzz/run(_:count:make:parse:)``).
public struct FuzzOutcome<Input: Sendable>: Sendable {
  /// How many inputs parsed.
  public var accepted = 0
  /// How many were refused with a message.
  public var refused = 0
  /// The inputs refused without a message (only white space): each one a defect.
  public var silent: [Input] = []
}

extension Fuzz {
  /// Runs `count` inputs made by `make` through `parse`, which returns `nil` for an input it
  /// accepted and the message it refused the input with otherwise.
  ///
  /// The loop is CPU-bound (seconds in a debug build): it runs on a thread of its own, so that
  /// it holds no thread of the cooperative pool, which the suite's other tests need meanwhile.
  public static func run<Input: Sendable>(
    _ fuzz: Fuzz,
    count: Int,
    make: @escaping @Sendable (inout Fuzz) -> Input,
    parse: @escaping @Sendable (Input) -> String?
  ) async -> FuzzOutcome<Input> {
    await onOwnThread {
      var fuzz = fuzz
      var outcome = FuzzOutcome<Input>()
      for _ in 0..<count {
        let input = make(&fuzz)
        guard let message = parse(input) else {
          outcome.accepted += 1
          continue
        }
        outcome.refused += 1
        if message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
          outcome.silent.append(input)
        }
      }
      return outcome
    }
  }
}
