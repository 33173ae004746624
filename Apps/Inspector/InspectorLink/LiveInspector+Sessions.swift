public import AppSupport
public import CascadeStore

extension LiveInspector: SessionObserver {
  /// The live inputs of a `Container` (a reactor's as actions, with their mutations; a store's
  /// or a loop's as events), whose "replay to here" replays into a fresh container made by
  /// `fresh` (``replays(_:intoFresh:)``).
  public func watch<Container: ArchitectureContainer>(
    _ container: Container.Type,
    encoding encode: @escaping @Sendable (Container.Input) -> (any Encodable)?,
    isEffectOutcome: @escaping @Sendable (Container.Input, (any Sendable)?) -> Bool,
    fresh: @escaping @Sendable () -> Container
  ) -> any Middleware<Container.Input, Container.State> where Container.State: Encodable {
    let live = inputs(
      of: Container.State.self,
      kind: Container.architecture == .reactor ? .action : .event,
      encoding: encode,
      isEffectOutcome: isEffectOutcome
    )
    replays(live, intoFresh: fresh)
    return live
  }
}
