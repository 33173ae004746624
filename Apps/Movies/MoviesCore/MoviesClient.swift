public import CascadeStreams
public import Foundation

/// The HTTP client of a movie catalog in the shape of TMDB's discover endpoint.
///
/// It requests `GET <baseURL>/discover/movie?page=N`, decodes the page, and turns what can go
/// wrong into a typed ``MoviesError``: ``MoviesError/transport(_:)`` when no HTTP answer came,
/// ``MoviesError/httpStatus(_:)`` for a non-2xx status (``MoviesError/tooManyRequests(retryAfter:)``
/// for 429, with its `Retry-After`), ``MoviesError/notJSON(contentType:)`` for a content type
/// that is not JSON, ``MoviesError/bodyTooLarge(limit:)`` for a body over ``maxBodyBytes``,
/// ``MoviesError/truncatedBody(received:expected:)`` for a body cut short,
/// ``MoviesError/malformedBody(_:)`` for a body that is not the page asked for (or has a number
/// out of range), ``MoviesError/malformedReply(_:)`` for an answer that is not valid HTTP or a
/// redirect loop, and
/// ``MoviesError/timeout`` when nothing came within ``timeout``.
///
/// The HTTP client under it is AsyncHTTPClient on Linux and `URLSession` elsewhere
/// (``Transport``).
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
  /// The most bytes a page's body may have; a larger one fails with
  /// ``MoviesError/bodyTooLarge(limit:)`` without being read on.
  public let maxBodyBytes: Int
  /// The HTTP client the requests go through.
  public let transport: Transport
  /// The clock of the timeouts, when not the transport's own.
  private let timers: (any Scheduler)?
  private let exchange: any PageTransport

  /// The default of ``maxBodyBytes``: 10 MiB (a page of TMDB's is about 10 KiB).
  public static let defaultMaxBodyBytes = 10 * 1024 * 1024

  /// The HTTP client under a ``MoviesClient``.
  public enum Transport: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Foundation's `URLSession`: the default on Apple platforms.
    case urlSession = "urlsession"
    #if canImport(AsyncHTTPClient)
    /// swift-server's AsyncHTTPClient, on SwiftNIO: the default on Linux.
    case asyncHTTPClient = "async-http-client"
    #endif

    /// The platform's default: AsyncHTTPClient on Linux, `URLSession` elsewhere.
    public static var platformDefault: Transport {
      #if canImport(AsyncHTTPClient)
      .asyncHTTPClient
      #else
      .urlSession
      #endif
    }

    /// The name, as `--transport` takes it.
    public var description: String { rawValue }
  }

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
  ///   - maxBodyBytes: The most bytes a page's body may have (at least 1).
  ///   - transport: The HTTP client: the platform's default unless a test or a benchmark
  ///     compares them.
  ///   - timers: The clock of the timeouts: by default the transport's own deadline
  ///     (AsyncHTTPClient's, on its event loop), or a real-time scheduler for `URLSession`; a
  ///     virtual-time scheduler lets a test decide when a page runs out of time.
  /// - Throws: ``InvalidURL`` if `baseURL` is not an http(s) URL with a host.
  public init(
    baseURL: String,
    apiKey: String? = nil,
    bearerToken: String? = nil,
    timeout: Duration = .seconds(10),
    maxBodyBytes: Int = MoviesClient.defaultMaxBodyBytes,
    transport: Transport = .platformDefault,
    timers: (any Scheduler)? = nil
  ) throws(InvalidURL) {
    guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
    else { throw InvalidURL(url: baseURL) }
    self.baseURL = url
    self.apiKey = apiKey
    self.bearerToken = bearerToken
    self.timeout = timeout
    self.maxBodyBytes = max(1, maxBodyBytes)
    self.transport = transport
    self.timers = timers
    switch transport {
    case .urlSession: exchange = URLSessionTransport(backstop: Self.backstop(timeout))
    #if canImport(AsyncHTTPClient)
    case .asyncHTTPClient: exchange = AsyncHTTPClientTransport()
    #endif
    }
  }

  /// The transport's own limit: a backstop only, since the client's own timer (on `timers`,
  /// which may be virtual) fails the page first; `nil` (none) for a timeout of years.
  static func backstop(_ timeout: Duration) -> Duration? {
    timeout < .seconds(1_000_000_000) ? timeout + .seconds(60) : nil
  }

  /// Whether the transport's deadline is the page's timeout.
  ///
  /// It is with AsyncHTTPClient and no scheduler given. A timer on a dispatch queue for each page cost about 80 µs of the 0.6 ms a
  /// page takes on loopback; the event loop's deadline costs nothing.
  private var transportTimesOut: Bool {
    #if canImport(AsyncHTTPClient)
    timers == nil && transport == .asyncHTTPClient
    #else
    false
    #endif
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
    var headers = ["Accept": "application/json"]
    if let bearerToken { headers["Authorization"] = "Bearer \(bearerToken)" }
    let fetch = PageFetch(
      url: url(ofPage: number),
      headers: headers,
      maxBodyBytes: maxBodyBytes,
      backstop: transportTimesOut
        ? (timeout < .seconds(1_000_000_000) ? timeout : nil) : Self.backstop(timeout)
    )
    let exchange = exchange
    let call = Observable<MoviePage, MoviesError>.create { observer in
      let cancel = exchange.start(fetch, check: { Self.check($0, now: Date()) }) { body in
        switch body.flatMap({ Self.decode(page: number, body: $0) }) {
        case .success(let page):
          observer.onNext(page)
          observer.onCompleted()
        case .failure(let failure):
          observer.onError(failure)
        }
      }
      return Disposables.create { cancel() }
    }
    if transportTimesOut { return call }
    let scheduler: any Scheduler = timers ?? ConcurrentDispatchQueueScheduler()
    // Disposing of the request on timeout cancels the task.
    return call.timeout(timeout, scheduler: scheduler, error: MoviesError.timeout)
  }

  /// The failure an answer's head already shows, if any: a status other than 2xx (429 with the
  /// wait its `Retry-After` asks, counted from `now`), or a content type that is not JSON.
  ///
  /// A missing content type is let through: the body decides.
  static func check(_ head: ReplyHead, now: Date) -> MoviesError? {
    if head.status == 429 {
      return .tooManyRequests(
        retryAfter: head.retryAfter.flatMap { RetryAfter.parse($0, now: now) }
      )
    }
    guard (200..<300).contains(head.status) else { return .httpStatus(head.status) }
    if let type = head.contentType, !isJSON(type) { return .notJSON(contentType: type) }
    return nil
  }

  /// Whether `contentType` is JSON: `application/json`, `text/json` or a `+json` type, with any
  /// parameters.
  static func isJSON(_ contentType: String) -> Bool {
    let type =
      contentType.split(separator: ";", maxSplits: 1).first
      .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    return type == "application/json" || type == "text/json"
      || (type.hasPrefix("application/") && type.hasSuffix("+json"))
  }

  /// The largest `total_pages`, `total_results` and film id a page may name: TMDB's numbers are
  /// 32-bit; a larger one is a malformed page, not a listing to page through.
  public static let largestNumber = Int(Int32.max)

  /// Decodes the body of page `number`, and checks every number in it.
  ///
  /// A malformed page: `total_pages` or `total_results` negative or over ``largestNumber``, a
  /// page past `total_pages`, an empty page before the last one, a film id out of
  /// `0...largestNumber`, a `vote_average` outside 0…10.
  ///
  /// Public as the one seam to the client's reader of a server's bytes (Tooling/Fuzz fuzzes it);
  /// ``page(_:)`` calls it on every body it receives.
  ///
  /// - Parameters:
  ///   - number: The page asked for: the body must be that page.
  ///   - body: The body, as received.
  /// - Returns: The page, or ``MoviesError/malformedBody(_:)`` saying what is wrong with it.
  public static func decode(page number: Int, body: Data) -> Result<MoviePage, MoviesError> {
    let page: MoviePage
    do {
      page = try JSONDecoder().decode(MoviePage.self, from: body)
    } catch {
      return .failure(.malformedBody(Self.describe(decoding: error)))
    }
    guard page.page == number else {
      return .failure(.malformedBody("asked for page \(number), got page \(page.page)"))
    }
    if let problem = problem(in: page) { return .failure(.malformedBody(problem)) }
    return .success(page)
  }

  /// What is out of range in `page`, if anything.
  static func problem(in page: MoviePage) -> String? {
    let range = 0...largestNumber
    guard range.contains(page.totalPages) else {
      return "'total_pages' is \(page.totalPages), not between 0 and \(largestNumber)"
    }
    guard range.contains(page.totalResults) else {
      return "'total_results' is \(page.totalResults), not between 0 and \(largestNumber)"
    }
    guard page.page <= max(page.totalPages, 1) else {
      return "page \(page.page) is past 'total_pages' (\(page.totalPages))"
    }
    if page.results.isEmpty && page.page < page.totalPages {
      return
        "page \(page.page) of \(page.totalPages) has no films (only the last page may be empty)"
    }
    for (index, movie) in page.results.enumerated() {
      guard range.contains(movie.id) else {
        return "'results[\(index)].id' is \(movie.id), not between 0 and \(largestNumber)"
      }
      guard (0...10).contains(movie.voteAverage) else {
        return "'results[\(index)].vote_average' is \(movie.voteAverage), not between 0 and 10"
      }
    }
    return nil
  }

  /// A decoding error, in a few words: what is missing or of the wrong type, and where
  /// (`results[3].id`).
  static func describe(decoding error: any Error) -> String {
    switch error as? DecodingError {
    case .dataCorrupted(let context):
      // Well-formed JSON with a value that does not fit (`1.5` or `1e30` as an id) is reported
      // with its place; only a body that is not JSON at all has no place.
      context.codingPath.isEmpty ? "not JSON" : "wrong type at '\(path(context.codingPath))'"
    case .keyNotFound(let key, let context):
      "missing '\(path(context.codingPath + [key]))'"
    case .typeMismatch(_, let context), .valueNotFound(_, let context):
      context.codingPath.isEmpty
        ? "wrong type at the top level" : "wrong type at '\(path(context.codingPath))'"
    default: String(describing: error)
    }
  }

  /// A coding path as a JSON path: `results[3].id`.
  static func path(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : "." + key.stringValue
      }
    }
    return text
  }
}
