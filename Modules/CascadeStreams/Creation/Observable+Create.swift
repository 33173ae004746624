extension Observable {
  /// Creates a stream from a producer closure, run once per subscriber.
  ///
  /// The observer handed to `subscribe` enforces the stream grammar: events after a terminal
  /// event or after disposal are dropped, and concurrent or reentrant calls are serialized
  /// (queued, then delivered in order by the thread already delivering). The returned disposable
  /// is the producer's teardown; it runs exactly once, on disposal or after a terminal event.
  ///
  /// ```swift
  /// let ticks = Observable<Int, Never>.create { observer in
  ///   observer.onNext(1)
  ///   observer.onNext(2)
  ///   observer.onCompleted()
  ///   return Disposables.create { print("torn down") }
  /// }
  /// ```
  ///
  /// - Parameter subscribe: Starts producing for one observer and returns its teardown.
  /// - Returns: A stream that runs `subscribe` for each subscriber.
  public static func create(
    _ subscribe: @escaping @Sendable (AnyObserver<Element, Failure>) -> any Disposable
  ) -> Observable {
    Observable(unchecked: { observer in
      ProducerSink(downstream: observer).run(subscribe)
    })
  }

  /// A stream that emits `element` and completes.
  public static func just(_ element: Element) -> Observable {
    makeJust(element)
  }

  /// A stream that completes at once.
  public static func empty() -> Observable {
    Observable(SynchronousElements.empty)
  }

  /// A stream that never emits and never terminates.
  public static func never() -> Observable {
    Observable(unchecked: { _ in Disposables.empty })
  }

  /// A stream that fails at once with `failure`.
  public static func error(_ failure: Failure) -> Observable {
    Observable(unchecked: { observer in
      observer.on(.error(failure))
      return Disposables.empty
    })
  }

  /// A stream that emits each element of `sequence` in order, then completes.
  ///
  /// Emission is synchronous, on the subscribing thread; disposing (for instance from inside
  /// the observer) stops it before the next element.
  @inlinable
  public static func from<S: Sequence & Sendable>(_ sequence: S) -> Observable
  where S.Element == Element {
    makeFrom(sequence)
  }

  @inlinable
  static func makeFrom<S: Sequence & Sendable>(_ sequence: S) -> Observable
  where S.Element == Element {
    // An array's elements are known now (and cannot change): a stream of plain values.
    if let array = sequence as? [Element] { return Observable(SynchronousElements(array)) }
    return Observable(unchecked: { observer in
      SynchronousElements.emit(sequence, to: observer)
    })
  }

  @usableFromInline
  static func makeJust(_ element: Element) -> Observable {
    Observable(SynchronousElements.one(SynchronousElement(element)))
  }

  /// A stream that emits `elements` in order, then completes.
  public static func of(_ elements: Element...) -> Observable {
    from(elements)
  }

  /// A stream built anew by `factory` for each subscriber.
  public static func deferred(_ factory: @escaping @Sendable () -> Observable) -> Observable {
    Observable(unchecked: { observer in factory().subscribe(observer) })
  }
}

// Streams built from plain values cannot fail: these overloads let `Observable.just(1)` and
// `Observable.from([1, 2])` infer `Failure == Never` when nothing else names the failure type.
extension Observable where Failure == Never {
  /// A stream that emits `element` and completes; it cannot fail.
  public static func just(_ element: Element) -> Observable {
    makeJust(element)
  }

  /// A stream that emits each element of `sequence` in order, then completes; it cannot fail.
  @inlinable
  public static func from<S: Sequence & Sendable>(_ sequence: S) -> Observable
  where S.Element == Element {
    makeFrom(sequence)
  }

  /// A stream that emits `elements` in order, then completes; it cannot fail.
  public static func of(_ elements: Element...) -> Observable {
    from(elements)
  }
}
