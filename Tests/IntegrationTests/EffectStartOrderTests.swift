import CascadeFeedback
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Effects started by one input begin in the order they were started, always.
///
/// 100 rounds while other tasks keep the cooperative pool busy. Issue 19. Before, each effect was
/// a task of its own that could begin on another thread ahead of the one started before it: both
/// tests failed (orders such as 0 1 2 3 5 4).
@Suite(.checksResources, .serialized)
struct EffectStartOrderTests {
  static let rounds = 100
  static let effects = 6

  /// Keeps every thread of the cooperative pool busy with short jobs until `stop` is set.
  static func keepThePoolBusy(until stop: Watched<Bool>) -> [Task<Void, Never>] {
    (0..<4).map { _ in
      Task.detached {
        while !stop.value {
          var sum = 0
          for index in 0..<2_000 { sum &+= index }
          if sum == 42 { print(sum) }
          await Task.yield()
        }
      }
    }
  }

  // A store's asynchronous commands, started in a row by one input (a command that starts them
  // all), begin in that order.
  @Test func aStoresCommandsBeginInTheOrderStarted() async {
    let stop = Watched(false)
    let load = Self.keepThePoolBusy(until: stop)
    var disordered: [[Int]] = []
    for _ in 0..<Self.rounds {
      let store = Store<Int, Int>(initialState: 0) { count, _ in count += 1 }
      let begun = Recorder<Int>()
      for index in 0..<Self.effects {
        store.run("effect \(index)") { _, store in
          begun.append(index)
          store.send(index)
        }
      }
      await store.finish()
      if begun.values != Array(0..<Self.effects) { disordered.append(begun.values) }
    }
    stop.set(true)
    for task in load { await task.value }
    #expect(disordered.isEmpty, "rounds whose effects began out of order: \(disordered)")
  }

  // A loop's `async` feedbacks, all started by the same state, begin in their declared order.
  @Test func aLoopsAsyncFeedbacksBeginInTheirOrder() async {
    let stop = Watched(false)
    let load = Self.keepThePoolBusy(until: stop)
    var disordered: [[Int]] = []
    for _ in 0..<Self.rounds {
      let begun = Recorder<Int>()
      let feedbacks = (0..<Self.effects).map { index in
        Feedback<Int, Int>(predicate: { $0 == 1 }) { _, _ in begun.append(index) }
      }
      let loop = FeedbackLoop<Int, Int>(
        initialState: 0,
        reduceInPlace: { state, event in state = event },
        feedbacks: feedbacks,
        scheduler: ImmediateScheduler.instance
      )
      loop.send(1)
      #expect(await begun.wait(forCount: Self.effects))
      await loop.finish()
      await loop.shutdown()
      if begun.values != Array(0..<Self.effects) { disordered.append(begun.values) }
    }
    stop.set(true)
    for task in load { await task.value }
    #expect(disordered.isEmpty, "rounds whose feedbacks began out of order: \(disordered)")
  }
}
