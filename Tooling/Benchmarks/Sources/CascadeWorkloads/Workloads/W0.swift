/// W0, the baseline: a bare loop of `reduce(&state, action); observer(state)`.
///
/// The physical limit of W1 (counter dispatch): what a store could cost if it did nothing but
/// call the reducer and the one subscriber. Every other cell is reported as a ratio to it.
enum W0 {
  static let workload = Workload(
    id: "W0",
    name: "baseline loop",
    n: 10_000_000,
    quickN: 100_000
  )

  struct State {
    var count = 0
  }

  static let cells = [
    Cell(
      workload,
      .handWritten,
      expected: { n in Checksum(count: n, sum: n &* (n &+ 1) / 2, last: n) },
      run: { n in
        let tally = Tally()
        let reduce = opaque { (state: inout State, action: Int) in state.count &+= action }
        let observer = opaque { (state: State) in tally.record(state.count) }
        Operations.begin()
        loop(n: n, reduce: reduce, observer: observer)
        Operations.end()
        return tally.checksum
      }
    )
  ]

  /// The loop, out of line so that it runs on closures it cannot see into.
  @inline(never)
  static func loop(n: Int, reduce: (inout State, Int) -> Void, observer: (State) -> Void) {
    var state = State()
    for _ in 0..<n {
      reduce(&state, 1)
      observer(state)
    }
  }
}
