import CascadeStreams
import Synchronization
import Testing

@testable import CascadeStore

/// The one cancellation registry every architecture uses (Store commands, reactor mutation
/// streams, feedback effects), transition by transition, with no threads: latest wins by key,
/// cancel by key, cancel one, cancel all, and a cancelled effect's inputs are dropped.
struct EffectRegistryTests {
  /// Counts the calls of a stop.
  final class Stops: Sendable {
    let calls = Atomic<Int>(0)
    var count: Int { calls.load(ordering: .relaxed) }
    var stop: EffectStop { .dispose { self.calls.add(1, ordering: .relaxed) } }
  }

  static func call(_ stops: [EffectStop]) {
    for stop in stops { stop() }
  }

  @Test func cancellingAKeyStopsEveryEffectWithItAndOnlyThose() {
    var registry = EffectRegistry()
    let search = Stops()
    let other = Stops()
    let first = registry.register(key: CommandID("search"), stop: search.stop)
    let second = registry.register(key: CommandID("search"), stop: search.stop)
    let unrelated = registry.register(key: CommandID("other"), stop: other.stop)
    let unkeyed = registry.register(key: nil, stop: other.stop)

    Self.call(registry.cancel(key: CommandID("search")))

    #expect(search.count == 2)
    #expect(other.count == 0)
    #expect(first.isCancelled && second.isCancelled)
    #expect(!unrelated.isCancelled && !unkeyed.isCancelled)
    // Cancelled effects stay in flight until they end: `finish()` waits for them to wind down.
    #expect(registry.count == 4)
  }

  @Test func latestWinsByKeyCancelsThePreviousBeforeTheNextRegisters() {
    var registry = EffectRegistry()
    let stops = Stops()
    let previous = registry.register(key: CommandID(1), stop: stops.stop)
    // What `cancelInFlight` does: cancel the key, then start the new effect under it.
    Self.call(registry.cancel(key: CommandID(1)))
    let latest = registry.register(key: CommandID(1), stop: stops.stop)
    #expect(stops.count == 1)
    #expect(previous.isCancelled)
    #expect(!latest.isCancelled)
  }

  @Test func eachStopIsHandedOutOnce() {
    var registry = EffectRegistry()
    let stops = Stops()
    let origin = registry.register(key: CommandID("k"), stop: stops.stop)
    Self.call(registry.cancel(key: CommandID("k")))
    Self.call(registry.cancel(key: CommandID("k")))
    let again = registry.cancel(effect: origin)
    #expect(again == nil)
    Self.call(registry.cancelAll())
    Self.call(registry.removeAll().stops)
    #expect(stops.count == 1)
  }

  @Test func aCancelledEffectStaysMarkedAfterItEnded() {
    var registry = EffectRegistry()
    let origin = registry.register(key: nil, stop: nil)
    let stop = registry.cancel(effect: origin)
    #expect(stop == nil)  // no stop given: nothing to call
    #expect(origin.isCancelled)
    #expect(registry.count == 1)
    let ended = registry.end(origin)
    #expect(ended)
    #expect(registry.count == 0)
    // What it queued, or sends late while its disposal races it, is still dropped.
    #expect(origin.isCancelled)
  }

  @Test func anEffectThatEndedCannotBeCancelledAnyMore() {
    var registry = EffectRegistry()
    let stops = Stops()
    let origin = registry.register(key: CommandID("k"), stop: stops.stop)
    let ended = registry.end(origin)
    #expect(ended)
    let stop = registry.cancel(effect: origin)
    #expect(stop == nil)
    Self.call(registry.cancel(key: CommandID("k")))
    #expect(stops.count == 0)
    #expect(!origin.isCancelled)  // what a completed effect sent is still reduced
    let endedAgain = registry.end(origin)
    #expect(!endedAgain)
  }

  /// The registry keeps its effects in slots that a new effect reuses once freed: an effect that
  /// ended is never mistaken for the one in its old slot, nor is another registry's.
  @Test func aFreedSlotIsReusedWithoutMistakingTheEffectThatLeftIt() {
    var registry = EffectRegistry()
    let stops = Stops()
    let first = registry.register(key: nil, stop: stops.stop)
    let second = registry.register(key: nil, stop: stops.stop)
    let firstEnded = registry.end(first)
    #expect(firstEnded)
    let third = registry.register(key: nil, stop: stops.stop)  // takes `first`'s slot
    #expect(Set([first.id, second.id, third.id]).count == 3)  // ids are never reused
    #expect(registry.count == 2)
    let firstStop = registry.cancel(effect: first)
    let firstEndedAgain = registry.end(first)
    #expect(firstStop == nil && !firstEndedAgain)
    #expect(!first.isCancelled && !third.isCancelled)

    var other = EffectRegistry()
    let stranger = other.register(key: nil, stop: stops.stop)  // slot 0 of another registry
    let strangerStop = registry.cancel(effect: stranger)
    let strangerEnded = registry.end(stranger)
    #expect(strangerStop == nil && !strangerEnded)
    #expect(registry.count == 2 && other.count == 1)

    Self.call(registry.cancelAll())
    #expect(stops.count == 2)  // `second` and `third`, each once
    #expect(second.isCancelled && third.isCancelled && !stranger.isCancelled)
    let secondEnded = registry.end(second)
    let thirdEnded = registry.end(third)
    #expect(secondEnded && thirdEnded)
    #expect(registry.count == 0)
    // Empty again: a new effect takes a freed slot.
    let fourth = registry.register(key: nil, stop: nil)
    #expect(fourth.slot < 2)
  }

  /// A burst's slots do not outlive it: once its last effect ends, the registry lets them go.
  @Test func theSlotsOfABurstGoWhenItsLastEffectEnds() {
    var registry = EffectRegistry()
    let burst = (0..<100).map { _ in registry.register(key: nil, stop: nil) }
    for origin in burst.reversed() { _ = registry.end(origin) }
    #expect(registry.count == 0)
    #expect(registry.entries.isEmpty && registry.free.isEmpty)
    let next = registry.register(key: nil, stop: nil)
    #expect(next.slot == 0 && next.id == 101)
  }

  @Test func cancelAllStopsEverythingAndKeepsTheTasksToAwait() {
    var registry = EffectRegistry()
    let stops = Stops()
    let task = Task<Void, Never> {}
    let command = registry.register(key: CommandID("load"), stop: nil)
    let accepted = registry.setStop(.task(task), for: command)
    #expect(accepted)
    _ = registry.register(key: nil, stop: stops.stop)
    let stopsToCall = registry.cancelAll()
    #expect(stopsToCall.count == 2)
    Self.call(stopsToCall)
    #expect(stops.count == 1)
    #expect(task.isCancelled)
    // A shutdown awaits the tasks, cancelled or not.
    #expect(registry.tasks.count == 1)
  }

  @Test func aStopSetAfterCancellationIsReportedForTheCallerToCall() {
    var registry = EffectRegistry()
    let origin = registry.register(key: CommandID("k"), stop: nil)
    Self.call(registry.cancel(key: CommandID("k")))
    let stops = Stops()
    let accepted = registry.setStop(stops.stop, for: origin)
    #expect(!accepted)
    Self.call(registry.cancelAll())
    #expect(stops.count == 0)  // not handed out again: the caller stops it
  }

  @Test func removingAllCountsAndCancelsEveryEffect() {
    var registry = EffectRegistry()
    let stops = Stops()
    _ = registry.register(key: CommandID("k"), stop: stops.stop)
    let running = registry.register(key: nil, stop: stops.stop)
    Self.call(registry.cancel(key: CommandID("k")))
    let removed = registry.removeAll()
    #expect(removed.count == 2)
    #expect(removed.stops.count == 1)  // the cancelled one was stopped already
    #expect(registry.count == 0)
    #expect(running.isCancelled)  // nothing it sends is reduced once the store closed
  }
}
