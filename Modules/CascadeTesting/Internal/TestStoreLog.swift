import CascadeStore
import CascadeStreams
import CustomDump

/// What the architecture under a ``TestStore`` did, in order, as its store's probe reported it,
/// and what the test has asserted of it so far.
///
/// `Action` is what the test store sends, `Received` what it receives: a store's actions, a
/// reactor's actions and mutations, a loop's events.
final class TestStoreLog<State: Sendable, Action: Sendable, Received: Sendable>: Sendable {
  /// The states around something processed.
  struct Change {
    let before: State
    let after: State
  }

  /// One received input and the states around it.
  struct Step {
    let value: Received
    let change: Change
  }

  /// What was processed last before something happened, to say where it came from.
  enum Origin {
    case sent(Action)
    case received(Received)

    var description: String {
      switch self {
      case .sent(let action): "send(\(describe(action)))"
      case .received(let value): "receive(\(describe(value)))"
      }
    }
  }

  /// An asynchronous command in flight.
  struct Command {
    let name: String
    let origin: Origin?

    var description: String {
      "\"\(name)\", started " + (origin.map { "after \($0.description)" } ?? "before any action")
    }
  }

  struct Contents {
    /// The actions being sent, by mark, until their processing begins.
    var sending: [UInt64: Action] = [:]
    /// The states before the actions being processed, by mark (``willProcess(mark:before:)``).
    var processing: [UInt64: State] = [:]
    /// The changes of the actions the test store sent, by mark, until their `send` takes them.
    var sent: [UInt64: Change] = [:]
    /// Received inputs not asserted yet, in order.
    var received: [Step] = []
    /// Commands in flight, by task.
    var commands: [Int: Command] = [:]
    /// Commands already reported as still running.
    var reportedCommands: Set<Int> = []
    var reportedParked = false
    /// Whether work other than commands (streams, effects) was reported as still running.
    var reportedWork = false
    var last: Origin?
    var nextMark: UInt64 = 1
    var exhaustivity = Exhaustivity.on
    var timeout = Duration.seconds(60)
    var skipped: [String] = []
    /// Whether a task is waiting for the architecture to come to rest (``TestStore/watchWork()``).
    var watching = false
  }

  let contents = LockedValue(Contents())
  /// Signalled after every reduced input, every command that ends, every item scheduled on the
  /// test store's clock, and when the architecture comes to rest: what waits in `receive` and
  /// `finish` wake on.
  let changes = ChangeSignal()

  /// Records a reduced input: the change of a sent action (with its `mark`), or a received one.
  func reduced(_ value: Received, mark: UInt64?, before: State, after: State) {
    let change = Change(before: before, after: after)
    contents.withLock { contents in
      if let mark {
        contents.sent[mark] = change
        if let action = contents.sending.removeValue(forKey: mark) {
          contents.last = .sent(action)
        }
      } else {
        contents.received.append(Step(value: value, change: change))
        contents.last = .received(value)
      }
    }
    changes.signal()
  }

  /// Records a received input, one that no action of the test store caused.
  func received(_ value: Received, before: State, after: State) {
    reduced(value, mark: nil, before: before, after: after)
  }

  /// The processing of the action sent with `mark` begins, with the state before it (for
  /// architectures whose actions expand into other inputs, maybe none).
  func willProcess(mark: UInt64, before: State) {
    contents.withLock { contents in
      contents.processing[mark] = before
      if let action = contents.sending.removeValue(forKey: mark) {
        contents.last = .sent(action)
      }
    }
  }

  /// The processing of the action sent with `mark` ended, with the state after it.
  func didProcess(mark: UInt64, after: State) {
    contents.withLock { contents in
      guard let before = contents.processing.removeValue(forKey: mark) else { return }
      contents.sent[mark] = Change(before: before, after: after)
    }
    changes.signal()
  }

  func commandStarted(_ task: Int, name: String) {
    contents.withLock { contents in
      contents.commands[task] = Command(name: name, origin: contents.last)
    }
  }

  func commandFinished(_ task: Int) {
    contents.withLock { contents in
      contents.commands[task] = nil
      contents.reportedCommands.remove(task)
    }
    changes.signal()
  }

  /// A probe that records every reduced input, turned into what the test store receives by
  /// `received` (`nil` for inputs it does not receive).
  func probe<Input>(
    receiving received: @escaping @Sendable (Input) -> Received?
  ) -> StoreProbe<State, Input> {
    StoreProbe(
      reduced: { [self] input, mark, before, after in
        guard let value = received(input) else { return }
        reduced(value, mark: mark, before: before, after: after)
      },
      commandStarted: { [self] task, name in commandStarted(task, name: name) },
      commandFinished: { [self] task in commandFinished(task) }
    )
  }

  func withLock<T>(_ body: (inout Contents) -> T) -> T {
    contents.withLock(body)
  }

  var exhaustivity: Exhaustivity { contents.withLock { $0.exhaustivity } }

  var hasCommandsInFlight: Bool { contents.withLock { !$0.commands.isEmpty } }
}

/// An action (or any value) as CustomDump prints it, an enum case without its type name:
/// `.loaded(3)` rather than `Feature.Action.loaded(3)`.
func describe(_ value: some Any) -> String {
  let dump = String(customDumping: value)
  guard Mirror(reflecting: value).displayStyle == .enum else { return dump }
  let name = dump.prefix { $0 != "(" }
  guard !name.contains(where: \.isWhitespace), let dot = name.lastIndex(of: ".") else {
    return dump
  }
  return String(dump[dot...])
}

/// A list of actions, one per line, indented.
func describeList(_ actions: [some Any]) -> String {
  actions.map { describe($0).indentingLines(by: 2) }.joined(separator: "\n")
}

extension String {
  func indentingLines(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indentation + $0 }
      .joined(separator: "\n")
  }
}

/// Where a test store was created or an assertion was written, for the failures it reports.
struct CallSite: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt
}
