public import CascadeStreams

/// A unit of work for a store engine's processing thread: an input, or the engine's own
/// bookkeeping done in order with the inputs.
@usableFromInline
enum EngineWork<State: Sendable, Action: Sendable>: Sendable {
  /// An input; `origin` is the effect that sent it (a command's task, a stream), if any; `mark`
  /// is the token it was sent with through `Store.send(_:mark:)`, which the probe reports.
  case action(Action, origin: EffectOrigin?, mark: UInt64? = nil)
  case subscribe(SubscriptionBox<State>)
  case command(CommandBox<State, Action>)
  case expireCommands
  case cancel(CommandID)
  /// Runs `body` on the processing thread, in order with the inputs; `dropped` runs instead
  /// if the store closed first.
  case run(@Sendable () -> Void, dropped: @Sendable () -> Void)

  /// Whether a replay in progress lets it in: its own inputs and the engine's bookkeeping, not
  /// inputs from elsewhere (the recording holds what the store's reactions sent) nor commands
  /// (effects).
  @inlinable
  var isAcceptedDuringReplay: Bool {
    switch self {
    case .action(_, let origin, _): origin?.isReplay == true
    case .command: false
    default: true
    }
  }

  /// The engine's own bookkeeping, accepted while the store drains after `shutdown()`.
  @inlinable
  var isInternal: Bool {
    switch self {
    case .expireCommands: true
    default: false
    }
  }
}

/// An architecture's step between receiving an input and reducing: how a reactor turns an
/// action into its mutations on the store it runs on.
///
/// The engine calls it on the processing thread, with no lock held, for each input (after the
/// middlewares' interception), with:
/// - the input;
/// - the *sender*: the object that sent the input through `Store.send(_:sender:)` and processes
///   it on its own thread, kept alive by that call and handed over unretained (a reactor, whose
///   retains are slow: see its `// Safety:` note); passed for every input that thread processes
///   before it gives up the processing token, and `nil` for inputs processed by another drain
///   (the step then finds its owner another way, e.g. a weak reference);
/// - whether the input comes from a replay (`Store.replay(_:)`): the step then starts no work
///   (a reactor does not call `mutate`), and only reduces;
/// - `reduceNow(input, reducer)`: reduces `input` at once with `reducer`, under the lock, then
///   runs the middlewares' processing and notifies the subscriptions. It may be called any
///   number of times (none: the input only starts work).
///
/// A step is the *program* of an architecture: what runs outside the lock (`mutate`), and what
/// runs under it (the reducer it passes).
@usableFromInline
package typealias EngineStep<State, Action> =
  @Sendable (
    _ input: Action,
    _ sender: StepSender?,
    _ isReplay: Bool,
    _ reduceNow: (Action, (inout State, Action) -> Void) -> Void
  ) -> Void

/// The object on whose behalf a thread processes a store's inputs (see ``EngineStep``), handed
/// over unretained.
///
/// Safety: the sender keeps the object alive for the whole call that processes
/// (`Store.send(_:sender:)`), and the engine passes it only down that call's stack, never storing
/// it, nor handing it to another thread: so it needs no retain.
/// That matters for a reactor, whose weak reference gives it a side table where each retain and
/// release costs ~80 instructions (W1 Reactor: 1085 instructions per action retained, 907
/// unretained, `Tooling/callgrind.sh`).
@usableFromInline
package struct StepSender {
  @usableFromInline let object: Unmanaged<AnyObject>
  /// An object of the sender's that the step needs too (a reactor's running machinery), kept
  /// alive by the same call: it saves the step looking it up again.
  @usableFromInline let context: Unmanaged<AnyObject>?

  @inlinable
  package init(_ object: AnyObject) {
    self.object = Unmanaged.passUnretained(object)
    context = nil
  }

  /// A sender with an object of its that the step needs too (see ``context``).
  @inlinable
  package init(_ object: AnyObject, context: AnyObject) {
    self.object = Unmanaged.passUnretained(object)
    self.context = Unmanaged.passUnretained(context)
  }

  /// Calls `body` with the object, without retaining it.
  @inlinable
  package func with<T>(_ body: (AnyObject) -> T) -> T {
    object._withUnsafeGuaranteedRef(body)
  }

  /// Calls `body` with the object and the context, without retaining them.
  @inlinable
  package func withContext<T>(_ body: (AnyObject, AnyObject?) -> T) -> T {
    with { object in
      guard let context else { return body(object, nil) }
      return context._withUnsafeGuaranteedRef { body(object, $0) }
    }
  }
}

/// A store engine's input queue: its work items in order, with a lane of their own for the
/// plain actions the processing thread sends itself (a subscriber's, a feedback's).
///
/// Copying or destroying an ``EngineWork``, and the `Optional` of one a ``FIFO`` slot holds, goes
/// through the enum's runtime value witnesses even in an engine specialized for its types
/// (callgrind: `EngineWorkOwcp`, `swift_getMultiPayloadEnumTagSinglePayload` and `Optional`'s
/// witnesses, about 600 instructions per queued action; boxing the `AnyHashable` of a command's
/// id, to make every payload loadable, does not change that). A plain action is therefore queued
/// as itself, in a ``FIFO`` of actions, and only turned into a work item when it is taken out
/// (callgrind, W5 Feedback, where every event is such a send: 1,876 → 1,076 instructions per
/// event).
///
/// The order is the order of the appends across both lanes: each work item of `items` records how
/// many plain actions were appended before it since the item before it (`headGap` for the first,
/// `gaps` for the others), and `trailing` counts those appended after the last.
@usableFromInline
struct WorkQueue<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline typealias Work = EngineWork<State, Action>

  /// The plain actions (no effect origin, no mark), in order.
  @usableFromInline var actions = FIFO<Action>()
  /// The other work items, in order.
  @usableFromInline var items = FIFO<Work>()
  /// For each of `items` after the first, how many plain actions come between it and the item
  /// before it.
  @usableFromInline var gaps = FIFO<Int>()
  /// How many plain actions come before the first of `items`.
  @usableFromInline var headGap = 0
  /// How many plain actions come after the last of `items` (all of them when `items` is empty).
  @usableFromInline var trailing = 0

  @inlinable init() {}

  /// Whether nothing is queued.
  @inlinable var isEmpty: Bool { actions.isEmpty && items.isEmpty }

  /// How many work items are queued, plain actions included.
  @inlinable var count: Int { actions.count &+ items.count }

  /// Appends a plain action: what `.action(action, origin: nil)` would be.
  @inlinable
  mutating func append(action: Action) {
    actions.append(action)
    trailing &+= 1
  }

  /// Appends a work item.
  @inlinable
  mutating func append(_ work: consuming Work) {
    if items.isEmpty { headGap = trailing } else { gaps.append(trailing) }
    trailing = 0
    items.append(work)
  }

  /// Removes and returns the first work item; the queue must not be empty.
  @inlinable
  mutating func removeFirst() -> Work {
    if items.isEmpty {
      trailing &-= 1
      return .action(actions.removeFirst(), origin: nil)
    }
    if headGap > 0 {
      headGap &-= 1
      return .action(actions.removeFirst(), origin: nil)
    }
    let work = items.removeFirst()
    headGap = items.isEmpty ? 0 : gaps.removeFirst()
    return work
  }

  /// Removes and returns the first work item, if any.
  @inlinable
  mutating func popFirst() -> Work? {
    isEmpty ? nil : removeFirst()
  }
}
