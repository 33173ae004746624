extension Observable {
  /// Emits the values of each of `sources` in turn, subscribing to the next one only when the
  /// previous one has completed.
  ///
  /// Fails as soon as the current source fails; completes after the last source completes (at
  /// once if there are none). Synchronous sources do not grow the stack, however many there are.
  ///
  /// ```swift
  /// Observable.concat([cache.load(), api.load()])  // cached values first, then fresh ones
  /// ```
  ///
  /// - Parameter sources: The streams to play one after another.
  /// - Returns: A stream of the sources' values, one source after another.
  public static func concat(_ sources: [Observable]) -> Observable {
    // Streams of plain values make one: their elements, one list after another.
    var elements: [Element] = []
    for source in sources {
      guard let known = source.synchronousElements else {
        return Observable<Observable, Failure>.from(sources).concatMap { $0 }
      }
      known.append(to: &elements)
    }
    return Observable(SynchronousElements(elements))
  }

  /// Emits the values of each of `sources` in turn.
  ///
  /// See `concat(_:)`.
  ///
  /// - Parameter sources: The streams to play one after another.
  /// - Returns: A stream of the sources' values, one source after another.
  public static func concat(_ sources: Observable...) -> Observable {
    concat(sources)
  }
}

extension ObservableType {
  /// Emits this stream's values, then, once it completes, those of `other`.
  ///
  /// ```swift
  /// Observable.of(1, 2).concat(with: Observable.of(3))  // 1, 2, 3
  /// ```
  ///
  /// - Parameter other: The stream subscribed after this one completes.
  /// - Returns: A stream of this stream's values followed by those of `other`.
  public func concat<Other: ObservableType>(with other: Other) -> Observable<Element, Failure>
  where Other.Element == Element, Other.Failure == Failure {
    Observable.concat([asObservable(), other.asObservable()])
  }
}
