extension Observable {
  /// A stream that owns a resource for the length of each subscription.
  ///
  /// Each subscription calls `resourceFactory`, builds the stream with `observableFactory` from
  /// the resource and subscribes to it; when the subscription ends — completion, failure or
  /// disposal — it is disposed of, then the resource. A failure thrown by either factory fails
  /// the stream at once (and disposes of the resource, if it was made). This is RxSwift's
  /// `using(_:observableFactory:)` and passes its test cases; the factories throw the stream's
  /// typed `Failure`. Spell the stream's type, as below: Swift 6.3 does not infer `Failure` from
  /// the context through closures that throw it.
  ///
  /// ```swift
  /// let lines = Observable<String, FileError>.using {
  ///   try LineReader(path: path)
  /// } observableFactory: { reader in
  ///   reader.lines
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - resourceFactory: Makes the resource for one subscription.
  ///   - observableFactory: Builds the stream that uses the resource.
  /// - Returns: A stream that holds its resource while subscribed.
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping @Sendable () throws(Failure) -> Resource,
    observableFactory: @escaping @Sendable (Resource) throws(Failure) -> Observable
  ) -> Observable {
    Observable(unchecked: { observer in
      let sink = Sink<Element, Failure>(downstream: observer)
      let resource: Resource
      let source: Observable
      do throws(Failure) {
        resource = try resourceFactory()
      } catch {
        sink.forwardTerminal(.error(error))
        return sink
      }
      let subscription = SingleAssignmentDisposable()
      // The stream goes before the resource it uses.
      sink.upstream.insert(
        Disposables.create {
          subscription.dispose()
          resource.dispose()
        }
      )
      do throws(Failure) {
        source = try observableFactory(resource)
      } catch {
        sink.forwardTerminal(.error(error))
        return sink
      }
      subscription.setDisposable(source.subscribe(sink.observer { sink.forward($0) }))
      return sink
    })
  }
}
