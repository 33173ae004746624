import CascadeStreams

/// W6c–W6e: the RxSwift catalogue's hot operators (issue 23) on `PublishSubject`s, against the
/// same work written by hand, as W6b measures `map`, `filter`, `scan` and `distinctUntilChanged`.
///
/// - **W6c `zip`**: two subjects, each sent `0..<N` in turn (`a.onNext(i)`, `b.onNext(i)`);
///   `zip` pairs them with the result selector `+`. By hand: two queues (arrays with a head
///   index) paired as values arrive. N pairs.
/// - **W6d `sample`**: the source is sent `0..<N`, the sampler fires after every fourth value;
///   each sample delivers the latest value if one arrived since the last sample. By hand: a
///   latest-value slot. N source values.
/// - **W6e `buffer`**: the source is sent `0..<N`; `buffer(timeSpan: 1 hour, count: 8,
///   scheduler:)` on a serial dispatch queue delivers every 8 values as an array (the timer never
///   fires in the run, but each new buffer schedules its timer and cancels the previous one, as
///   it does for users). By hand: an array filled to 8, delivered and emptied, no timer; at the
///   end, what is left (here nothing) is delivered, as `buffer` does on completion. N values;
///   the subscriber records each array's sum.
extension W6 {
  static let zipWorkload = Workload(
    id: "W6c",
    name: "zip of two subjects",
    n: 2_000_000,
    quickN: 100_000
  )
  static let sampleWorkload = Workload(
    id: "W6d",
    name: "sample of a subject",
    n: 4_000_000,
    quickN: 100_000
  )
  static let bufferWorkload = Workload(
    id: "W6e",
    name: "buffer(count: 8) of a subject",
    n: 4_000_000,
    quickN: 100_000
  )

  static let catalogueCells = [
    Cell(zipWorkload, .handWritten, run: zipByHand),
    Cell(zipWorkload, .streams, run: zipOfSubjects),
    Cell(sampleWorkload, .handWritten, run: sampleByHand),
    Cell(sampleWorkload, .streams, run: sampleOfSubject),
    Cell(bufferWorkload, .handWritten, run: bufferByHand),
    Cell(bufferWorkload, .streams, run: bufferOfSubject),
  ]

  // MARK: zip

  static func zipByHand(n: Int) -> Checksum {
    let tally = Tally()
    let combine = opaque { @Sendable (a: Int, b: Int) in a &+ b }
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    Operations.begin()
    pairByHand(n: n, combine: combine, observer: observer)
    Operations.end()
    return tally.checksum
  }

  @inline(never)
  static func pairByHand(n: Int, combine: (Int, Int) -> Int, observer: (Int) -> Void) {
    var first: [Int] = []
    var second: [Int] = []
    var firstHead = 0
    var secondHead = 0
    func pair() {
      while firstHead < first.count, secondHead < second.count {
        observer(combine(first[firstHead], second[secondHead]))
        firstHead += 1
        secondHead += 1
      }
      if firstHead == first.count {
        first.removeAll(keepingCapacity: true)
        firstHead = 0
      }
      if secondHead == second.count {
        second.removeAll(keepingCapacity: true)
        secondHead = 0
      }
    }
    for value in 0..<n {
      first.append(value)
      pair()
      second.append(value)
      pair()
    }
  }

  static func zipOfSubjects(n: Int) -> Checksum {
    let tally = Tally()
    let combine = opaque { @Sendable (a: Int, b: Int) in a &+ b }
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    let first = PublishSubject<Int, Never>()
    let second = PublishSubject<Int, Never>()
    let subscription = first.zip(second, combine).subscribe(onNext: observer)
    Operations.begin()
    sendInTurn(n: n, first, second)
    Operations.end()
    subscription.dispose()
    return tally.checksum
  }

  @inline(never)
  static func sendInTurn(
    n: Int,
    _ first: PublishSubject<Int, Never>,
    _ second: PublishSubject<Int, Never>
  ) {
    for value in 0..<n {
      first.onNext(value)
      second.onNext(value)
    }
  }

  // MARK: sample

  static func sampleByHand(n: Int) -> Checksum {
    let tally = Tally()
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    Operations.begin()
    sampleLoop(n: n, observer: observer)
    Operations.end()
    return tally.checksum
  }

  @inline(never)
  static func sampleLoop(n: Int, observer: (Int) -> Void) {
    var latest: Int?
    for value in 0..<n {
      latest = value
      if value % 4 == 3, let sampled = latest {
        latest = nil
        observer(sampled)
      }
    }
  }

  static func sampleOfSubject(n: Int) -> Checksum {
    let tally = Tally()
    let observer = opaque { @Sendable (value: Int) in tally.record(value) }
    let source = PublishSubject<Int, Never>()
    let sampler = PublishSubject<Void, Never>()
    let subscription = source.sample(sampler).subscribe(onNext: observer)
    Operations.begin()
    sendAndSample(n: n, source, sampler)
    Operations.end()
    subscription.dispose()
    return tally.checksum
  }

  @inline(never)
  static func sendAndSample(
    n: Int,
    _ source: PublishSubject<Int, Never>,
    _ sampler: PublishSubject<Void, Never>
  ) {
    for value in 0..<n {
      source.onNext(value)
      if value % 4 == 3 { sampler.onNext(()) }
    }
  }

  // MARK: buffer

  static let bufferCount = 8

  static func bufferByHand(n: Int) -> Checksum {
    let tally = Tally()
    let observer = opaque { @Sendable (values: [Int]) in tally.record(values.reduce(0, &+)) }
    Operations.begin()
    chunkByHand(n: n, observer: observer)
    Operations.end()
    return tally.checksum
  }

  @inline(never)
  static func chunkByHand(n: Int, observer: ([Int]) -> Void) {
    var buffer: [Int] = []
    for value in 0..<n {
      buffer.append(value)
      if buffer.count == bufferCount {
        observer(buffer)
        buffer = []
      }
    }
    // On completion `buffer` delivers what it holds, even nothing (as RxSwift's does).
    observer(buffer)
  }

  static func bufferOfSubject(n: Int) -> Checksum {
    let tally = Tally()
    let observer = opaque { @Sendable (values: [Int]) in tally.record(values.reduce(0, &+)) }
    let source = PublishSubject<Int, Never>()
    let scheduler = SerialDispatchQueueScheduler(label: "W6e")
    let subscription = source.buffer(
      timeSpan: .seconds(3_600),
      count: bufferCount,
      scheduler: scheduler
    )
    .subscribe(onNext: observer)
    Operations.begin()
    send(n: n, source)
    source.onCompleted()
    Operations.end()
    subscription.dispose()
    return tally.checksum
  }

  @inline(never)
  static func send(n: Int, _ source: PublishSubject<Int, Never>) {
    for value in 0..<n { source.onNext(value) }
  }
}
