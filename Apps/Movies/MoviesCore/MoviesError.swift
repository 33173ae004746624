/// Why a page could not be loaded: the typed failures the paging state shows.
public enum MoviesError: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
  /// The request never got an HTTP answer: the server is unreachable, the connection broke
  /// before the answer began.
  case transport(String)
  /// The server answered with a status other than 2xx (429 is ``tooManyRequests(retryAfter:)``).
  case httpStatus(Int)
  /// The body is not a page of the discover endpoint.
  case malformedBody(String)
  /// The answer is not valid HTTP, or leads nowhere: a garbage status line, a header that is
  /// not allowed bytes, a negative `Content-Length`, a redirect loop. Asking again would give
  /// the same answer.
  case malformedReply(String)
  /// No answer within the client's timeout.
  case timeout
  /// The answer began, and the connection closed before the whole body came: `received` bytes
  /// of the `expected` ones the headers announced (`nil` when they announced no length).
  case truncatedBody(received: Int, expected: Int?)
  /// The body is larger than `limit` bytes, the most the client accepts; it was not read on.
  case bodyTooLarge(limit: Int)
  /// The server said the body is `contentType`, which is not JSON; it was not read.
  case notJSON(contentType: String)
  /// The server answered HTTP 429 (too many requests), asking to wait `retryAfter` before
  /// asking again (its `Retry-After` header, in seconds or as a date), if it said.
  case tooManyRequests(retryAfter: Duration?)

  /// A one-line account, for people.
  public var description: String {
    switch self {
    case .transport(let message): "cannot reach the server: \(message)"
    case .httpStatus(let status): "the server answered HTTP \(status)"
    case .malformedBody(let message): "the server sent a malformed page: \(message)"
    case .malformedReply(let message): "the server sent a malformed reply: \(message)"
    case .timeout: "the server did not answer in time"
    case .truncatedBody(let received, let expected?):
      "the reply was cut short: the connection closed after \(received) of the \(expected) "
        + "bytes announced"
    case .truncatedBody(let received, nil):
      "the reply was cut short: the connection closed after \(received) bytes, before the end "
        + "of the body"
    case .bodyTooLarge(let limit):
      "the reply is larger than \(limit) bytes, the most a page may have"
    case .notJSON(let contentType):
      "the server sent \(contentType.isEmpty ? "an empty content type" : contentType), not JSON"
    case .tooManyRequests(let wait?):
      "the server answered HTTP 429 (too many requests), asking to wait \(Self.seconds(wait))"
    case .tooManyRequests(nil): "the server answered HTTP 429 (too many requests)"
    }
  }

  /// A wait, for people: `2 s`, `0.5 s`.
  ///
  /// Any duration prints, even one no `Retry-After` can ask for.
  public static func seconds(_ duration: Duration) -> String {
    // `Duration.components` traps when the seconds do not fit 64 bits; the attoseconds do not.
    let (seconds, attoseconds) = duration.attoseconds.quotientAndRemainder(
      dividingBy: 1_000_000_000_000_000_000
    )
    if attoseconds == 0 { return "\(seconds) s" }
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return "\((value * 1000).rounded() / 1000) s"
  }
}

extension MoviesError {
  /// Decodes a failure as it was encoded (a recording's), refusing a number no client could
  /// have seen: a status of more than three digits, a negative byte count, a wait below zero or
  /// longer than the longest `Retry-After` (``RetryAfter``: a billion billion seconds).
  public init(from decoder: any Decoder) throws {
    let error = try Coded(from: decoder).error
    switch error {
    case .httpStatus(let status) where !(0...999).contains(status):
      throw Self.outOfRange(decoder, "an HTTP status has three digits, not \(status)")
    case .truncatedBody(let received, let expected)
    where received < 0 || (expected ?? 0) < 0:
      throw Self.outOfRange(decoder, "a byte count is not negative")
    case .bodyTooLarge(let limit) where limit < 0:
      throw Self.outOfRange(decoder, "a byte limit is not negative")
    case .tooManyRequests(let wait?) where wait < .zero || wait > .seconds(RetryAfter.longest):
      throw Self.outOfRange(decoder, "a Retry-After wait is 0 to \(RetryAfter.longest) s")
    default: self = error
    }
  }

  private static func outOfRange(_ decoder: any Decoder, _ message: String) -> DecodingError {
    .dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: message))
  }

  /// The failure's cases with Swift's synthesized decoding, which ``init(from:)`` checks.
  ///
  /// The failure's own `encode(to:)` is the synthesized one, in the same format.
  private enum Coded: Decodable {
    case transport(String)
    case httpStatus(Int)
    case malformedBody(String)
    case malformedReply(String)
    case timeout
    case truncatedBody(received: Int, expected: Int?)
    case bodyTooLarge(limit: Int)
    case notJSON(contentType: String)
    case tooManyRequests(retryAfter: Duration?)

    var error: MoviesError {
      switch self {
      case .transport(let message): .transport(message)
      case .httpStatus(let status): .httpStatus(status)
      case .malformedBody(let message): .malformedBody(message)
      case .malformedReply(let message): .malformedReply(message)
      case .timeout: .timeout
      case .truncatedBody(let received, let expected):
        .truncatedBody(received: received, expected: expected)
      case .bodyTooLarge(let limit): .bodyTooLarge(limit: limit)
      case .notJSON(let contentType): .notJSON(contentType: contentType)
      case .tooManyRequests(let wait): .tooManyRequests(retryAfter: wait)
      }
    }
  }
}
