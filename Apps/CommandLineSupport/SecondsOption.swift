public import ArgumentParser

extension NumericOption {
  /// Refuses a duration in seconds outside `range`, NaN, and infinity unless `infinityMeansNoLimit`
  /// (then `inf` is the one value past the range that is accepted: no limit).
  ///
  /// ```swift
  /// try NumericOption.check(seconds: timeout, of: "--timeout", in: 0.001...3600,
  ///   infinityMeansNoLimit: true)
  /// // --timeout must be between 0.001 and 3600 seconds (or inf: no limit), not -1
  /// ```
  ///
  /// A negative value reaches the check only when the option parses its value unconditionally
  /// (`@Option(parsing: .unconditional)`): otherwise `--timeout -1` reads `-1` as an option.
  ///
  /// - Throws: A `ValidationError` (exit status 64) naming the option and the range, in seconds.
  public static func check(
    seconds value: Double,
    of name: String,
    in range: ClosedRange<Double>,
    infinityMeansNoLimit: Bool = false
  ) throws(ValidationError) {
    if infinityMeansNoLimit && value == .infinity { return }
    guard !value.isNaN, range.contains(value) else {
      let noLimit = infinityMeansNoLimit ? " (or inf: no limit)" : ""
      throw ValidationError(
        "\(name) must be between \(plain(range.lowerBound)) and \(plain(range.upperBound)) "
          + "seconds\(noLimit), not \(plain(value))"
      )
    }
  }

  /// A number as people write it: `3600`, `0.001`, `-1`, `nan`, `inf`.
  static func plain(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
  }
}
