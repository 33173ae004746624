import Testing

@testable import CascadeReactor

/// The reactor's start as a state machine, transition by transition, with no threads: who
/// starts, what is queued, who waits, and in what order queued work comes out.
struct ReactorStartMachineTests {
  typealias Machine = ReactorStart<String, String>

  let starter: UInt = 1
  let other: UInt = 2

  /// A machine whose starter (thread 1) is building, entered by a first read.
  func building() -> Machine {
    var machine = Machine()
    guard case .start = machine.access(by: starter) else {
      Issue.record("the first read did not start the reactor")
      return machine
    }
    return machine
  }

  @Test func theFirstSendStartsAndIsTheFirstQueuedWork() {
    var machine = Machine()
    guard case .start = machine.enqueue("first", by: starter) else {
      Issue.record("the first send did not start the reactor")
      return
    }
    machine.built("core")
    guard case .run(let work) = machine.next() else {
      Issue.record("the first send's work was not queued")
      return
    }
    #expect(work == ["first"])
  }

  @Test func whileBuildingAllWorkIsQueuedInOrder() {
    var machine = building()
    for (work, thread) in [("a", starter), ("b", other), ("c", starter)] {
      guard case .queued = machine.enqueue(work, by: thread) else {
        Issue.record("\(work) was not queued while building")
        return
      }
    }
    machine.built("core")
    guard case .run(let work) = machine.next() else {
      Issue.record("nothing to run after building")
      return
    }
    #expect(work == ["a", "b", "c"])
  }

  @Test func whileBuildingTheStarterHasNoCoreAndOtherThreadsWait() {
    var machine = building()
    guard case .noCoreYet = machine.access(by: starter) else {
      Issue.record("the starter was not told there is no core yet")
      return
    }
    guard case .wait = machine.access(by: other), case .wait = machine.access(by: other) else {
      Issue.record("another thread was not told to wait")
      return
    }
    machine.built("core")
    guard case .started(let waking) = machine.next() else {
      Issue.record("the reactor did not start")
      return
    }
    #expect(waking == 2)
  }

  @Test func whileConnectingTheStarterUsesTheCoreAndOtherThreadsQueueOrWait() {
    var machine = building()
    machine.built("core")
    guard case .use(let core) = machine.access(by: starter) else {
      Issue.record("the starter did not get the core")
      return
    }
    #expect(core == "core")
    guard case .use = machine.enqueue("reentrant", by: starter) else {
      Issue.record("the starter's own work was queued")
      return
    }
    guard case .queued = machine.enqueue("elsewhere", by: other),
      case .wait = machine.access(by: other)
    else {
      Issue.record("another thread's work was not queued, or its read did not wait")
      return
    }
    guard case .run(let work) = machine.next() else {
      Issue.record("the other thread's work was not run")
      return
    }
    #expect(work == ["elsewhere"])
    guard case .started(let waking) = machine.next() else {
      Issue.record("the reactor did not start once nothing was left")
      return
    }
    #expect(waking == 1)
  }

  // Work queued while the starter runs the previous batch comes out in the next one.
  @Test func workQueuedWhileRunningABatchComesOutNext() {
    var machine = building()
    _ = machine.enqueue("a", by: other)
    machine.built("core")
    guard case .run(let first) = machine.next() else {
      Issue.record("no first batch")
      return
    }
    _ = machine.enqueue("b", by: other)
    guard case .run(let second) = machine.next() else {
      Issue.record("no second batch")
      return
    }
    #expect(first == ["a"])
    #expect(second == ["b"])
  }

  @Test func onceStartedEveryoneUsesTheCore() {
    var machine = building()
    machine.built("core")
    _ = machine.next()
    for thread in [starter, other] {
      guard case .use("core") = machine.access(by: thread),
        case .use("core") = machine.enqueue("work", by: thread)
      else {
        Issue.record("thread \(thread) did not use the core once started")
        return
      }
    }
  }
}
