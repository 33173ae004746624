import CascadeReactor
import CascadeStreams
import CascadeTesting
import Testing

/// `reduce(state:mutation:)` and `reduce(into:mutation:)` default to each other: a reactor
/// implements either, and one that implements neither keeps its state (ReactorKit's default)
/// instead of recursing until the stack overflows.
@Suite(.checksResources)
struct ReduceDefaultsTests {
  /// Implements `reduce(into:)` only.
  final class InPlace: Reactor {
    typealias Action = Int
    let initialState = 0
    let runtime = ReactorRuntime<Int, Int, Int>()
    var scheduler: any Scheduler { ImmediateScheduler.instance }
    func reduce(into state: inout Int, mutation: Int) { state += mutation }
  }

  /// Implements `reduce(state:)` only, and asks another reactor's `reduce(state:)` (a default)
  /// from inside it.
  final class Returning: Reactor {
    typealias Action = Int
    let initialState = 0
    let runtime = ReactorRuntime<Int, Int, Int>()
    let helper = InPlace()
    var scheduler: any Scheduler { ImmediateScheduler.instance }
    func reduce(state: Int, mutation: Int) -> Int {
      helper.reduce(state: state, mutation: mutation * 10)
    }
  }

  /// Implements neither.
  final class Neither: Reactor {
    typealias Action = Int
    let initialState = 7
    let runtime = ReactorRuntime<Int, Int, Int>()
    var scheduler: any Scheduler { ImmediateScheduler.instance }
  }

  @Test func eitherFormIsEnough() {
    let inPlace = InPlace()
    inPlace.send(2)
    #expect(inPlace.currentState == 2)
    #expect(inPlace.reduce(state: 1, mutation: 2) == 3)  // the default, through `reduce(into:)`
  }

  // The guard belongs to the reactor whose default is running: another reactor's default,
  // called from inside it, still reduces.
  @Test func anotherReactorsDefaultInsideAReduceStillReduces() {
    let returning = Returning()
    returning.send(2)
    #expect(returning.currentState == 20)
  }

  @Test func aReactorWithNeitherKeepsItsState() {
    let neither = Neither()
    neither.send(5)
    #expect(neither.currentState == 7)
    #expect(neither.reduce(state: 1, mutation: 2) == 1)
    var state = 3
    neither.reduce(into: &state, mutation: 2)
    #expect(state == 3)
  }
}
