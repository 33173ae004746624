/// What the user of the movie list may ask for.
public enum MoviesIntent: Sendable, Equatable, CaseIterable, Codable {
  /// Loads the next page (the list scrolled near its end). Ignored while a page loads and
  /// after the last page.
  case loadNextPage
  /// Starts over from page 1, cancelling the page in flight. Ignored while refreshing.
  case refresh
  /// Loads the page that failed again. Ignored unless a page failed.
  case retry
}
