public import CascadeStreams
public import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP client of a movie catalog in the shape of TMDB's discover endpoint.
///
/// It requests `GET <baseURL>/discover/movie?page=N`, decodes the page, and turns what can go
/// wrong into a typed ``MoviesError``: ``MoviesError/transport(_:)`` when no HTTP answer came,
/// ``MoviesError/httpStatus(_:)`` for a non-2xx status, ``MoviesError/malformedBody(_:)`` for a
/// body that is not the page asked for, ``MoviesError/timeout`` when nothing came within
/// ``timeout``.
///
/// Against the project's catalog server:
///
/// ```swift
/// let client = try MoviesClient(baseURL: "http://127.0.0.1:8080")
/// ```
///
/// Against the real TMDB API (v3), with an API key from https://www.themoviedb.org/settings/api
/// (sent as the `api_key` query parameter; a v4 read access token goes in `bearerToken`):
///
/// ```swift
/// let tmdb = try MoviesClient(baseURL: "https://api.themoviedb.org/3", apiKey: "<your key>")
/// ```
public struct MoviesClient: MoviePageSource {
  /// The base URL; `discover/movie` is appended to its path.
  public let baseURL: URL
  /// TMDB's v3 API key, sent as `api_key`, if any.
  public let apiKey: String?
  /// TMDB's v4 read access token, sent as `Authorization: Bearer …`, if any.
  public let bearerToken: String?
  /// How long a page may take before it fails with ``MoviesError/timeout``.
  public let timeout: Duration
  /// The clock of the timeouts.
  private let timers: any Scheduler
  private let session: URLSession

  /// Why a base URL was refused.
  public struct InvalidURL: Error, Sendable, CustomStringConvertible {
    /// The URL given.
    public var url: String
    /// What is wrong with it.
    public var description: String {
      "invalid API URL '\(url)': expected http://host[:port][/path] or https://…"
    }
  }

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - baseURL: `http` or `https`, with a host: `http://127.0.0.1:8080`,
  ///     `https://api.themoviedb.org/3`.
  ///   - apiKey: TMDB's v3 API key, if the server wants one.
  ///   - bearerToken: TMDB's v4 read access token, if the server wants one.
  ///   - timeout: How long a page may take.
  ///   - timers: The clock of the timeouts: real time by default; a virtual-time scheduler lets
  ///     a test decide when a page runs out of time.
  /// - Throws: ``InvalidURL`` if `baseURL` is not an http(s) URL with a host.
  public init(
    baseURL: String,
    apiKey: String? = nil,
    bearerToken: String? = nil,
    timeout: Duration = .seconds(10),
    timers: any Scheduler = ConcurrentDispatchQueueScheduler()
  ) throws(InvalidURL) {
    guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else { throw InvalidURL(url: baseURL) }
    self.baseURL = url
    self.apiKey = apiKey
    self.bearerToken = bearerToken
    self.timeout = timeout
    self.timers = timers
    let configuration = URLSessionConfiguration.ephemeral
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    // A backstop only: the client's own timer (on `timers`, which may be virtual) fails the page
    // first, so the session's own limit is far behind it.
    configuration.timeoutIntervalForRequest = seconds + 60
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    session = URLSession(configuration: configuration)
  }

  /// The URL of page `number`.
  public func url(ofPage number: Int) -> URL {
    var components = URLComponents(
      url: baseURL.appendingPathComponent("discover").appendingPathComponent("movie"),
      resolvingAgainstBaseURL: false
    )
    var items = components?.queryItems ?? []
    items.append(URLQueryItem(name: "page", value: String(number)))
    if let apiKey { items.append(URLQueryItem(name: "api_key", value: apiKey)) }
    components?.queryItems = items
    return components?.url ?? baseURL
  }

  /// Page `number`: a stream that emits it and completes, or fails with a ``MoviesError``.
  ///
  /// The request starts on subscription; disposing of the subscription cancels it.
  public func page(_ number: Int) -> Observable<MoviePage, MoviesError> {
    let session = session
    var request = URLRequest(url: url(ofPage: number))
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let bearerToken {
      request.setValue("Bearer \(bearerToken)", forHTTPHeaderField: "Authorization")
    }
    let urlRequest = request
    let call = Observable<MoviePage, MoviesError>.create { observer in
      let task = session.dataTask(with: urlRequest) { data, response, error in
        switch Self.decode(page: number, data: data, response: response, error: error) {
        case .success(let page):
          observer.onNext(page)
          observer.onCompleted()
        case .failure(let failure):
          observer.onError(failure)
        }
      }
      task.resume()
      return Disposables.create { task.cancel() }
    }
    // Disposing of the request on timeout cancels the task.
    return call.timeout(timeout, scheduler: timers, error: MoviesError.timeout)
  }

  /// Turns what the session gave into a page or a typed failure.
  static func decode(
    page number: Int,
    data: Data?,
    response: URLResponse?,
    error: (any Error)?
  ) -> Result<MoviePage, MoviesError> {
    if let error {
      if let urlError = error as? URLError, urlError.code == .timedOut { return .failure(.timeout) }
      return .failure(.transport(Self.describe(error)))
    }
    guard let http = response as? HTTPURLResponse else {
      return .failure(.transport("no HTTP response"))
    }
    guard (200..<300).contains(http.statusCode) else {
      return .failure(.httpStatus(http.statusCode))
    }
    let page: MoviePage
    do {
      page = try JSONDecoder().decode(MoviePage.self, from: data ?? Data())
    } catch {
      return .failure(.malformedBody(Self.describe(decoding: error)))
    }
    guard page.page == number else {
      return .failure(.malformedBody("asked for page \(number), got page \(page.page)"))
    }
    return .success(page)
  }

  private static func describe(_ error: any Error) -> String {
    guard let urlError = error as? URLError else { return String(describing: error) }
    switch urlError.code {
    case .cannotConnectToHost: return "connection refused"
    case .cannotFindHost: return "unknown host"
    case .networkConnectionLost: return "connection lost"
    case .notConnectedToInternet: return "not connected to the network"
    default: return "URL error \(urlError.code.rawValue)"
    }
  }

  private static func describe(decoding error: any Error) -> String {
    switch error as? DecodingError {
    case .dataCorrupted: "not JSON"
    case .keyNotFound(let key, _): "missing '\(key.stringValue)'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      context.codingPath.isEmpty
        ? "wrong type at the top level"
        : "wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'"
    default: String(describing: error)
    }
  }
}
