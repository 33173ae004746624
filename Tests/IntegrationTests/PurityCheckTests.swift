import CascadeFeedback
import CascadeReactor
import CascadeStore
import CascadeStreams
import CascadeTestSupport
import CascadeTesting
import Synchronization
import Testing

/// The purity check (issue 36): with it on, each reduction of every architecture runs twice from
/// copies of one state, and a reducer that reads something besides the state and the input is
/// reported once, with the input that showed it and the lines that differ.
@Suite(.checksResources)
struct PurityCheckTests {
  enum Input: Sendable, CustomStringConvertible {
    /// Pure: adds to the total.
    case add(Int)
    /// Impure: reads a counter outside the state (global state, as a clock or a random number
    /// generator is), which moves each time it is read.
    case draw

    var description: String {
      switch self {
      case .add(let amount): "add(\(amount))"
      case .draw: "draw"
      }
    }
  }

  struct Tally: Sendable, Equatable {
    var total = 0
    var drawn = 0
  }

  /// Outside the state: how many times the reducer ran, and the counter `draw` reads.
  final class World: Sendable {
    let reductions = Atomic(0)
    let counter = Atomic(0)
    let reports = Recorder<StoreDiagnostic>()

    func reduce(_ tally: inout Tally, _ input: Input) {
      reductions.add(1, ordering: .relaxed)
      switch input {
      case .add(let amount): tally.total += amount
      case .draw: tally.drawn = counter.add(1, ordering: .relaxed).newValue
      }
    }
  }

  final class TallyReactor: Reactor {
    typealias Action = Input
    typealias Mutation = Input
    typealias State = Tally

    let initialState = Tally()
    let runtime = ReactorRuntime<Input, Input, Tally>()
    let world: World

    init(world: World) { self.world = world }

    var diagnostics: (@Sendable (StoreDiagnostic) -> Void)? {
      { [world] in world.reports.append($0) }
    }

    func reduce(into state: inout Tally, mutation: Input) { world.reduce(&state, mutation) }
  }

  /// Sends `inputs` to a new app of `architecture` and returns its last state.
  static func run(
    _ architecture: Architecture,
    _ inputs: [Input],
    world: World
  ) -> Tally {
    let report: @Sendable (StoreDiagnostic) -> Void = { world.reports.append($0) }
    switch architecture {
    case .store:
      let store = Store(initialState: Tally(), diagnostics: report) { world.reduce(&$0, $1) }
      for input in inputs { store.send(input) }
      return store.state
    case .reactor:
      let reactor = TallyReactor(world: world)
      for input in inputs { reactor.send(input) }
      return reactor.currentState
    case .feedback:
      let loop = FeedbackLoop(
        initialState: Tally(),
        reduceInPlace: { world.reduce(&$0, $1) },
        feedbacks: [],
        scheduler: TestScheduler(),
        diagnostics: report
      )
      for input in inputs { loop.send(input) }
      return loop.currentState
    }
  }

  @Test(arguments: Architecture.allCases)
  func anImpureReducerIsReportedWithTheInputThatShowedIt(_ architecture: Architecture) {
    let world = World()
    let state = PurityCheck.withEnabled {
      Self.run(architecture, [.add(2), .draw, .add(3)], world: world)
    }

    #expect(world.reductions.load(ordering: .relaxed) == 6, "each input reduced twice")
    let reports = world.reports.values
    #expect(reports.count == 1)
    guard case .impureReducer(let input, let difference)? = reports.first else {
      Issue.record("expected one impure reducer report, got \(reports)")
      return
    }
    // A reactor reduces mutations: this one's are its actions.
    let named = architecture == .reactor ? "mutation draw of action draw" : "draw"
    #expect(input == named)
    #expect(difference == "- drawn: 1\n+ drawn: 2")
    #expect(
      reports.first?.description
        == "The reducer is not pure: reducing \(named) twice from the same state gave two "
        + "different states\n- drawn: 1\n+ drawn: 2"
    )
    // The store keeps the first reduction.
    #expect(state == Tally(total: 5, drawn: 1))
  }

  @Test(arguments: Architecture.allCases)
  func aPureReducerIsNotReported(_ architecture: Architecture) {
    let world = World()
    let state = PurityCheck.withEnabled {
      Self.run(architecture, (1...100).map { .add($0) }, world: world)
    }

    #expect(world.reductions.load(ordering: .relaxed) == 200)
    #expect(world.reports.values.isEmpty)
    #expect(state.total == 5_050)
  }

  @Test(arguments: Architecture.allCases)
  func itIsOffUnlessAskedFor(_ architecture: Architecture) {
    let world = World()
    // Off even if the environment turns it on for the whole run.
    let state = PurityCheck.withEnabled(false) {
      Self.run(architecture, [.draw, .draw], world: world)
    }

    #expect(world.reductions.load(ordering: .relaxed) == 2, "each input reduced once")
    #expect(world.reports.values.isEmpty)
    #expect(state.drawn == 2)
  }

  /// A state that is not `Equatable` is compared by its dump, which follows a class into its
  /// contents; a `Double.nan`, not equal to itself, is not reported.
  @Test func statesAreComparedByTheirDumpsWhenNotEquatable() {
    // Safety: each Label is made inside the reducer and never changed after; it is only read
    // (dumped) on the processing thread. A class, so that the dump follows it into its contents.
    final class Label: @unchecked Sendable {
      var text: String
      init(_ text: String) { self.text = text }
    }
    struct Screen: Sendable {
      var label: Label
      var ratio: Double
    }
    let counter = Atomic(0)
    let reports = Recorder<StoreDiagnostic>()
    PurityCheck.withEnabled {
      let store = Store(
        initialState: Screen(label: Label(""), ratio: 0),
        diagnostics: { reports.append($0) }
      ) { state, pure in
        state.ratio = .nan
        state.label = Label(pure ? "same" : "call \(counter.add(1, ordering: .relaxed).newValue)")
      }
      store.send(true)
      #expect(reports.values.isEmpty)
      store.send(false)
    }

    #expect(reports.values.count == 1)
    guard case .impureReducer(let input, let difference)? = reports.values.first else { return }
    #expect(input == "false")
    #expect(difference == "- text: \"call 1\"\n+ text: \"call 2\"")
  }

  @Test(.checksPurity) func theTraitTurnsItOn() {
    #expect(PurityCheck.isEnabled)
  }
}
