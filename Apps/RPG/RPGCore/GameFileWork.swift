import AppSupport

/// A save or a load: the file work a game starts, which every architecture runs as its effect
/// and whose outcome it applies as a ``GameChange``.
struct GameFileWork: Sendable {
  /// The effect's name: "save" or "load".
  let name: String
  /// Does the work; returns the change that reports its outcome.
  private(set) var run: @Sendable () async -> GameChange

  /// The work `activity` asks for, on `file`: saving `game` (none without one), or loading.
  init?(_ activity: GameActivity?, of game: Game?, on file: GameFile) {
    switch activity {
    case .saving(let overwrite)?:
      guard let game else { return nil }
      name = "save"
      run = {
        do throws(SaveError) {
          try await file.save(game, overwrite: overwrite)
          return .saved(step: game.step)
        } catch {
          return .saveFailed(error)
        }
      }
    case .loading?:
      name = "load"
      run = {
        do throws(SaveError) {
          return .loaded(try await file.load())
        } catch {
          return .loadFailed(error)
        }
      }
    case nil:
      return nil
    }
    if let recorded = file.recorded {
      // A test generated from a recording: the recorded outcome, when the test releases it.
      let missing: GameChange =
        name == "save"
        ? .saveFailed(.io("the recording holds no outcome for this save"))
        : .loadFailed(.io("the recording holds no outcome for this load"))
      run = { await recorded.outcome() ?? missing }
    }
  }

  /// The work `change` starts, on `file`: a save of the game of `state`, or a load.
  init?(startedBy change: GameChange, in state: GameState, on file: GameFile) {
    switch change {
    case .saveStarted(let overwrite):
      self.init(.saving(overwrite: overwrite), of: state.game, on: file)
    case .loadStarted: self.init(.loading, of: state.game, on: file)
    default: return nil
    }
  }
}
