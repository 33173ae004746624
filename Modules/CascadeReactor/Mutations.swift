public import CascadeStreams

/// What a reactor's `mutate(action:)` returns: mutations to apply now, and work that produces
/// more later — SwiftReactor's `Mutations`.
///
/// - **Synchronous** mutations are applied at once, in order, on the thread that sent the action,
///   before `send` returns (unless another thread is processing the reactor's inputs, which then
///   applies them): a binding reads the new state right after sending.
/// - **Asynchronous** mutations come from a stream or an `async` operation and are applied later,
///   in the order they arrive. The reactor ends the work when it is released; give it an id to
///   cancel it, and `cancelInFlight` to let the latest work of a kind win.
///
/// ```swift
/// func mutate(action: Action) -> Mutations<Mutation> {
///   switch action {
///   case .noMutationNeeded: return .none
///   case .enterText(let text): return [.setText(text)]
///   case .setSwitchAsync(let value):
///     return Mutations(sync: .setSwitch(value), async: api.save(value).map { _ in .saved })
///   case .search(let query):
///     return .run(id: "search", cancelInFlight: true) { send in
///       send(.results(try await api.search(query)))
///     }
///   }
/// }
/// ```
public struct Mutations<Mutation: Sendable>: Sendable, ExpressibleByArrayLiteral {
  /// Asynchronous work that produces mutations.
  public enum Work: Sendable {
    /// Mutations from a stream; a failure is reported, and the reactor goes on.
    case stream(Observable<Mutation, any Error>)
    /// An `async` operation that sends mutations; a thrown error other than cancellation is
    /// reported, and the reactor goes on.
    case operation(@Sendable (_ send: MutationSender<Mutation>) async throws -> Void)
  }

  /// The mutations applied at once.
  public var sync: [Mutation] {
    get {
      switch immediate {
      case .none: []
      case .one(let mutation): [mutation]
      case .many(let mutations): mutations
      }
    }
    set { immediate = Immediate(newValue) }
  }

  /// The synchronous mutations, without an array for the common single one (no allocation per
  /// action on the hot path).
  @usableFromInline
  enum Immediate: Sendable {
    case none
    case one(Mutation)
    case many([Mutation])

    @inlinable
    init(_ mutations: [Mutation]) {
      switch mutations.count {
      case 0: self = .none
      case 1: self = .one(mutations[0])
      default: self = .many(mutations)
      }
    }
  }

  @usableFromInline var immediate: Immediate
  /// The asynchronous part, if any, behind one reference: mutations that are only synchronous
  /// (the common case) copy and destroy without touching an existential.
  @usableFromInline var later: Later?

  /// Whether there is a stream to start (whose synchronous emissions are reduced at once).
  @inlinable
  var startsStream: Bool {
    guard let work = later?.work, case .stream = work else { return false }
    return true
  }

  /// The asynchronous work of ``Mutations``, with its id; immutable, replaced when changed.
  @usableFromInline
  final class Later: Sendable {
    @usableFromInline let work: Work?
    @usableFromInline let id: (any Hashable & Sendable)?
    @usableFromInline let cancelInFlight: Bool

    @usableFromInline
    init(work: Work?, id: (any Hashable & Sendable)?, cancelInFlight: Bool) {
      self.work = work
      self.id = id
      self.cancelInFlight = cancelInFlight
    }

    static func make(
      work: Work?,
      id: (any Hashable & Sendable)?,
      cancelInFlight: Bool
    ) -> Later? {
      if work == nil && id == nil && !cancelInFlight { return nil }
      return Later(work: work, id: id, cancelInFlight: cancelInFlight)
    }
  }

  /// The work producing mutations later, if any.
  public var async: Work? {
    get { later?.work }
    set { later = .make(work: newValue, id: id, cancelInFlight: cancelInFlight) }
  }

  /// The id the asynchronous work can be cancelled by.
  public var id: (any Hashable & Sendable)? {
    get { later?.id }
    set { later = .make(work: async, id: newValue, cancelInFlight: cancelInFlight) }
  }

  /// Whether starting this work cancels the work in flight with the same `id` first.
  public var cancelInFlight: Bool {
    get { later?.cancelInFlight ?? false }
    set { later = .make(work: async, id: id, cancelInFlight: newValue) }
  }

  /// Mutations applied at once, and optionally work producing more later.
  @inlinable
  public init(sync: [Mutation] = [], async: Work? = nil) {
    immediate = Immediate(sync)
    later = async.map { Later(work: $0, id: nil, cancelInFlight: false) }
  }

  /// One mutation applied at once.
  @inlinable
  public init(sync mutation: Mutation) {
    immediate = .one(mutation)
    later = nil
  }

  /// Mutations applied at once, then those a stream emits.
  public init<S: ObservableType>(sync: Mutation..., async stream: S)
  where S.Element == Mutation {
    self.init(sync: sync, async: .stream(stream.eraseFailure()))
  }

  /// Mutations applied at once, written as an array literal: `[.setText(text)]`.
  @inlinable
  public init(arrayLiteral elements: Mutation...) {
    self.init(sync: elements)
  }

  /// No mutation.
  public static var none: Mutations { Mutations(sync: [], async: nil) }

  /// One mutation applied at once: ReactorKit's `.just(…)`.
  @inlinable
  public static func just(_ mutation: Mutation) -> Mutations {
    Mutations(sync: mutation)
  }

  /// The mutations a stream emits, applied as they arrive.
  public static func stream<S: ObservableType>(_ stream: S) -> Mutations
  where S.Element == Mutation {
    Mutations(async: .stream(stream.eraseFailure()))
  }

  /// An `async` operation sending mutations as it goes.
  ///
  /// - Parameters:
  ///   - id: An id to cancel it by.
  ///   - cancelInFlight: Whether it cancels the operation in flight with the same id first.
  ///   - operation: The work; call `send` with each mutation.
  /// - Returns: Mutations whose asynchronous work is `operation`.
  public static func run(
    id: (any Hashable & Sendable)? = nil,
    cancelInFlight: Bool = false,
    _ operation: @escaping @Sendable (_ send: MutationSender<Mutation>) async throws -> Void
  ) -> Mutations {
    var mutations = Mutations.none
    mutations.later = Later(work: .operation(operation), id: id, cancelInFlight: cancelInFlight)
    return mutations
  }

  /// These mutations, with their asynchronous work cancellable by `id`.
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Mutations {
    var copy = self
    copy.later = Later(work: async, id: id, cancelInFlight: cancelInFlight)
    return copy
  }
}

/// Sends mutations from a reactor's asynchronous work.
public struct MutationSender<Mutation: Sendable>: Sendable {
  let body: @Sendable (Mutation) -> Void

  /// Creates a sender; reactors build these.
  public init(_ body: @escaping @Sendable (Mutation) -> Void) {
    self.body = body
  }

  /// Sends `mutation`; it is applied after the ones sent before it.
  public func callAsFunction(_ mutation: Mutation) {
    body(mutation)
  }
}
