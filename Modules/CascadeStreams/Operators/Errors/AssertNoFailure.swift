extension ObservableType {
  /// The same stream, typed as one that cannot fail; a failure stops the program.
  ///
  /// Use it where a failure would be a programming error, to hand the stream to code that takes
  /// an ``Infallible``. To recover from a failure instead, use ``catchAndReturn(_:)`` or
  /// `catch(_:)`.
  ///
  /// - Parameters:
  ///   - prefix: A string to put at the start of the crash message.
  ///   - file: The file reported in the crash message.
  ///   - line: The line reported in the crash message.
  /// - Returns: The same stream, typed as one that cannot fail.
  public func assertNoFailure(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> Observable<Element, Never> {
    Observable(unchecked: { observer in
      self.subscribe(
        AnyObserver(
          { (event: StreamEvent<Element, Failure>) in
            switch event {
            case .next(let element): observer.on(.next(element))
            case .completed: observer.on(.completed)
            case .error(let failure):
              fatalError("\(prefix)Unexpected failure: \(failure)", file: file, line: line)
            }
          },
          lifetime: observer.lifetime
        )
      )
    })
  }
}
