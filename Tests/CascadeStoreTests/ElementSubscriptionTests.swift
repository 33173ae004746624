import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// The subscription index: subscriptions to elements of one collection, by index.
@Suite(.checksResources)
struct ElementSubscriptionTests {
  struct Board: Sendable {
    var cells = [Int](repeating: 0, count: 10)
    var title = "board"
  }

  enum Edit: Sendable {
    case increment(Int)
    case set(Int, Int)
    case resize(Int)
    case rename(String)
  }

  static func makeStore() -> Store<Board, Edit> {
    Store(initialState: Board()) { board, edit in
      switch edit {
      case .increment(let index): board.cells[index] += 1
      case .set(let index, let value): board.cells[index] = value
      case .resize(let count):
        if count < board.cells.count {
          board.cells.removeLast(board.cells.count - count)
        } else {
          board.cells += [Int](repeating: 0, count: count - board.cells.count)
        }
      case .rename(let title): board.title = title
      }
    }
  }

  // W2's promise: each subscriber gets its element now, then only when that element changes —
  // one callback per action, not one per subscriber.
  @Test func onlyTheSubscriberWhoseElementChangedIsCalled() {
    let store = Self.makeStore()
    let calls = Recorder<String>()
    let subscriptions = (0..<10).map { index in
      store.subscribe(\.cells, at: index, on: .synchronous) { calls.append("\(index)=\($0)") }
    }
    #expect(calls.values.count == 10)
    calls.removeAll()
    for k in 0..<30 { store.send(.increment(k % 10)) }
    #expect(calls.values.count == 30)
    #expect(calls.values.prefix(3) == ["0=1", "1=1", "2=1"])
    #expect(calls.values.suffix(1) == ["9=3"])
    calls.removeAll()
    store.send(.rename("other"))
    store.send(.set(4, 3))  // the same value: no callback
    #expect(calls.values.isEmpty)
    store.send(.set(4, 7))
    #expect(calls.values == ["4=7"])
    for subscription in subscriptions { subscription.dispose() }
  }

  // An index outside the collection delivers nothing until the element exists, and a removed
  // element that comes back with another value is delivered again.
  @Test func indexesOutsideTheCollectionWaitForTheElement() {
    let store = Self.makeStore()
    store.send(.resize(3))
    let values = Recorder<Int>()
    let subscription = store.subscribe(\.cells, at: 5, on: .synchronous) { values.append($0) }
    #expect(values.values.isEmpty)
    store.send(.resize(6))
    #expect(values.values == [0])
    store.send(.set(5, 2))
    store.send(.resize(2))
    store.send(.resize(6))
    #expect(values.values == [0, 2, 0])
    subscription.dispose()
  }

  // Disposing ends delivery at once, and the group leaves the store with its last subscriber;
  // the resource check of the suite proves nothing is left behind.
  @Test func disposingEndsDeliveryAndTheGroupLeaves() {
    let store = Self.makeStore()
    let values = Recorder<Int>()
    let first = store.subscribe(\.cells, at: 0, on: .synchronous) { values.append($0) }
    let second = store.subscribe(\.cells, at: 1, on: .synchronous) { _ in }
    #expect(store.subscriptionCount == 1)
    first.dispose()
    store.send(.increment(0))
    #expect(values.values == [0])
    second.dispose()
    #expect(store.subscriptionCount == 0)
    // A new subscriber after that gets a fresh group.
    let third = store.subscribe(\.cells, at: 0, on: .synchronous) { values.append($0) }
    #expect(values.values == [0, 1])
    #expect(store.subscriptionCount == 1)
    third.dispose()
  }

  // The stream form emits the element and its changes, and completes when the store goes.
  @Test func selectStreamCompletesWhenTheStoreGoes() {
    var store: Store<Board, Edit>? = Self.makeStore()
    let values = Recorder<Int>()
    let completed = Counter()
    let subscription = store!.select(\.cells, at: 2).subscribe(
      onNext: { values.append($0) },
      onCompleted: { completed.increment() }
    )
    store!.send(.increment(2))
    store!.send(.increment(3))
    store = nil
    #expect(values.values == [0, 1])
    #expect(completed.value == 1)
    subscription.dispose()
  }

  // Delivery through a scheduler: values arrive when the scheduler runs; `.scheduler` delivers
  // the value subscribed to (never replaced) and the latest one (the one between was replaced
  // while waiting), `.everyState` all, in order.
  @Test func deliversThroughAScheduler() {
    let scheduler = TestScheduler()
    let store = Self.makeStore()
    let latest = Recorder<Int>()
    let every = Recorder<Int>()
    let coalescing = store.subscribe(\.cells, at: 1, on: .scheduler(scheduler)) {
      latest.append($0)
    }
    let queued = store.subscribe(\.cells, at: 1, on: .everyState(scheduler)) {
      every.append($0)
    }
    store.send(.increment(1))
    store.send(.increment(1))
    #expect(latest.values.isEmpty && every.values.isEmpty)
    #expect(store.deliveryBacklog == 2 + 3)
    #expect(store.coalescedDeliveries == 1)
    scheduler.advance()
    #expect(latest.values == [0, 2])
    #expect(every.values == [0, 1, 2])
    #expect(store.deliveryBacklog == 0)
    coalescing.dispose()
    queued.dispose()
  }
}
