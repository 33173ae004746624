extension ObservableType {
  /// Transforms each value with `transform`.
  ///
  /// ```swift
  /// Observable.from([1, 2, 3]).map { $0 * 10 }  // 10, 20, 30
  /// ```
  @inlinable
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> Streams.Map<Self, Output> {
    Streams.Map(upstream: self, transform: transform)
  }

  /// Transforms each value with `transform`, as a type-erased ``Observable``.
  ///
  /// The compiler picks this form only where an ``Observable`` is expected and the concrete
  /// `Streams.Map` of the other `map` would not do: a `map` returned from a function declared
  /// `-> Observable<…>`, or passed as an `Observable` argument, as RxSwift's and ReactiveSwift's
  /// `map` (which return their erased stream) are written:
  ///
  /// ```swift
  /// func mutate(action: Action) -> Observable<Mutation, Never> {
  ///   userService.follow().map { Mutation.setFollowing(true) }
  /// }
  /// ```
  ///
  /// Everywhere else ``ObservableType/map(_:)->Streams.Map<Self,Output>`` is chosen, and chains keep
  /// their specialized type.
  @_disfavoredOverload
  @inlinable
  public func map<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output
  ) -> Observable<Output, Failure> {
    Streams.Map(upstream: self, transform: transform).asObservable()
  }

  /// Transforms each value with `transform`, dropping those it maps to `nil`.
  @inlinable
  public func compactMap<Output: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Output?
  ) -> Streams.CompactMap<Self, Output> {
    Streams.CompactMap(upstream: self, transform: transform)
  }

  /// Keeps the values for which `isIncluded` returns `true`.
  @inlinable
  public func filter(
    _ isIncluded: @escaping @Sendable (Element) -> Bool
  ) -> Streams.Filter<Self> {
    Streams.Filter(upstream: self, isIncluded: isIncluded)
  }

  /// Emits `accumulate` applied to the previous result (starting from `initial`) and each value.
  ///
  /// ```swift
  /// Observable.from([1, 2, 3]).scan(0, +)  // 1, 3, 6
  /// ```
  @inlinable
  public func scan<Result: Sendable>(
    _ initial: Result,
    _ accumulate: @escaping @Sendable (Result, Element) -> Result
  ) -> Streams.Scan<Self, Result> {
    Streams.Scan(upstream: self, initial: initial, accumulate: accumulate)
  }

  /// Drops each value that `isDuplicate` says equals the previous emitted value.
  @inlinable
  public func distinctUntilChanged(
    _ isDuplicate: @escaping @Sendable (Element, Element) -> Bool
  ) -> Streams.DistinctUntilChanged<Self> {
    Streams.DistinctUntilChanged(upstream: self, isDuplicate: isDuplicate)
  }

  /// Drops each value whose `key` equals that of the previous emitted value.
  ///
  /// ```swift
  /// state.distinctUntilChanged(by: \.isLoading)
  /// ```
  @inlinable
  public func distinctUntilChanged<Key: Equatable & Sendable>(
    by key: any KeyPath<Element, Key> & Sendable
  ) -> Streams.DistinctUntilChanged<Self> {
    Streams.DistinctUntilChanged(upstream: self) { $0[keyPath: key] == $1[keyPath: key] }
  }
}

extension ObservableType where Element: Equatable {
  /// Drops each value equal to the previous emitted value.
  ///
  /// ```swift
  /// Observable.from([1, 1, 2, 2, 1]).distinctUntilChanged()  // 1, 2, 1
  /// ```
  @inlinable
  public func distinctUntilChanged() -> Streams.DistinctUntilChanged<Self> {
    Streams.DistinctUntilChanged(upstream: self, isDuplicate: ==)
  }
}

/// The concrete stream types the element-wise operators return.
///
/// They are generic over their upstream so that the compiler specializes a whole chain into one
/// loop; erase one with ``ObservableType/asObservable()`` to store it. Their observers' `on(_:)`
/// are always inlined, so that a chain is one function behind the type-erased observer a
/// subject or `create` calls, rather than one call per operator (W6b in
/// Tooling/Benchmarks/README.md: 225 -> 209 instructions per element).
public enum Streams: Sendable {
  /// The stream returned by ``ObservableType/map(_:)->Streams.Map<Self,Output>``.
  public struct Map<Upstream: ObservableType, Element: Sendable>: ObservableType {
    /// The failure type, that of the upstream.
    public typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let transform: @Sendable (Upstream.Element) -> Element

    @inlinable
    init(upstream: Upstream, transform: @escaping @Sendable (Upstream.Element) -> Element) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Subscribes `observer` to the transformed values.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element, Observer.Failure == Failure {
      upstream.subscribe(MapObserver(downstream: observer, transform: transform))
    }
  }

  @usableFromInline
  struct MapObserver<Downstream: ObserverType, Input: Sendable>: ObserverType {
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: @Sendable (Input) -> Downstream.Element

    @inlinable
    init(downstream: Downstream, transform: @escaping @Sendable (Input) -> Downstream.Element) {
      self.downstream = downstream
      self.transform = transform
    }

    @inlinable var lifetime: Lifetime? { downstream.lifetime }

    @inlinable
    @inline(__always)
    func on(_ event: StreamEvent<Input, Downstream.Failure>) {
      switch event {
      case .next(let element): onNext(element)
      case .error(let failure): downstream.on(.error(failure))
      case .completed: downstream.on(.completed)
      }
    }

    @inlinable
    @inline(__always)
    func onNext(_ element: Input) { downstream.onNext(transform(element)) }
  }

  /// The stream returned by ``ObservableType/compactMap(_:)``.
  public struct CompactMap<Upstream: ObservableType, Element: Sendable>: ObservableType {
    /// The failure type, that of the upstream.
    public typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let transform: @Sendable (Upstream.Element) -> Element?

    @inlinable
    init(upstream: Upstream, transform: @escaping @Sendable (Upstream.Element) -> Element?) {
      self.upstream = upstream
      self.transform = transform
    }

    /// Subscribes `observer` to the non-`nil` transformed values.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element, Observer.Failure == Failure {
      upstream.subscribe(CompactMapObserver(downstream: observer, transform: transform))
    }
  }

  @usableFromInline
  struct CompactMapObserver<Downstream: ObserverType, Input: Sendable>: ObserverType {
    @usableFromInline let downstream: Downstream
    @usableFromInline let transform: @Sendable (Input) -> Downstream.Element?

    @inlinable
    init(downstream: Downstream, transform: @escaping @Sendable (Input) -> Downstream.Element?) {
      self.downstream = downstream
      self.transform = transform
    }

    @inlinable var lifetime: Lifetime? { downstream.lifetime }

    @inlinable
    @inline(__always)
    func on(_ event: StreamEvent<Input, Downstream.Failure>) {
      switch event {
      case .next(let element): onNext(element)
      case .error(let failure): downstream.on(.error(failure))
      case .completed: downstream.on(.completed)
      }
    }

    @inlinable
    @inline(__always)
    func onNext(_ element: Input) {
      if let output = transform(element) { downstream.onNext(output) }
    }
  }

  /// The stream returned by ``ObservableType/filter(_:)``.
  public struct Filter<Upstream: ObservableType>: ObservableType {
    /// The element type, that of the upstream.
    public typealias Element = Upstream.Element
    /// The failure type, that of the upstream.
    public typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let isIncluded: @Sendable (Element) -> Bool

    @inlinable
    init(upstream: Upstream, isIncluded: @escaping @Sendable (Element) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    /// Subscribes `observer` to the values that pass the predicate.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element, Observer.Failure == Failure {
      upstream.subscribe(FilterObserver(downstream: observer, isIncluded: isIncluded))
    }
  }

  @usableFromInline
  struct FilterObserver<Downstream: ObserverType>: ObserverType {
    @usableFromInline let downstream: Downstream
    @usableFromInline let isIncluded: @Sendable (Downstream.Element) -> Bool

    @inlinable
    init(downstream: Downstream, isIncluded: @escaping @Sendable (Downstream.Element) -> Bool) {
      self.downstream = downstream
      self.isIncluded = isIncluded
    }

    @inlinable var lifetime: Lifetime? { downstream.lifetime }

    @inlinable
    @inline(__always)
    func on(_ event: StreamEvent<Downstream.Element, Downstream.Failure>) {
      if case .next(let element) = event {
        onNext(element)
        return
      }
      downstream.on(event)
    }

    @inlinable
    @inline(__always)
    func onNext(_ element: Downstream.Element) {
      if isIncluded(element) { downstream.onNext(element) }
    }
  }

  /// The stream returned by ``ObservableType/scan(_:_:)``.
  public struct Scan<Upstream: ObservableType, Element: Sendable>: ObservableType {
    /// The failure type, that of the upstream.
    public typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let initial: Element
    @usableFromInline let accumulate: @Sendable (Element, Upstream.Element) -> Element

    @inlinable
    init(
      upstream: Upstream,
      initial: Element,
      accumulate: @escaping @Sendable (Element, Upstream.Element) -> Element
    ) {
      self.upstream = upstream
      self.initial = initial
      self.accumulate = accumulate
    }

    /// Subscribes `observer` to the running accumulation; each subscriber starts from the
    /// initial value.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element, Observer.Failure == Failure {
      upstream.subscribe(
        ScanObserver(downstream: observer, accumulator: initial, accumulate: accumulate)
      )
    }
  }

  @usableFromInline
  final class ScanObserver<Downstream: ObserverType, Input: Sendable>: ObserverType,
    @unchecked Sendable
  {
    // Safety: `accumulator` is only touched from `on(_:)`, and the stream grammar guarantees
    // calls to one observer never overlap: so no two accesses to it can overlap, and its
    // runtime exclusivity checks are off (`@exclusivity(unchecked)`). They cost 18% of W6b's
    // instructions with `distinctUntilChanged`'s (callgrind, 249 M -> 205 M). A delivery that
    // broke the grammar would race on it: OperatorConcurrencyTests'
    // scanAndDistinctUntilChangedUnderConcurrentSenders runs under ThreadSanitizer in CI.
    @usableFromInline let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) var accumulator: Downstream.Element
    @usableFromInline let accumulate: @Sendable (Downstream.Element, Input) -> Downstream.Element

    @inlinable
    init(
      downstream: Downstream,
      accumulator: Downstream.Element,
      accumulate: @escaping @Sendable (Downstream.Element, Input) -> Downstream.Element
    ) {
      self.downstream = downstream
      self.accumulator = accumulator
      self.accumulate = accumulate
    }

    @inlinable var lifetime: Lifetime? { downstream.lifetime }

    @inlinable
    @inline(__always)
    func on(_ event: StreamEvent<Input, Downstream.Failure>) {
      switch event {
      case .next(let element): onNext(element)
      case .error(let failure): downstream.on(.error(failure))
      case .completed: downstream.on(.completed)
      }
    }

    @inlinable
    @inline(__always)
    func onNext(_ element: Input) {
      let next = accumulate(accumulator, element)
      accumulator = next
      downstream.onNext(next)
    }
  }

  /// The stream returned by ``ObservableType/distinctUntilChanged()`` and its variants.
  public struct DistinctUntilChanged<Upstream: ObservableType>: ObservableType {
    /// The element type, that of the upstream.
    public typealias Element = Upstream.Element
    /// The failure type, that of the upstream.
    public typealias Failure = Upstream.Failure
    @usableFromInline let upstream: Upstream
    @usableFromInline let isDuplicate: @Sendable (Element, Element) -> Bool

    @inlinable
    init(upstream: Upstream, isDuplicate: @escaping @Sendable (Element, Element) -> Bool) {
      self.upstream = upstream
      self.isDuplicate = isDuplicate
    }

    /// Subscribes `observer` to the values that differ from the previous one.
    @inlinable
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element, Observer.Failure == Failure {
      upstream.subscribe(DistinctObserver(downstream: observer, isDuplicate: isDuplicate))
    }
  }

  @usableFromInline
  final class DistinctObserver<Downstream: ObserverType>: ObserverType, @unchecked Sendable {
    // Safety: `previous` is only touched from `on(_:)`, and the stream grammar guarantees calls
    // to one observer never overlap: its runtime exclusivity checks are off, as `scan`'s
    // accumulator's (see ScanObserver: W6b, and the ThreadSanitizer test that would catch an
    // overlap).
    @usableFromInline let downstream: Downstream
    @usableFromInline @exclusivity(unchecked) var previous: Downstream.Element?
    @usableFromInline let isDuplicate: @Sendable (Downstream.Element, Downstream.Element) -> Bool

    @inlinable
    init(
      downstream: Downstream,
      isDuplicate: @escaping @Sendable (Downstream.Element, Downstream.Element) -> Bool
    ) {
      self.downstream = downstream
      self.isDuplicate = isDuplicate
    }

    @inlinable var lifetime: Lifetime? { downstream.lifetime }

    @inlinable
    @inline(__always)
    func on(_ event: StreamEvent<Downstream.Element, Downstream.Failure>) {
      if case .next(let element) = event {
        onNext(element)
        return
      }
      downstream.on(event)
    }

    @inlinable
    @inline(__always)
    func onNext(_ element: Downstream.Element) {
      if let previous, isDuplicate(previous, element) { return }
      previous = element
      downstream.onNext(element)
    }
  }
}
