extension Observable {
  /// A stream that runs an `async` operation and emits its result, then completes.
  ///
  /// Each subscription starts a `Task` running `operation`. A returned value is emitted and
  /// followed by completion; a thrown error fails the stream with it (typed throws: for
  /// `Failure == Never` the operation cannot throw).
  ///
  /// Disposing the subscription cancels the task, and cancellation is not an error: the stream
  /// then emits nothing, neither the result nor the `CancellationError` a cancelled operation may
  /// throw. The task counts in ``Resources/total`` until `operation` returns.
  ///
  /// ```swift
  /// let user = Observable<User, any Error>.task {
  ///   try await api.user(id: 42)
  /// }
  /// user.subscribe(onNext: { show($0) }, onError: { show($0) })
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` for the default.
  ///   - operation: Computes the stream's one value.
  /// - Returns: A stream of `operation`'s result.
  public static func task(
    priority: TaskPriority? = nil,
    _ operation: @escaping @Sendable () async throws(Failure) -> Element
  ) -> Observable {
    makeTask(priority: priority) { observer in
      do throws(Failure) {
        let element = try await operation()
        observer.onNext(element)
        observer.onCompleted()
      } catch {
        guard !Task.isCancelled else { return }
        observer.onError(error)
      }
    }
  }

  /// Creates a stream that runs an `async` operation and emits its result, then completes.
  ///
  /// The same stream as ``task(priority:_:)``, spelled as an initializer.
  ///
  /// ```swift
  /// let answer = Observable { () async -> Int in 42 }
  /// ```
  ///
  /// - Parameters:
  ///   - priority: The priority of the task; `nil` for the default.
  ///   - operation: Computes the stream's one value.
  public init(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable () async throws(Failure) -> Element
  ) {
    self = Observable.task(priority: priority, operation)
  }
}
