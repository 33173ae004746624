import CascadeStreams

/// Sends events from an `async` feedback effect.
public struct FeedbackSender<Event: Sendable>: Sendable {
  let body: @Sendable (Event) -> Void

  /// Sends `event` to the loop.
  public func callAsFunction(_ event: Event) {
    body(event)
  }
}

extension Feedback {
  /// A query feedback whose effect is `async`: when the query changes, the previous effect's task
  /// is cancelled and a new one starts; `nil` means no effect.
  ///
  /// A thrown error (other than cancellation) is reported through the loop's diagnostics, and the
  /// loop goes on.
  ///
  /// ```swift
  /// Feedback(skippingRepeated: { $0.nextPage }) { page, send in
  ///   send(.response(try await client.page(page)))
  /// }
  /// ```
  public init<Query: Equatable & Sendable>(
    skippingRepeated query: @escaping @Sendable (State) -> Query?,
    effect: @escaping @Sendable (Query, FeedbackSender<Event>) async throws -> Void
  ) {
    self.init(start: { context in
      Feedback(
        skippingRepeated: query,
        effects: { query in Self.task(context) { send in try await effect(query, send) } }
      ).start(context)
    })
  }

  /// A predicate feedback whose effect is `async`: it runs while the predicate holds and is
  /// cancelled when it stops holding.
  public init(
    predicate: @escaping @Sendable (State) -> Bool,
    effect: @escaping @Sendable (State, FeedbackSender<Event>) async throws -> Void
  ) {
    self.init(start: { context in
      Feedback(
        predicate: predicate,
        effects: { state in Self.task(context) { send in try await effect(state, send) } }
      ).start(context)
    })
  }

  /// An effect stream that runs `body` in a task; disposing it cancels the task.
  ///
  /// Errors other than cancellation are reported through `context`.
  static func task(
    _ context: FeedbackContext<State, Event>,
    _ body: @escaping @Sendable (FeedbackSender<Event>) async throws -> Void
  ) -> Observable<Event, Never> {
    Observable<Event, Never>.run { observer in
      do {
        try await body(FeedbackSender { observer.onNext($0) })
      } catch is CancellationError {
        // Cancellation is not failure.
      } catch {
        if !Task.isCancelled { context.report(error) }
      }
    }
  }
}
