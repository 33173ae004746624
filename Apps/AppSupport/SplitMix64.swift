/// A small, fast, seeded pseudo-random generator (SplitMix64), so that games and fault injection
/// are reproducible.
///
/// The same seed always gives the same numbers on every platform; the system generator is never
/// used. The generator is a plain value: copy it to replay, encode it to save.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let roll = rng.roll(1...6)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Equatable, Codable {
  /// The generator's whole state.
  public var state: UInt64

  /// Creates a generator from a seed.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range`, each equally likely (up to a negligible modulo bias).
  public mutating func roll(_ range: ClosedRange<Int>) -> Int {
    let width = UInt64(range.upperBound - range.lowerBound) + 1
    return range.lowerBound + Int(next() % width)
  }
}
