import CascadeStreams

/// W6, stream operators: N integers through `map`, `filter`, `scan` and `distinctUntilChanged`
/// into one subscriber, against the same closures composed by hand.
///
/// W6 takes its values from `Observable.from(0..<N)`; W6b sends them one `onNext` at a time into
/// a `PublishSubject`, which adds what a subject costs per value (deciding which sender
/// delivers, and its snapshot of the observers) to the same chain.
///
/// Fairness: both columns call the *same closure values*, which pass through ``opaque(_:)`` and,
/// on the hand-written side, into a function that is never inlined. Otherwise the optimizer could
/// inline the literal closures into the hand-written loop (and fold most of it away) while the
/// library, which stores them in its operators, calls them indirectly; the ratio would then
/// measure closure specialization rather than what the operators cost. With the closures opaque
/// to both, the ratio is the cost of the operator machinery (events, observers, lifetime checks)
/// over the cost of the calls themselves.
enum W6 {
  static let workload = Workload(
    id: "W6",
    name: "operators on Observable.from",
    n: 10_000_000,
    quickN: 100_000
  )
  static let subjectWorkload = Workload(
    id: "W6b",
    name: "operators on PublishSubject",
    n: 10_000_000,
    quickN: 100_000
  )

  /// The closures of the chain; the same values drive both columns.
  struct Closures: Sendable {
    /// The `map` closure: 0, 0, 1, 1, 2, 2, and so on.
    let transform: @Sendable (Int) -> Int
    /// The `filter` closure: drops the multiples of 3.
    let isIncluded: @Sendable (Int) -> Bool
    /// The initial value of `scan`.
    let initial: Int
    /// The `scan` closure: the running maximum; the values still come in pairs.
    let accumulate: @Sendable (Int, Int) -> Int
    /// The `distinctUntilChanged` closure, which drops the repeats.
    let isDuplicate: @Sendable (Int, Int) -> Bool

    static func make() -> Closures {
      opaque(
        Closures(
          transform: { $0 / 2 },
          isIncluded: { $0 % 3 != 0 },
          initial: 0,
          accumulate: { max($0, $1) },
          isDuplicate: { $0 == $1 }
        )
      )
    }
  }

  static let cells = [
    Cell(workload, .handWritten, run: runHandWritten),
    Cell(
      workload,
      .streams,
      goal: .maximumRatio(3, to: .handWritten),
      run: runObservableFrom
    ),
    Cell(subjectWorkload, .handWritten, run: runHandWritten),
    Cell(
      subjectWorkload,
      .streams,
      goal: .maximumRatio(4, to: .handWritten),
      run: runPublishSubject
    ),
  ]

  // MARK: Hand-written

  static func runHandWritten(n: Int) -> Checksum {
    let closures = Closures.make()
    let tally = Tally()
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    Operations.begin()
    composedByHand(n: n, closures: closures, observer: observer)
    Operations.end()
    return tally.checksum
  }

  /// `map`, `filter`, `scan` and `distinctUntilChanged` written as one loop.
  @inline(never)
  static func composedByHand(n: Int, closures: Closures, observer: (Int) -> Void) {
    var accumulator = closures.initial
    var previous: Int?
    for element in 0..<n {
      let mapped = closures.transform(element)
      guard closures.isIncluded(mapped) else { continue }
      accumulator = closures.accumulate(accumulator, mapped)
      if let previous, closures.isDuplicate(previous, accumulator) { continue }
      previous = accumulator
      observer(accumulator)
    }
  }

  // MARK: Streams

  static func runObservableFrom(n: Int) -> Checksum {
    let closures = Closures.make()
    let tally = Tally()
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    // The values flow while the chain is subscribed: building it is part of the operations.
    Operations.begin()
    let subscription = chain(Observable.from(0..<n), closures)
      .subscribe(onNext: observer)
    Operations.end()
    subscription.dispose()
    return tally.checksum
  }

  static func runPublishSubject(n: Int) -> Checksum {
    let closures = Closures.make()
    let tally = Tally()
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    let subject = PublishSubject<Int, Never>()
    let subscription = chain(subject, closures).subscribe(onNext: observer)
    Operations.begin()
    for element in 0..<n { subject.onNext(element) }
    subject.onCompleted()
    Operations.end()
    subscription.dispose()
    return tally.checksum
  }

  /// The operator chain both Streams cells subscribe to.
  static func chain<Source: ObservableType<Int, Never>>(
    _ source: Source,
    _ closures: Closures
  ) -> some ObservableType<Int, Never> {
    source
      .map(closures.transform)
      .filter(closures.isIncluded)
      .scan(closures.initial, closures.accumulate)
      .distinctUntilChanged(closures.isDuplicate)
  }
}
