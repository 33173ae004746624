import CascadeStore
import CascadeStreams

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Reactor {
  /// The reactor's runtime, kept for it in the table shared by reactors that declare no
  /// `runtime` property (``ReactorRuntimes``): what ReactorKit keeps in associated objects.
  ///
  /// Each use looks the runtime up by the reactor's identity (a lock and a hash lookup);
  /// declaring `let runtime = ReactorRuntime<Action, Mutation, State>()` skips the table.
  @inlinable
  public var runtime: ReactorRuntime<Action, Mutation, State> {
    ReactorRuntimes.runtime(for: self)
  }
}

/// The runtimes of reactors that declare no `runtime` property: a table shared by all of them,
/// keyed by the reactor's identity, that holds each runtime until its reactor is gone.
///
/// A reactor conforms to ``Reactor`` with or without a stored `runtime`:
///
/// ```swift
/// final class CounterReactor: Reactor {
///   // …
///   let runtime = ReactorRuntime<Action, Mutation, State>()  // the fast path (optional)
/// }
/// ```
///
/// **The trade-off.** With the stored property, the runtime is one load away, and it goes with
/// its reactor: releasing the reactor cancels its work in flight and ends its state streams at
/// once. Without it:
///
/// - every use of the runtime (once per action: sending it; processing it is handed the
///   reactor's machinery by the send) takes the table's lock and looks the reactor up;
/// - the table learns that a reactor is gone only when it next looks (Swift on Linux has no
///   associated objects, and a reactor that holds nothing of the table's cannot say when it
///   goes): a released reactor's runtime lives on until the table is swept. Its work ends
///   earlier, at the first input it sends after the release: that input is dropped, the work
///   in flight is cancelled and the state streams end. Work that sends nothing (a task that
///   waits, a stream that stays silent) ends when the table is swept: each time it takes in a
///   new reactor (every time while it holds up to 64 reactors, then each time it has doubled
///   since the last sweep), or now with ``purgeReleased()``.
///
/// Call `shutdown()` on a reactor that has silent work which never ends before letting it go,
/// or declare its `runtime`.
public enum ReactorRuntimes {
  /// The table.
  @usableFromInline static let table = RuntimeTable()

  /// The runtime of `reactor`, made on its first use.
  @inlinable
  static func runtime<R: Reactor>(
    for reactor: R
  ) -> ReactorRuntime<R.Action, R.Mutation, R.State> {
    let address = UInt(bitPattern: ObjectIdentifier(reactor))
    let runtime =
      table.runtime(at: address)
      ?? table.insert(ReactorRuntime<R.Action, R.Mutation, R.State>(), for: reactor)
    // Safety: the table keeps one runtime per live reactor, made by the line above for this
    // reactor's type (a reactor's associated types never change).
    return unsafeDowncast(runtime, to: ReactorRuntime<R.Action, R.Mutation, R.State>.self)
  }

  /// Releases the runtimes of the reactors that are gone, now: their work in flight is
  /// cancelled and their state streams end.
  ///
  /// The table also does this as it takes in new reactors; call it where a released reactor's
  /// work must end at a known point (a test's end, say).
  ///
  /// A sweep that another thread began meanwhile (as it took in a reactor) may hold the runtime
  /// of a reactor released before this call: this waits for such sweeps to end, so that every
  /// reactor gone when it was called has its runtime released when it returns. Called from code
  /// that a sweep runs (a released runtime's disposal code), it does not wait. Do not call it
  /// while holding a lock that a reactor's disposal code takes.
  ///
  /// - Returns: How many runtimes were released.
  @discardableResult
  public static func purgeReleased() -> Int {
    table.purgeReleased()
  }

  /// How many runtimes the table holds, for reactors alive or not yet swept.
  package static var count: Int { table.count }

  /// Whether the table holds a runtime for `reactor`.
  package static func holdsRuntime(for reactor: AnyObject) -> Bool {
    table.holdsRuntime(for: ObjectIdentifier(reactor))
  }

  /// Whether the table holds a runtime for the reactor with `identity`, alive or released and
  /// not yet swept.
  package static func holdsRuntime(for identity: ObjectIdentifier) -> Bool {
    table.holdsRuntime(for: identity)
  }
}

/// The weak-keyed table behind ``ReactorRuntimes``.
///
/// An entry holds its reactor weakly, to tell whether it is gone, and unowned, so that the
/// reactor's memory cannot be reused by another object while the entry exists: a live object's
/// address then finds its own entry or none, and a lookup needs no check of the entry's reactor.
/// (An unowned reference keeps a released object's memory, not the object: its deinit has run.)
///
/// The lock guards the slots only, and nothing else happens under it: runtimes are made before
/// it is taken; a sweep reads the entries' weak references after giving it up (a weak load holds
/// the reactor for a moment, and letting go of it may be what runs its deinit); and the entries
/// it removes are released after it is given up (a runtime's release cancels its reactor's work
/// and ends its streams, which runs their disposal code).
///
/// So a sweep holds entries with no lock held: those it looked at, then those it removed. Each
/// sweep is listed in the slots while it runs (``Slots/sweeps``), and ``purgeReleased()`` waits
/// for the ones other threads began before its own ended, which may hold a released reactor's
/// runtime.
@usableFromInline
package final class RuntimeTable: Sendable {
  /// One reactor's runtime.
  final class Entry: Sendable {
    // Checked: every stored property is a `let` of a `Sendable` type (a `weak let` is loaded
    // atomically).
    weak let owner: (any AnyObject & Sendable)?
    /// Keeps the reactor's memory, so its address is not reused while this entry exists.
    unowned let pin: any AnyObject & Sendable
    let runtime: any AnyObject & Sendable

    init(owner: any AnyObject & Sendable, runtime: any AnyObject & Sendable) {
      self.owner = owner
      pin = owner
      self.runtime = runtime
    }
  }

  let slots = LockedValue(Slots())
  /// Called by each sweep between its look at the entries and their removal, and by
  /// ``purgeReleased()`` when it waits for another thread's sweep: for tests, which pause a sweep
  /// there.
  let hooks: SweepHooks?

  /// What a test may run inside a sweep.
  package struct SweepHooks: Sendable {
    /// Runs in each sweep, after it looked at the entries and before it removes those found gone.
    package var afterLooking: @Sendable () -> Void
    /// Runs once per call of ``purgeReleased()`` that waits for another thread's sweep.
    package var waiting: @Sendable () -> Void

    package init(
      afterLooking: @escaping @Sendable () -> Void,
      waiting: @escaping @Sendable () -> Void
    ) {
      self.afterLooking = afterLooking
      self.waiting = waiting
    }
  }

  @usableFromInline
  init() { hooks = nil }

  /// A table of its own, for tests.
  package init(hooks: SweepHooks) { self.hooks = hooks }

  /// The runtime of the reactor at `address`, if the table holds one.
  @usableFromInline
  func runtime(at address: UInt) -> (any AnyObject & Sendable)? {
    // The runtime is read in place, under the lock: taking the entry out first would retain and
    // release it on every lookup.
    slots.withLock { $0.runtime(at: address) }
  }

  /// Takes in `owner` with `runtime`, unless another thread did first; sweeps when due.
  @usableFromInline
  package func insert(
    _ runtime: any AnyObject & Sendable,
    for owner: any AnyObject & Sendable
  ) -> any AnyObject & Sendable {
    let address = UInt(bitPattern: ObjectIdentifier(owner))
    let (entry, sweepDue) = slots.withLock { slots in
      if let existing = slots.entry(at: address) { return (existing, false) }
      let entry = Entry(owner: owner, runtime: runtime)
      slots.insert(entry, at: address)
      return (entry, slots.count <= Slots.alwaysSweep || slots.count > slots.sweepAt)
    }
    if sweepDue { _ = sweep() }
    return entry.runtime
  }

  /// Sweeps now, then waits for the sweeps other threads began before this one ended; returns
  /// how many entries this sweep removed.
  package func purgeReleased() -> Int {
    let thread = currentThreadIdentity()
    let (removed, last) = sweep(on: thread)
    // Called from disposal code a sweep of this thread runs: the sweep waited for would be the
    // caller's own.
    guard !slots.withLock({ $0.sweeps.contains { $0.thread == thread } }) else { return removed }
    var waited = false
    while slots.withLock({ $0.sweeps.contains { $0.number <= last && $0.thread != thread } }) {
      if !waited {
        waited = true
        hooks?.waiting()
      }
      // Another thread's sweep is reading weak references or releasing runtimes: no lock of
      // ours is held, and it ends without waiting for anything of the table's.
      sched_yield()
    }
    return removed
  }

  /// Removes the entries of reactors that are gone, and releases them; returns how many went,
  /// and the number of the last sweep begun when this one ended.
  private func sweep(on thread: UInt = currentThreadIdentity()) -> (removed: Int, last: Int) {
    let number = slots.withLock { $0.beginSweep(on: thread) }
    let removed = removeGone()
    let last = slots.withLock { $0.endSweep(number) }
    return (removed, last)
  }

  /// The sweep itself: the weak references are read, and the removed entries released, with no
  /// lock held; everything it held is released when it returns (a call of its own, never
  /// inlined, so that no release moves past the sweep's end, which a purge waits for).
  @inline(never)
  private func removeGone() -> Int {
    let entries = slots.withLock { $0.entries.compactMap { $0 } }
    let gone = Set(entries.lazy.filter { $0.owner == nil }.map(ObjectIdentifier.init))
    hooks?.afterLooking()
    let removed = slots.withLock { $0.remove(gone) }
    return removed.count
  }

  package var count: Int { slots.withLock { $0.count } }

  func holdsRuntime(for identity: ObjectIdentifier) -> Bool {
    let address = UInt(bitPattern: identity)
    return slots.withLock { $0.entry(at: address) } != nil
  }
}

extension RuntimeTable {
  /// An open-addressing hash table from reactor addresses to entries, with linear probing.
  ///
  /// Not a `Dictionary`: hashing an address with the standard library's seeded hasher cost more
  /// than the rest of a lookup (W1), where a multiplicative hash of an address is enough (the
  /// keys are not chosen by an attacker). Entries are only removed by sweeping, which rebuilds
  /// the slots, so there are no tombstones.
  struct Slots: Sendable {
    /// Addresses, 0 in an empty slot (no object lives at address 0).
    var keys: [UInt]
    var entries: [Entry?]
    var count = 0
    /// Past this many entries, taking in a reactor sweeps; up to `alwaysSweep`, it always does.
    var sweepAt = 0
    /// The sweeps under way: each one's number, in the order they began, and its thread.
    var sweeps: [(number: Int, thread: UInt)] = []
    /// How many sweeps have begun.
    var sweepsBegun = 0

    static let alwaysSweep = 64

    init(capacity: Int = 16) {
      keys = Array(repeating: 0, count: capacity)
      entries = Array(repeating: nil, count: capacity)
    }

    /// The first slot to probe for `address`: Fibonacci hashing of the address.
    func home(of address: UInt) -> Int {
      let shift = UInt(UInt.bitWidth - keys.count.trailingZeroBitCount)
      return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    func entry(at address: UInt) -> Entry? {
      index(of: address).flatMap { entries[$0] }
    }

    /// The runtime of the entry for `address`, if any.
    func runtime(at address: UInt) -> (any AnyObject & Sendable)? {
      guard let index = index(of: address) else { return nil }
      return entries[index]?.runtime
    }

    /// The slot of `address`, if the table holds it.
    func index(of address: UInt) -> Int? {
      let mask = keys.count - 1
      var index = home(of: address)
      while true {
        let key = keys[index]
        if key == address { return index }
        if key == 0 { return nil }
        index = (index + 1) & mask
      }
    }

    /// Inserts an entry for an address the table does not hold; grows at half full.
    mutating func insert(_ entry: Entry, at address: UInt) {
      if (count + 1) * 2 > keys.count { rebuild(minimumCapacity: keys.count * 2) }
      place(entry, at: address)
      count += 1
    }

    private mutating func place(_ entry: Entry, at address: UInt) {
      let mask = keys.count - 1
      var index = home(of: address)
      while keys[index] != 0 { index = (index + 1) & mask }
      keys[index] = address
      entries[index] = entry
    }

    /// Re-places every entry that `keep` accepts, in slots at most half full; returns the others.
    @discardableResult
    private mutating func rebuild(
      minimumCapacity: Int = 16,
      keep: (Entry) -> Bool = { _ in true }
    ) -> [Entry] {
      var kept: [(address: UInt, entry: Entry)] = []
      var removed: [Entry] = []
      for (address, entry) in zip(keys, entries) {
        guard address != 0, let entry else { continue }
        if keep(entry) {
          kept.append((address, entry))
        } else {
          removed.append(entry)
        }
      }
      var capacity = max(16, minimumCapacity)
      while (kept.count + 1) * 2 > capacity { capacity *= 2 }
      var emptied = Slots(capacity: capacity)
      emptied.sweepAt = sweepAt
      emptied.sweeps = sweeps
      emptied.sweepsBegun = sweepsBegun
      self = emptied
      for (address, entry) in kept { place(entry, at: address) }
      count = kept.count
      return removed
    }

    /// Lists a sweep beginning on `thread`; returns its number.
    mutating func beginSweep(on thread: UInt) -> Int {
      sweepsBegun += 1
      sweeps.append((sweepsBegun, thread))
      return sweepsBegun
    }

    /// Takes sweep `number` off the list; returns the number of the last sweep begun.
    mutating func endSweep(_ number: Int) -> Int {
      if let index = sweeps.firstIndex(where: { $0.number == number }) {
        sweeps.remove(at: index)
      }
      return sweepsBegun
    }

    /// Removes the entries in `gone` (of reactors found gone) and returns them, to be released
    /// after the lock is given up; the next sweep is due once the table has doubled.
    mutating func remove(_ gone: Set<ObjectIdentifier>) -> [Entry] {
      defer { sweepAt = count * 2 }
      guard !gone.isEmpty else { return [] }
      return rebuild { !gone.contains(ObjectIdentifier($0)) }
    }
  }
}
