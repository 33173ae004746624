public import AppSupport
public import CascadeStore

extension LiveInspector: SessionObserver {
  /// The live inputs of a `Container` (a reactor's as actions, with their mutations; a store's
  /// or a loop's as events), whose "replay to here" replays into a fresh container made by
  /// `fresh`, or by `restore` from the state after the steps let go when it is given
  /// (``replays(_:intoFresh:restoring:)``), the inputs kept in their recorded form and remade by
  /// `remake`.
  public func watch<Container: ArchitectureContainer>(
    _ container: Container.Type,
    encoding encode: @escaping @Sendable (Container.Input) -> (any Encodable & Sendable)?,
    remaking remake: @escaping @Sendable (any Encodable & Sendable) -> Container.Input?,
    isEffectOutcome: @escaping @Sendable (Container.Input, (any Sendable)?) -> Bool,
    fresh: @escaping @Sendable () -> Container,
    restoring restore: (@Sendable (Container.State) -> Container)?
  ) -> any Middleware<Container.Input, Container.State> where Container.State: Encodable {
    let live = inputs(
      of: Container.State.self,
      kind: Container.architecture == .reactor ? .action : .event,
      encoding: encode,
      remaking: remake,
      isEffectOutcome: isEffectOutcome
    )
    replays(live, intoFresh: fresh, restoring: restore)
    return live
  }
}
