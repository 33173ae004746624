/// Why a page could not be loaded: the typed failures the paging state shows.
public enum MoviesError: Error, Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
  /// The request never got an HTTP answer: the server is unreachable, the connection broke.
  case transport(String)
  /// The server answered with a status other than 2xx.
  case httpStatus(Int)
  /// The body is not a page of the discover endpoint.
  case malformedBody(String)
  /// No answer within the client's timeout.
  case timeout

  /// A one-line account, for people.
  public var description: String {
    switch self {
    case .transport(let message): "cannot reach the server: \(message)"
    case .httpStatus(let status): "the server answered HTTP \(status)"
    case .malformedBody(let message): "the server sent a malformed page: \(message)"
    case .timeout: "the server did not answer in time"
    }
  }
}
