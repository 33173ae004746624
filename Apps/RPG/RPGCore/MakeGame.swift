public import AppSupport
public import Foundation

/// The game on `architecture`, saving to `saveFile`.
///
/// ```swift
/// let game = makeGame(.reactor, saveFile: url)
/// game.send(.newGame(name: "Ada", seed: 42))
/// game.send(.explore)
/// ```
///
/// - Parameters:
///   - architecture: The architecture to build the game on.
///   - saveFile: Where the game is saved and loaded.
///   - log: Where the ``LevelUpAnnouncer`` prints ("Leveled Up!"), on every architecture.
/// - Returns: The game service, with no game started.
public func makeGame(
  _ architecture: Architecture,
  saveFile: URL,
  log: @escaping @Sendable (String) -> Void = { print($0) }
) -> any AppService<GameIntent, GameState> {
  GameApp.service(architecture, GameApp.Environment(file: GameFile(url: saveFile), log: log))
}
