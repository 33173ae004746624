public import CascadeStreams

/// Where pages of films come from: the HTTP client, or a fake in tests.
///
/// A page is a stream that emits the page and completes, or fails; disposing of it cancels the
/// request. Nothing starts before it is subscribed to.
public protocol MoviePageSource: Sendable {
  /// The page `number` (from 1) of the listing.
  func page(_ number: Int) -> Observable<MoviePage, MoviesError>
}
