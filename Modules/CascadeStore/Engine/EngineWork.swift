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

/// An architecture's *program*: what the engine runs for each input between receiving it and
/// reducing it — how a reactor turns an action into its mutations.
///
/// The engine runs it on the processing thread, for each input (after the middlewares'
/// interception), in three steps, with no lock held but in the second:
/// 1. ``step``: the input becomes its ``EngineReductions`` — the inputs to reduce now (a reactor
///    calls `mutate` and returns its synchronous mutations), and the work to start after them.
///    It receives the *sender* (see ``StepSender``) and whether the input comes from a replay
///    (`Store.replay(_:)`): the step then starts no work (a reactor does not call `mutate`) and
///    only reduces;
/// 2. ``reduce``: the engine reduces each of those inputs in place, under the lock, runs the
///    middlewares' processing and notifies the subscriptions;
/// 3. ``start``: the engine hands back the reductions' later work
///    (``EngineReductions/general(_:later:owner:)``), which the program starts (a reactor's
///    asynchronous mutations).
///
/// The program never calls back into the engine on this path: it returns what to do, and the
/// engine does it, in the protocol's order.
@usableFromInline
package struct EngineProgram<State, Action>: Sendable {
  /// Turns one input into what to reduce now and what to start after.
  @usableFromInline
  package typealias Step =
    @Sendable (_ input: Action, _ sender: StepSender?, _ isReplay: Bool) ->
    EngineReductions<Action>
  /// Reduces one of the inputs ``step`` returned, with the object it was stepped for (the
  /// sender's, or the owner the step found: ``EngineReductions/owned(_:owner:)``).
  @usableFromInline
  package typealias Reduce =
    @Sendable (_ state: inout State, _ input: Action, _ owner: StepSender) -> Void
  /// Starts the later work of an input's reductions, once they are reduced.
  @usableFromInline
  package typealias Start =
    @Sendable (_ later: AnyObject, _ input: Action, _ owner: StepSender) -> Void

  @usableFromInline let step: Step
  @usableFromInline let reduce: Reduce
  @usableFromInline let start: Start

  /// A program of three steps (see the type's documentation).
  @inlinable
  package init(
    step: @escaping Step,
    reduce: @escaping Reduce,
    start: @escaping Start
  ) {
    self.step = step
    self.reduce = reduce
    self.start = start
  }
}

/// What an ``EngineProgram``'s step makes of one input: the inputs to reduce now, in order, and
/// the work to start once they are reduced.
///
/// An enum whose common case, one input to reduce for a sender, holds nothing but the input: the
/// engine reads it without touching a reference.
@usableFromInline
package enum EngineReductions<Action> {
  /// Nothing to reduce or start.
  case none
  /// One input to reduce, for the sender: only for an input that came with one (otherwise
  /// ``owned(_:owner:)``).
  case one(Action)
  /// One input to reduce for `owner`: the object the step found for an input that came without a
  /// sender (a reactor loaded from its weak reference), kept alive by the engine while it reduces
  /// and passed to ``EngineProgram/reduce``.
  case owned(Action, owner: AnyObject)
  /// Any other: `inputs` to reduce in order, then `later` (the program's own description of the
  /// work to start, a reactor's asynchronous mutations) handed back to ``EngineProgram/start``,
  /// for `owner` if the input came without a sender.
  case general(Inputs, later: AnyObject?, owner: AnyObject?)

  /// The inputs to reduce of ``general(_:later:owner:)``, in order.
  @usableFromInline
  package enum Inputs {
    case none
    case one(Action)
    case many([Action])
  }
}

/// The object on whose behalf a thread processes a store's inputs (see ``EngineProgram``),
/// handed over unretained.
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
/// actions the processing thread sends itself (a subscriber's, a feedback's, a command's or an
/// effect's that runs on it), each with its effect's origin if it has one.
///
/// Copying or destroying an ``EngineWork``, and the `Optional` of one a ``FIFO`` slot holds, goes
/// through the enum's runtime value witnesses even in an engine specialized for its types
/// (callgrind: `EngineWorkOwcp`, `swift_getMultiPayloadEnumTagSinglePayload` and `Optional`'s
/// witnesses: about 600 instructions per queued action while a command's id was an
/// `AnyHashable`, a few hundred since it is boxed). An action is therefore queued as itself, in a
/// ``FIFO`` of actions, and only turned into a work item when it is taken out some other way
/// than ``removeFirstAction()`` (callgrind, W5 Feedback, where every event is such a send: 1,876
/// → 1,076 instructions per event; W4 Store, where each round trip's action comes from its
/// command's task running on the processing thread, with the command as its origin: 13,201 →
/// 12,333 per round trip).
///
/// The order is the order of the appends across both lanes: each work item of `items` records how
/// many actions were appended before it since the item before it (`headGap` for the first,
/// `gaps` for the others), and `trailing` counts those appended after the last.
@usableFromInline
struct WorkQueue<State: Sendable, Action: Sendable>: Sendable {
  @usableFromInline typealias Work = EngineWork<State, Action>

  /// An action of the actions' lane: what `.action(action, origin: origin)` would be.
  @usableFromInline
  struct QueuedAction: Sendable {
    @usableFromInline let action: Action
    /// The effect that sent it, if any: its inputs are dropped once it is cancelled.
    @usableFromInline let origin: EffectOrigin?

    @inlinable
    init(_ action: Action, origin: EffectOrigin?) {
      self.action = action
      self.origin = origin
    }
  }

  /// The actions without a mark, in order.
  @usableFromInline var actions = FIFO<QueuedAction>()
  /// The other work items, in order.
  @usableFromInline var items = FIFO<Work>()
  /// For each of `items` after the first, how many actions come between it and the item before
  /// it.
  @usableFromInline var gaps = FIFO<Int>()
  /// How many actions come before the first of `items`.
  @usableFromInline var headGap = 0
  /// How many actions come after the last of `items` (all of them when `items` is empty).
  @usableFromInline var trailing = 0

  @inlinable init() {}

  /// Whether nothing is queued.
  @inlinable var isEmpty: Bool { actions.isEmpty && items.isEmpty }

  /// How many work items are queued, plain actions included.
  @inlinable var count: Int { actions.count &+ items.count }

  /// Appends an action without a mark: what `.action(action, origin: origin)` would be.
  @inlinable
  mutating func append(action: Action, origin: EffectOrigin?) {
    actions.append(QueuedAction(action, origin: origin))
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
      let first = actions.removeFirst()
      return .action(first.action, origin: first.origin)
    }
    if headGap > 0 {
      headGap &-= 1
      let first = actions.removeFirst()
      return .action(first.action, origin: first.origin)
    }
    let work = items.removeFirst()
    headGap = items.isEmpty ? 0 : gaps.removeFirst()
    return work
  }

  /// Whether the first work item is an action of the actions' lane (``removeFirstAction()``).
  @inlinable var nextIsAction: Bool {
    !actions.isEmpty && (items.isEmpty || headGap > 0)
  }

  /// Removes and returns the first work item, an action of the actions' lane, as itself; only
  /// when ``nextIsAction``.
  @inlinable
  mutating func removeFirstAction() -> QueuedAction {
    if items.isEmpty { trailing &-= 1 } else { headGap &-= 1 }
    return actions.removeFirst()
  }

  /// Removes and returns the first work item, if any.
  @inlinable
  mutating func popFirst() -> Work? {
    isEmpty ? nil : removeFirst()
  }
}
