public import Foundation

/// HTTP's `Retry-After` header: how long a server asks a client to wait before asking again.
///
/// It is a number of seconds (`120`) or an HTTP-date (`Wed, 21 Oct 2015 07:28:00 GMT`, or
/// the obsolete RFC 850 and asctime forms), RFC 9110 §10.2.3.
///
/// ```swift
/// RetryAfter.parse("120", now: .now)  // 120 seconds
/// RetryAfter.parse("Wed, 21 Oct 2015 07:28:00 GMT", now: date)  // the time from date until then
/// ```
public enum RetryAfter {
  /// The wait `value` asks for, counted from `now`: `nil` when it is neither form; zero for a
  /// date that has passed; at most a billion billion seconds (about 32 billion years).
  public static func parse(_ value: String, now: Date) -> Duration? {
    let text = value.trimmingCharacters(in: .whitespaces)
    if !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
      // A number too large for 64 bits is a wait longer than any cap: the largest one.
      return .seconds(Int64(text) ?? longest)
    }
    guard let date = date(text) else { return nil }
    let seconds = date.timeIntervalSince(now)
    guard seconds > 0 else { return .zero }
    return .milliseconds(Int64(min(seconds, Double(longest) / 1000) * 1000))
  }

  /// The longest wait a header can ask for, in seconds.
  static let longest: Int64 = 1_000_000_000_000_000_000

  /// The HTTP-date `text` is, in any of its three forms.
  static func date(_ text: String) -> Date? {
    // asctime pads a day below 10 with a space: `Sun Nov  6 08:49:37 1994`.
    let text = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    for format in [
      "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate, the form servers send
      "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // RFC 850
      "EEE MMM d HH:mm:ss yyyy",  // asctime
    ] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
  }
}
