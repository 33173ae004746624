public import ArgumentParser

/// Checks of numeric options, with one-line messages that name the option.
///
/// ```swift
/// func validate() throws {
///   try NumericOption.check(timeout, of: "--timeout", atLeast: 0, allowsInfinity: true)
///   try NumericOption.check(pages, of: "--pages", in: 1...1000)
/// }
/// ```
public enum NumericOption {
  /// Refuses NaN, infinity (unless `allowsInfinity`) and values below `minimum` or above
  /// `maximum`.
  ///
  /// - Throws: A `ValidationError` (exit status 64) naming the option and the accepted range.
  public static func check(
    _ value: Double,
    of name: String,
    atLeast minimum: Double = -.infinity,
    atMost maximum: Double = .infinity,
    allowsInfinity: Bool = false
  ) throws(ValidationError) {
    if value.isNaN { throw ValidationError("\(name) must be a number, not NaN") }
    if value.isInfinite && !allowsInfinity {
      throw ValidationError("\(name) must be finite, not \(value)")
    }
    if value < minimum || value > maximum {
      throw ValidationError("\(name) must be \(describe(minimum, maximum)), not \(value)")
    }
  }

  /// Refuses values outside `range`.
  ///
  /// - Throws: A `ValidationError` (exit status 64) naming the option and the range.
  public static func check(
    _ value: Int,
    of name: String,
    in range: ClosedRange<Int>
  )
    throws(ValidationError)
  {
    guard range.contains(value) else {
      throw ValidationError(
        "\(name) must be between \(range.lowerBound) and \(range.upperBound), not \(value)"
      )
    }
  }

  private static func describe(_ minimum: Double, _ maximum: Double) -> String {
    switch (minimum.isFinite, maximum.isFinite) {
    case (true, true): "between \(minimum) and \(maximum)"
    case (true, false): "at least \(minimum)"
    case (false, true): "at most \(maximum)"
    case (false, false): "a number"
    }
  }
}
