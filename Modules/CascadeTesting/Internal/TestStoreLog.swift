import CascadeStore
import CascadeStreams
import CustomDump

/// What a ``TestStore``'s store did, in order, as its probe reported it, and what the test has
/// asserted of it so far.
final class TestStoreLog<State: Sendable, Action: Sendable>: Sendable {
  /// One reduced action and the states around it.
  struct Step {
    let action: Action
    /// The mark the test store sent it with; `nil` for a received action.
    let mark: UInt64?
    let before: State
    let after: State
  }

  /// The action processed last before something happened, to say where it came from.
  struct Origin {
    let action: Action
    let sent: Bool

    var description: String {
      sent ? "send(\(describe(action)))" : "receive(\(describe(action)))"
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
    /// Actions the test store sent, by mark, until their `send` takes them.
    var sent: [UInt64: Step] = [:]
    /// Received actions not asserted yet, in order.
    var received: [Step] = []
    /// Commands in flight, by task.
    var commands: [Int: Command] = [:]
    /// Commands already reported as still running.
    var reportedCommands: Set<Int> = []
    var reportedParked = false
    var last: Origin?
    var nextMark: UInt64 = 1
    var exhaustivity = Exhaustivity.on
    var timeout = Duration.seconds(60)
    var skipped: [String] = []
  }

  let contents = LockedValue(Contents())
  /// Signalled after every reduced action, every command that ends, and every item scheduled on
  /// the test store's clock: what waits in `receive` and `finish` wake on.
  let changes = ChangeSignal()

  /// The probe that feeds the log.
  var probe: StoreProbe<State, Action> {
    StoreProbe(
      reduced: { [self] action, mark, before, after in
        let step = Step(action: action, mark: mark, before: before, after: after)
        contents.withLock { contents in
          if let mark {
            contents.sent[mark] = step
          } else {
            contents.received.append(step)
          }
          contents.last = Origin(action: action, sent: mark != nil)
        }
        changes.signal()
      },
      commandStarted: { [self] task, name in
        contents.withLock { contents in
          contents.commands[task] = Command(name: name, origin: contents.last)
        }
      },
      commandFinished: { [self] task in
        contents.withLock { contents in
          contents.commands[task] = nil
          contents.reportedCommands.remove(task)
        }
        changes.signal()
      }
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
