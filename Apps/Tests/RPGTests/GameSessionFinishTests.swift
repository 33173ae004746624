import AppScenarios
import AppSupport
import AppTestSupport
import CascadeStreams
import CascadeTesting
import Foundation
import RPGCore
import Testing

/// A front's turn ends on the state its intent ends in, even when another thread processes it.
///
/// CI saw the rpg print a turn without its last messages (and the next turn with them) about
/// once in 25 runs on the feedback loop under load. The save before the turn finished on
/// another thread; that thread was still delivering the saved state when the front sent its
/// attack, so it processed the attack too, one change at a time, and the front's wait ended on
/// the first change (`changes` grew, nothing busy) while the monster's strike was still to come.
/// This test holds another thread in its delivery of a state, sends the attack through the
/// session, and only then lets it go: before `perform(finishing:)` the turn ended on the
/// attack's first state.
@Suite(.checksResources) struct GameSessionFinishTests {
  @Test(arguments: Architecture.allCases)
  func aTurnProcessedByAnotherThreadEndsOnItsLastState(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let game = makeGame(architecture, saveFile: directory.file("save.json"), log: { _ in })
    let sent = Signal()
    let session = AppSession.live(SendObserved(game, sent: sent))
    _ = try await session.perform(.newGame(name: "Ada", seed: 42), finishing: true) { _ in true }

    // A thread of its own explores, and is held in the delivery of the monster's state until
    // the attack has been sent: that thread then processes the attack, as a save's did in CI.
    let held = Signal()
    let release = Signal()
    let gate = game.states.subscribe(onNext: { state in
      guard state.game?.monster != nil, !held.hasFired else { return }
      held.fire()
      _ = release.waitBlocking()
    })
    defer { gate.dispose() }
    async let explored: Void = onOwnThread { game.send(.explore) }
    #expect(await held.wait())

    let before = game.currentState.changes
    let turn = Task {
      try await session.perform(.attack, finishing: true) { $0.changes > before && !$0.isBusy }
    }
    #expect(await sent.wait())
    release.fire()
    let state = try await turn.value
    await explored

    await game.finish()
    let expected = Bot.simulate([.newGame(name: "Ada", seed: 42), .explore, .attack])
    #expect(state.game == expected.game, "the turn ended partway through the attack")
    #expect(state == game.currentState)
    #expect(state.changes >= before + 2, "an attack makes at least two changes")
  }
}

/// A service that signals once an intent has been sent to the one it wraps.
private final class SendObserved: AppService {
  let base: any AppService<GameIntent, GameState>
  let sent: AppTestSupport.Signal

  init(_ base: any AppService<GameIntent, GameState>, sent: AppTestSupport.Signal) {
    self.base = base
    self.sent = sent
  }

  var architecture: Architecture { base.architecture }
  var currentState: GameState { base.currentState }
  var states: Observable<GameState, Never> { base.states }

  func send(_ intent: GameIntent) {
    base.send(intent)
    if case .attack = intent { sent.fire() }
  }

  func finish() async { await base.finish() }
}
