extension Observable {
  /// A stream produced by an `async` function that sends values to an observer.
  ///
  /// Each subscription starts a task that runs `body` with an observer. The task begins at once,
  /// on the subscribing thread, and runs there until its first suspension (`Task.immediate`), so
  /// streams subscribed one after another begin in that order, however busy the cooperative pool
  /// is; what `body` does after its first `await` runs concurrently. `body` may send any
  /// number of values, from any task, and the observer serializes them (sends never overlap
  /// downstream, and events after a terminal event are dropped). When `body` returns, the stream
  /// completes; when it throws, the stream fails with the error; if `body` already sent a terminal
  /// event, the return or throw adds nothing.
  ///
  /// Disposing the subscription cancels the task: `body` sees `Task.isCancelled`, its
  /// cancellation handlers run, and `Task.sleep` and other cancellation-aware calls throw
  /// `CancellationError`. Cancellation is not an error: once disposed, the stream delivers
  /// nothing more, neither values nor a failure, whatever `body` does. The task counts in
  /// ``Resources/total`` until `body` returns.
  ///
  /// Streams are the core of Cascade because their delivery can be synchronous; this bridge is
  /// for producers that are naturally `async` (network pages, file reads, timers on a clock).
  ///
  /// ```swift
  /// let progress = Observable<Double, any Error>.run { observer in
  ///   for try await chunk in download.chunks {
  ///     observer.onNext(chunk.fractionCompleted)
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` for the default.
  ///   - body: Produces the stream's values for one subscriber. Returning completes the stream;
  ///     throwing fails it.
  /// - Returns: A stream that runs `body` in a new task for each subscriber.
  public static func run(
    priority: TaskPriority? = nil,
    _ body: @escaping @Sendable (AnyObserver<Element, Failure>) async throws(Failure) -> Void
  ) -> Observable {
    makeTask(priority: priority) { observer in
      do throws(Failure) {
        try await body(observer)
        observer.onCompleted()
      } catch {
        guard !Task.isCancelled else { return }
        observer.onError(error)
      }
    }
  }

  /// A stream that runs `body` in a new task for each subscriber.
  ///
  /// Disposal cancels the task. The observer `body` gets is that of ``create(_:)``: it serializes
  /// sends and drops events after a terminal event or disposal. The task counts in
  /// ``Resources/total`` until `body` returns.
  static func makeTask(
    priority: TaskPriority?,
    _ body: @escaping @Sendable (AnyObserver<Element, Failure>) async -> Void
  ) -> Observable {
    create { observer in
      let resource = Resources.increment()
      // The task begins at once, on the subscribing thread, until its first suspension: streams
      // subscribed one after another begin in that order.
      // In a loop of one iteration, so that `Task.immediate` is inlined and its `nil` executor
      // preference folded away: otherwise the task gets an executor preference record, about
      // 900 instructions (see `StoreEngine.startCommand`).
      var immediate: Task<Void, Never>?
      for _ in 0..<1 {
        immediate = Task.immediate(priority: priority) {
          await body(observer)
          Resources.decrement(resource)
        }
      }
      // The loop ran once.
      let task = immediate!
      return Disposables.create { task.cancel() }
    }
  }
}
