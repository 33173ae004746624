public import CascadeStore

/// The seed's middleware: it announces every level-up.
///
/// It only watches: a middleware never changes the state.
public struct LoggingMiddleware: Middleware {
  /// Where the announcement goes.
  let print: @Sendable (String) -> Void

  /// Creates the middleware, printing through `print`.
  public init(print: @escaping @Sendable (String) -> Void) {
    self.print = print
  }

  /// Prints "Leveled Up!" for a ``LevelUp``.
  public func process(event: any Event, state: GameState) {
    switch event {
    case _ as LevelUp:
      print("Leveled Up!")
    default:
      break
    }
  }
}
