import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// A burst of inputs to an architecture whose subscriber is behind follows one policy on all three.
///
/// Delivered on a scheduler, a subscriber that is behind gets the state it subscribed to, then the
/// latest state, and one delivery waits, holding it (the intermediate states are released at
/// once); asked for every state, it gets each, in order, and the backlog counts them. A feedback
/// loop delivers the state subscribed to at once, as ReactiveFeedback does; the store and the
/// reactor deliver it on the scheduler, never replaced. Before, both queued every intermediate state
/// (`observe(on:)`), each holding its state until delivered. Issue 19.
@Suite(.checksResources)
struct StateBurstTests {
  static let burst = 10_000

  /// A reactor whose state is the latest tracked number.
  final class LatestReactor: Reactor {
    typealias Action = Int
    typealias Mutation = Int
    typealias State = Tracked?

    let initialState: Tracked? = nil
    let runtime = ReactorRuntime<Int, Int, Tracked?>()
    let delivery: TestScheduler
    let everyState: Bool
    let live: LiveCount

    init(delivery: TestScheduler, everyState: Bool, live: LiveCount) {
      self.delivery = delivery
      self.everyState = everyState
      self.live = live
    }

    var scheduler: any Scheduler { delivery }
    var deliversEveryState: Bool { everyState }

    func reduce(into state: inout Tracked?, mutation: Int) { state = Tracked(mutation, in: live) }
  }

  /// One architecture seen through its burst counters.
  struct Subject {
    let send: (Int) -> Void
    /// Subscribes to the states, delivered on the scheduler the subject was made with.
    let subscribe: (@escaping @Sendable (Tracked?) -> Void) -> any Disposable
    let backlog: () -> Int
    let coalesced: () -> Int
    let owner: AnyObject
  }

  /// How many deliveries of the state subscribed to wait on the scheduler: none for a feedback
  /// loop, which delivers it at once.
  static func initialWaiting(_ architecture: Architecture) -> Int {
    architecture == .feedback ? 0 : 1
  }

  static func make(
    _ architecture: Architecture,
    on scheduler: TestScheduler,
    everyState: Bool,
    live: LiveCount
  ) -> Subject {
    switch architecture {
    case .store:
      let store = Store<Tracked?, Int>(initialState: nil) { latest, number in
        latest = Tracked(number, in: live)
      }
      let delivery: Delivery = everyState ? .everyState(scheduler) : .scheduler(scheduler)
      return Subject(
        send: { store.send($0) },
        subscribe: { store.subscribe(on: delivery, $0) },
        backlog: { store.deliveryBacklog },
        coalesced: { store.coalescedDeliveries },
        owner: store
      )
    case .reactor:
      let reactor = LatestReactor(delivery: scheduler, everyState: everyState, live: live)
      return Subject(
        send: reactor.send,
        subscribe: { reactor.states.subscribe(onNext: $0) },
        backlog: { reactor.deliveryBacklog },
        coalesced: { reactor.coalescedDeliveries },
        owner: reactor
      )
    case .feedback:
      let loop = FeedbackLoop<Tracked?, Int>(
        initialState: nil,
        reduceInPlace: { state, number in state = Tracked(number, in: live) },
        feedbacks: [],
        scheduler: scheduler,
        deliversEveryState: everyState
      )
      return Subject(
        send: loop.send,
        subscribe: { loop.states.subscribe(onNext: $0) },
        backlog: { loop.deliveryBacklog },
        coalesced: { loop.coalescedDeliveries },
        owner: loop
      )
    }
  }

  @Test(arguments: Architecture.allCases)
  func aSlowSubscriberGetsTheLatestStateWithNoBacklog(_ architecture: Architecture) async {
    let scheduler = TestScheduler()
    let live = LiveCount()
    let subject = Self.make(architecture, on: scheduler, everyState: false, live: live)
    let delivered = Recorder<Int?>()
    let subscription = subject.subscribe { delivered.append($0?.number) }
    for number in 1...Self.burst { subject.send(number) }
    #expect(subject.backlog() == Self.initialWaiting(architecture) + 1)
    #expect(subject.coalesced() == Self.burst - 1)
    #expect(live.value <= 2, "the current state, and the one waiting")
    await scheduler.advance(by: .zero)
    #expect(delivered.values == [nil, Self.burst])
    #expect(subject.backlog() == 0)
    subscription.dispose()
  }

  @Test(arguments: Architecture.allCases)
  func everyStateDeliversAllInOrderAndCountsTheBacklog(_ architecture: Architecture) async {
    let scheduler = TestScheduler()
    let live = LiveCount()
    let subject = Self.make(architecture, on: scheduler, everyState: true, live: live)
    let delivered = Recorder<Int?>()
    let subscription = subject.subscribe { delivered.append($0?.number) }
    for number in 1...Self.burst { subject.send(number) }
    #expect(subject.backlog() == Self.burst + Self.initialWaiting(architecture))
    #expect(subject.coalesced() == 0)
    await scheduler.advance(by: .zero)
    #expect(delivered.values == [nil] + (1...Self.burst).map { $0 })
    #expect(subject.backlog() == 0)
    #expect(live.value == 1, "delivered states are released")
    subscription.dispose()
  }

  // Disposing a subscription with deliveries waiting takes them out of the backlog.
  @Test(arguments: Architecture.allCases)
  func disposingWithDeliveriesWaitingEmptiesTheBacklog(_ architecture: Architecture) {
    let scheduler = TestScheduler()
    let live = LiveCount()
    let subject = Self.make(architecture, on: scheduler, everyState: true, live: live)
    let subscription = subject.subscribe { _ in }
    for number in 1...100 { subject.send(number) }
    #expect(subject.backlog() == 100 + Self.initialWaiting(architecture))
    subscription.dispose()
    #expect(subject.backlog() == 0)
    #expect(live.value == 1)
  }
}
