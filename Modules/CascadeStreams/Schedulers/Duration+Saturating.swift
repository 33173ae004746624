/// How delays are read where time is converted: saturating, never trapping.
///
/// A scheduler waits at most ``Swift/Duration/longestDelay`` (100 years): a delay that long or
/// longer means "never" (the work is not scheduled; disposing of it does nothing), and a
/// negative delay means "now". Converting such a delay to a wall-clock deadline in nanoseconds
/// would overflow (`Int` nanoseconds end after about 292 years), which is why nothing converts
/// it.
extension Duration {
  /// The longest delay a scheduler waits for, 100 years: work scheduled this far or further
  /// ahead never runs, and a timeout this long never fires.
  public static var longestDelay: Duration { .seconds(100 * 365 * 24 * 3600) }

  /// What a scheduler does with this delay: `nil` means never (``longestDelay`` or longer),
  /// otherwise how many nanoseconds to wait, 0 for a negative delay.
  package var schedulingNanoseconds: Int? {
    if self >= Duration.longestDelay { return nil }
    if self <= .zero { return 0 }
    let (seconds, attoseconds) = components
    return Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
  }
}
