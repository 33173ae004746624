import CascadeReactor
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Testing

/// Element selections of a reactor's state: `select(_:at:)`, through the store's subscription
/// index, on the reactor's scheduler, after `transform(state:)`, and from the stub.
@Suite(.checksResources)
struct ReactorSelectionTests {
  final class ScoresReactor: Reactor {
    typealias Action = Int  // the player to score
    typealias Mutation = Int

    let initialState = [0, 0, 0]
    let runtime = ReactorRuntime<Int, Int, [Int]>()
    let deliveryScheduler: any Scheduler
    let doubled: Bool

    let everyState: Bool

    init(
      scheduler: any Scheduler = ImmediateScheduler.instance,
      doubled: Bool = false,
      everyState: Bool = false
    ) {
      deliveryScheduler = scheduler
      self.doubled = doubled
      self.everyState = everyState
    }

    var scheduler: any Scheduler { deliveryScheduler }
    var deliversEveryState: Bool { everyState }

    func mutate(action: Int) -> Mutations<Int> { .just(action) }

    func reduce(into state: inout [Int], mutation: Int) { state[mutation] += 1 }

    func transform(state: Observable<[Int], Never>) -> Observable<[Int], Never> {
      doubled ? state.map { $0.map { $0 * 2 } }.asObservable() : state
    }
  }

  // Each stream gets its element now and then only its changes.
  @Test func eachPlayerSeesOnlyTheirScore() {
    let reactor = ScoresReactor()
    let seen = (0..<3).map { _ in Recorder<Int>() }
    let subscriptions = (0..<3).map { player in
      reactor.select(\.self, at: player).subscribe(onNext: { seen[player].append($0) })
    }
    for player in [0, 2, 2, 1, 2] { reactor.send(player) }
    #expect(seen.map(\.values) == [[0, 1], [0, 1], [0, 1, 2, 3]])
    for subscription in subscriptions { subscription.dispose() }
  }

  // Delivery follows the reactor's scheduler. A subscriber that is behind gets the selection it
  // subscribed to (never replaced), then the latest; one that asked for every state gets each.
  // Here the two are the same: nothing is coalesced.
  @Test(arguments: [false, true])
  func deliversOnTheReactorsScheduler(everyState: Bool) {
    let scheduler = TestScheduler()
    let reactor = ScoresReactor(scheduler: scheduler, everyState: everyState)
    let seen = Recorder<Int>()
    let subscription = reactor.select(\.self, at: 1).subscribe(onNext: { seen.append($0) })
    reactor.send(1)
    #expect(seen.values.isEmpty)
    #expect(reactor.deliveryBacklog == 2)
    scheduler.advance()
    #expect(seen.values == [0, 1])
    #expect(reactor.coalescedDeliveries == 0)
    #expect(reactor.deliveryBacklog == 0)
    subscription.dispose()
  }

  // With `transform(state:)`, selections see the transformed states.
  @Test func selectionsSeeTransformedStates() {
    let reactor = ScoresReactor(doubled: true)
    let seen = Recorder<Int>()
    let subscription = reactor.select(\.self, at: 0).subscribe(onNext: { seen.append($0) })
    reactor.send(0)
    reactor.send(1)
    #expect(seen.values == [0, 2])
    subscription.dispose()
  }

  // While stubbed, selections follow the stub's state.
  @Test func stubbedSelectionsFollowTheStub() {
    let reactor = ScoresReactor()
    reactor.isStubEnabled = true
    let seen = Recorder<Int>()
    let subscription = reactor.select(\.self, at: 2).subscribe(onNext: { seen.append($0) })
    reactor.stub.state.value = [0, 0, 5]
    reactor.stub.state.value = [1, 0, 5]
    #expect(seen.values == [0, 5])
    subscription.dispose()
  }
}
