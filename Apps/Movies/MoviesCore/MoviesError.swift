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
  public static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if attoseconds == 0 { return "\(seconds) s" }
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return "\((value * 1000).rounded() / 1000) s"
  }
}
