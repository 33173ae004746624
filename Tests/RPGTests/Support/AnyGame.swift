import AppSupport
import CascadeStreams
import RPGKit

/// A concrete service around `makeGame`'s existential, for the harness, which is generic over
/// a concrete `AppService`.
final class AnyGame: AppService {
  let base: any AppService<GameIntent, GameState>

  init(_ base: any AppService<GameIntent, GameState>) {
    self.base = base
  }

  var architecture: Architecture { base.architecture }
  var currentState: GameState { base.currentState }
  var states: Observable<GameState, Never> { base.states }
  func send(_ intent: GameIntent) { base.send(intent) }
}
