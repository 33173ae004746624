import CascadeStreams
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The unsafe constructs here (`Unmanaged`, `_withUnsafeGuaranteedRef`, raw pointers) are not for
// speed: a signal handler may not allocate, take a lock or touch a reference count that a
// crashing thread may have left mid-update, so the rings are reached through their bits.

/// The crash handler of the flight recorders: on a fatal signal, each live recorder's ring is
/// written to its file, then the signal goes on to what handled it before (the default: the
/// process dies of it, with its usual status and core).
///
/// The fatal signals are those of a crash — `SIGILL` and `SIGTRAP` (a Swift trap: `fatalError`,
/// a failed precondition, an overflow, a force-unwrapped `nil`), `SIGABRT`, `SIGSEGV`, `SIGBUS`,
/// `SIGFPE` — and the requests to end, `SIGTERM` and `SIGINT`, unless the process ignores them
/// (an app that handles them itself, through a dispatch source, keeps doing so).
///
/// The handler allocates nothing and takes no lock: the rings are in a list linked through
/// atomics, pushed to and never unlinked, and each ring's dump is async-signal-safe
/// (``FlightRing/dumpFromSignalHandler()``). One dump at a time: a second crashing thread
/// leaves the files to the first.
enum FlightCrashDump {
  /// The signals handled.
  static let signals: [Int32] = [
    SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGTERM, SIGINT,
  ]

  /// The list's head: the newest ring, as its pointer's bits (0: none).
  private static let head = Atomic<UInt>(0)
  /// Whether a dump has begun.
  private static let dumping = Atomic<Bool>(false)
  /// Whether the handlers are installed.
  private static let installed = LockedValue(false)
  /// The actions the handlers replaced, by signal number (allocated once, never freed).
  // Safety: written under `installed` while installing, read by the handler afterwards only.
  nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    actions.initialize(repeating: sigaction(), count: 65)
    return actions
  }()

  /// Adds `ring` to the list the handler writes, and installs the handlers if they are not.
  static func register(_ ring: FlightRing) {
    // Safety: the ring is retained for the life of the process (never released), so the
    // handler may reach it from the list at any time.
    let bits = UInt(bitPattern: Unmanaged.passRetained(ring).toOpaque())
    var current = head.load(ordering: .acquiring)
    while true {
      ring.next.store(current, ordering: .relaxed)
      let (exchanged, original) = head.compareExchange(
        expected: current,
        desired: bits,
        ordering: .acquiringAndReleasing
      )
      if exchanged { break }
      current = original
    }
    installHandlers()
  }

  /// Writes every registered ring that dumps on a crash; what the handler does before passing
  /// the signal on.
  static func dumpAll() {
    guard !dumping.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var bits = head.load(ordering: .acquiring)
    var visited = 0
    // Bounded by the rings ever registered; 1 << 20 is far more than any process makes.
    while bits != 0, visited < 1 << 20 {
      visited += 1
      guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return }
      // Safety: every ring in the list is retained forever (`register`).
      let ring = Unmanaged<FlightRing>.fromOpaque(pointer)
      bits = ring._withUnsafeGuaranteedRef { ring in
        if ring.dumpsOnCrash.load(ordering: .acquiring) { ring.dumpFromSignalHandler() }
        return ring.next.load(ordering: .acquiring)
      }
    }
  }

  /// Installs the handler for each fatal signal, once, keeping the action it replaces; a
  /// signal the process ignores is left ignored.
  private static func installHandlers() {
    _ = previous
    installed.withLock { installed in
      guard !installed else { return }
      installed = true
      for number in signals {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { continue }
        if Self.ignores(current) { continue }
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handleFatalSignal
        #else
        action.__sigaction_handler.sa_handler = handleFatalSignal
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        if sigaction(number, &action, &previous[Int(number)]) != 0 { continue }
      }
    }
  }

  private static func ignores(_ action: sigaction) -> Bool {
    #if canImport(Darwin)
    let handler = action.__sigaction_u.__sa_handler
    #else
    let handler = action.__sigaction_handler.sa_handler
    #endif
    guard let handler else { return false }
    // Safety: both are C function pointers (SIG_IGN is the constant 1 cast to one); compared
    // by their bits, never called.
    return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  /// After the dump: gives the signal back to the action it replaced, and raises it again
  /// (a trap's instruction also runs again when the handler returns, and traps into it).
  static func passOn(_ number: Int32) {
    _ = sigaction(number, &previous[Int(number)], nil)
    _ = raise(number)
  }
}

/// The handler of the fatal signals: writes the flight recorders' files, then passes the
/// signal on.
private func handleFatalSignal(_ number: Int32) {
  FlightCrashDump.dumpAll()
  FlightCrashDump.passOn(number)
}
