import CascadeStreams

extension Store {
  /// Sends `action` like ``send(_:mark:)``, and reports the state just before the store processes
  /// it and just after, once the inputs it expands into are reduced.
  ///
  /// For CascadeTesting's `TestStore` of an architecture whose inputs expand into other inputs (a
  /// reactor's action into its synchronous mutations, which may be none): it can tell what the
  /// input changed even when nothing was reduced. Both reports run on the processing thread;
  /// `dropped` runs instead, on any thread, when the store has shut down. Inputs sent while the
  /// action is processed are queued behind it, outside the two reports.
  package func send(
    _ action: Action,
    mark: UInt64,
    willProcess: @escaping @Sendable (_ before: State) -> Void,
    didProcess: @escaping @Sendable (_ after: State) -> Void,
    dropped: @escaping @Sendable () -> Void
  ) {
    let engine = engine
    engine.submit(
      .run(
        {
          willProcess(engine.machine.pointee.state)
          engine.reduce(SentInput(action), mark: mark, sender: nil)
          didProcess(engine.machine.pointee.state)
        },
        dropped: dropped
      )
    )
  }

  /// A handle on this store that does not keep it open: waiting on it (``finish()``) ends when
  /// the store's owner releases it.
  package var weakHandle: Store { Store(engine: engine, origin: nil) }
}
