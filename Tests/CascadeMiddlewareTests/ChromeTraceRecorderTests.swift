import CascadeMiddleware
import CascadeStore
import CascadeStreams
import CascadeTesting
import Foundation
import Testing

/// The engine's timings (`StoreTracer`, `StepTiming`) and the trace Perfetto opens
/// (`ChromeTraceRecorder`, `ChromeTrace`): issue 36's per-step trace.
@Suite(.checksResources)
struct ChromeTraceRecorderTests {
  /// Keeps what the engine hands a tracer, and the sequences the middleware path saw.
  final class Collector: Middleware, StoreTracer {
    let steps = Journal<StepTiming>()
    let sequences = Journal<UInt64>()
    let effects = Journal<String>()
    let stamps = Journal<UInt64>()

    var tracer: (any StoreTracer)? { self }
    var interceptsInputs: Bool { false }
    func process(_ record: MiddlewareRecord<Op, Tally>) { sequences.append(record.sequence) }
    func traced(_ step: StepTiming) { steps.append(step) }
    func effectStarted(_ effect: Int, name: String, at time: UInt64) {
      effects.append("start \(effect) \(name)")
      stamps.append(time)
    }
    func effectEnded(_ effect: Int, cancelled: Bool, at time: UInt64) {
      effects.append("end \(effect)\(cancelled ? " cancelled" : "")")
      stamps.append(time)
    }
  }

  /// Notes the clock when it runs, in interception or in processing.
  struct Stamp: Middleware {
    let intercepted: Journal<UInt64>
    let processed: Journal<UInt64>
    func intercept(_ input: Op, state: Tally) -> Op? {
      intercepted.append(StepTiming.now)
      return input
    }
    func process(_ record: MiddlewareRecord<Op, Tally>) { processed.append(StepTiming.now) }
  }

  @Test(arguments: Arch.allCases)
  func everyInputIsTimedOnceInOrderWithItsSequence(_ arch: Arch) {
    let collector = Collector()
    let running = Running.make(arch, middlewares: [collector])
    for op in [Op.add(2), .multiply(3), .note("x"), .reset] { running.send(op) }

    let steps = collector.steps.values
    #expect(steps.map(\.sequence) == collector.sequences.values)
    #expect(steps.map(\.sequence) == [1, 2, 3, 4])
    for step in steps {
      #expect(step.received <= step.intercepted)
      #expect(step.intercepted <= step.reduceStart)
      #expect(step.reduceStart <= step.reduced)
      #expect(step.reduced <= step.processed)
      #expect(step.processed <= step.delivered)
    }
    for (before, after) in zip(steps, steps.dropFirst()) {
      #expect(before.delivered <= after.received)
    }
  }

  /// Each phase holds what it names: a reducer's clock reading falls between `reduceStart` and
  /// `reduced`, an interception's before `intercepted`, a processing's between `reduced` and
  /// `processed`, a subscriber's between `processed` and `delivered`.
  @Test func eachPhaseHoldsWhatItNames() throws {
    let collector = Collector()
    let intercepted = Journal<UInt64>()
    let processed = Journal<UInt64>()
    let reduced = Journal<UInt64>()
    let delivered = Journal<UInt64>()
    let store = Store(
      initialState: Tally(),
      middlewares: [Stamp(intercepted: intercepted, processed: processed), collector],
      scheduler: TestScheduler()
    ) { state, op in
      reduced.append(StepTiming.now)
      state.apply(op)
    }
    let subscription = store.subscribe(on: .synchronous) { _ in delivered.append(StepTiming.now) }
    defer { subscription.dispose() }
    store.send(.add(1))
    store.send(.add(2))

    let steps = collector.steps.values
    try #require(steps.count == 2)
    for (index, step) in steps.enumerated() {
      #expect(step.received <= intercepted.values[index])
      #expect(intercepted.values[index] <= step.intercepted)
      #expect(step.reduceStart <= reduced.values[index])
      #expect(reduced.values[index] <= step.reduced)
      #expect(step.reduced <= processed.values[index])
      #expect(processed.values[index] <= step.processed)
      // The subscription's first delivery is the current state, at subscribing.
      #expect(step.processed <= delivered.values[index + 1])
      #expect(delivered.values[index + 1] <= step.delivered)
    }
  }

  @Test func aCommandIsAnEffectFromItsStartToItsEndAndACancelledOneSaysSo() async {
    let collector = Collector()
    let store = Store(
      initialState: Tally(),
      middlewares: [collector],
      scheduler: TestScheduler()
    ) { state, op in state.apply(op) }
    let gate = AsyncStream<Void>.makeStream()
    store.run("load") { _, store in
      for await _ in gate.stream { break }
      store.send(.add(5))
    }
    // Waits on a stream nothing ever yields to: only its cancellation ends it.
    let never = AsyncStream<Void>.makeStream()
    store.run("search", id: "search") { _, _ in
      for await _ in never.stream {}
    }
    store.cancel(id: "search")
    gate.continuation.yield()
    await store.finish()
    never.continuation.finish()

    let effects = collector.effects.values
    #expect(effects.count == 4)
    #expect(
      effects.filter { $0.hasPrefix("start") }.map { $0.split(separator: " ")[2] } == [
        "load", "search",
      ]
    )
    #expect(effects.contains { $0.hasPrefix("end") && $0.hasSuffix("cancelled") })
    #expect(effects.contains { $0.hasPrefix("end") && !$0.hasSuffix("cancelled") })
    #expect(collector.stamps.values == collector.stamps.values.sorted())
    #expect(store.state.value == 5)
  }

  @Test(arguments: Arch.allCases)
  func theTraceIsChromesFormatWithEachInputAndItsPhases(_ arch: Arch) throws {
    let trace = ChromeTraceRecorder<Op, Tally>(process: "tally \(arch)")
    let running = Running.make(arch, middlewares: [trace])
    running.send(.add(2))
    running.send(.note("say \"hi\"\n"))

    let events = try Self.events(of: trace.json())
    #expect(events.allSatisfy { $0["ph"] is String && $0["pid"] is Int && $0["tid"] is Int })
    let process = events.first { $0["name"] as? String == "process_name" }
    #expect((process?["args"] as? [String: Any])?["name"] as? String == "tally \(arch)")
    let inputs = events.filter { $0["cat"] as? String == "input" }
    #expect(inputs.map { $0["name"] as? String } == ["add(2)", #"note("say \"hi\"\n")"#])
    #expect(inputs.map { ($0["args"] as? [String: Any])?["sequence"] as? Int } == [1, 2])
    for input in inputs {
      let start = try #require(input["ts"] as? Double)
      let end = start + (try #require(input["dur"] as? Double))
      // Each phase lies within its input's slice, on its thread.
      let phases = events.filter {
        $0["ph"] as? String == "X" && $0["cat"] == nil && $0["tid"] as? Int == input["tid"] as? Int
          && ($0["ts"] as? Double ?? -1) >= start && ($0["ts"] as? Double ?? -1) <= end
      }
      let names = Set(phases.compactMap { $0["name"] as? String })
      #expect(names.isSubset(of: ["intercept", "step", "reduce", "middleware", "delivery"]))
      for phase in phases {
        let phaseEnd = (phase["ts"] as? Double ?? 0) + (phase["dur"] as? Double ?? 0)
        #expect(phaseEnd <= end + 0.001)
      }
    }
  }

  @Test func effectsAreAsyncSlicesAndOneStillRunningLastsToTheEnd() async throws {
    let trace = ChromeTraceRecorder<Op, Tally>()
    let store = Store(
      initialState: Tally(),
      middlewares: [trace],
      scheduler: TestScheduler()
    ) { state, op in state.apply(op) }
    store.run("quick") { _, store in store.send(.add(1)) }
    let gate = AsyncStream<Void>.makeStream()
    store.run("waiting") { _, _ in
      for await _ in gate.stream { break }
    }

    let events = try Self.events(of: trace.json())
    let begins = events.filter { $0["ph"] as? String == "b" }
    let ends = events.filter { $0["ph"] as? String == "e" }
    #expect(begins.map { $0["name"] as? String } == ["quick", "waiting"])
    #expect(
      ends.map { ($0["args"] as? [String: Any])?["outcome"] as? String } == ["ended", "running"]
    )
    #expect(
      Set(begins.compactMap { $0["id"] as? String }) == Set(ends.compactMap { $0["id"] as? String })
    )
    let lastEnd = events.compactMap { event -> Double? in
      guard let ts = event["ts"] as? Double else { return nil }
      return ts + (event["dur"] as? Double ?? 0)
    }.max()
    #expect(ends.last?["ts"] as? Double == lastEnd)

    gate.continuation.yield()
    await store.finish()
    let after = try Self.events(of: trace.json()).filter { $0["ph"] as? String == "e" }
    #expect(
      after.map { ($0["args"] as? [String: Any])?["outcome"] as? String } == ["ended", "ended"]
    )
  }

  @Test func onlyTheLastInputsAreKept() throws {
    let trace = ChromeTraceRecorder<Op, Tally>(capacity: 2)
    let running = Running.make(.store, middlewares: [trace])
    for amount in 1...5 { running.send(.add(amount)) }

    let inputs = try Self.events(of: trace.json()).filter { $0["cat"] as? String == "input" }
    #expect(inputs.map { $0["name"] as? String } == ["add(4)", "add(5)"])
  }

  /// The last inputs asked for, in order, once the ring has wrapped around.
  @Test func aTraceOfTheLastInputsTakesThemInOrderFromAWrappedRing() throws {
    let buffer = TraceBuffer(capacity: 4)
    let running = Running.make(.store, middlewares: [BufferedBy(buffer: buffer)])
    for amount in 1...6 { running.send(.add(amount)) }

    func sequences(last: Int) throws -> [Int] {
      try Self.events(of: buffer.trace(process: "tally", last: last) { _, _ in nil }.json())
        .filter { $0["cat"] as? String == "input" }
        .compactMap { ($0["args"] as? [String: Any])?["sequence"] as? Int }
    }
    #expect(try sequences(last: 2) == [5, 6])
    #expect(try sequences(last: 10) == [3, 4, 5, 6])
    #expect(try sequences(last: 0) == [])
  }

  /// Inputs given after timings without them, the ring wrapped or not: each timing is named by
  /// its own input, or by none.
  @Test func inputsGivenLaterStayWithTheirTimingsAcrossTheRingsWrap() throws {
    let buffer = TraceBuffer(capacity: 4)
    func timing(_ sequence: UInt64) -> StepTiming {
      StepTiming(
        sequence: sequence,
        thread: 1,
        received: sequence * 10,
        intercepted: sequence * 10,
        reduceStart: sequence * 10,
        reduced: sequence * 10 + 1,
        processed: sequence * 10 + 2,
        delivered: sequence * 10 + 3
      )
    }
    for sequence in UInt64(1)...5 { buffer.traced(timing(sequence)) }
    buffer.traced(timing(6), input: "input 6")
    buffer.traced(timing(7))
    buffer.traced(timing(8), input: "input 8")

    let named = buffer.trace(process: "tally") { step, input in
      "\(step.sequence): \(input.map { "\($0)" } ?? "none")"
    }
    let names = try Self.events(of: named.json())
      .filter { $0["cat"] as? String == "input" }
      .compactMap { $0["name"] as? String }
    #expect(names == ["5: none", "6: input 6", "7: none", "8: input 8"])
    // Not wrapped yet: the same.
    let short = TraceBuffer(capacity: 8)
    short.traced(timing(1))
    short.traced(timing(2), input: "input 2")
    let shortNames = try Self.events(
      of: short.trace(process: "tally") { step, input in
        "\(step.sequence): \(input.map { "\($0)" } ?? "none")"
      }.json()
    ).filter { $0["cat"] as? String == "input" }.compactMap { $0["name"] as? String }
    #expect(shortNames == ["1: none", "2: input 2"])
  }

  /// A middleware whose tracer is `buffer`.
  struct BufferedBy: Middleware {
    let buffer: TraceBuffer
    var tracer: (any StoreTracer)? { buffer }
    var interceptsInputs: Bool { false }
    func process(_ record: MiddlewareRecord<Op, Tally>) {}
  }

  @Test func theFileIsWrittenWhole() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let trace = ChromeTraceRecorder<Op, Tally>()
    let running = Running.make(.feedback, middlewares: [trace])
    running.send(.add(1))
    let url = directory.file("tally.trace.json")
    try trace.write(to: url)

    let events = try Self.events(of: String(contentsOf: url, encoding: .utf8))
    #expect(events.contains { $0["name"] as? String == "add(1)" })
  }

  @Test func aTraceWithoutStepsIsValid() throws {
    let events = try Self.events(of: ChromeTrace(process: "empty").json())
    #expect(events.count == 1)
    #expect(ChromeTrace(process: "empty").isEmpty)
  }

  /// A middleware whose tracer is a `TraceBuffer`, switched off at first.
  struct Buffered: Middleware {
    let buffer = TraceBuffer(tracing: false)
    var tracer: (any StoreTracer)? { buffer }
    var interceptsInputs: Bool { false }
    func process(_ record: MiddlewareRecord<Op, Tally>) {}
  }

  /// The inputs' slices of `buffer`'s trace, by their sequences.
  static func tracedSequences(_ buffer: TraceBuffer) throws -> [Int] {
    try events(of: buffer.trace(process: "tally") { _, _ in nil }.json())
      .filter { $0["cat"] as? String == "input" }
      .compactMap { ($0["args"] as? [String: Any])?["sequence"] as? Int }
  }

  /// A tracer switched off (`isTracing` false) is handed no input: the engine reads no clock for
  /// it; switched on, it has the inputs from then on, and off again, no more.
  @Test(arguments: Arch.allCases)
  func aTracerSwitchedOffIsHandedNothingAndOnKeepsFromThen(_ arch: Arch) throws {
    let buffered = Buffered()
    let running = Running.make(arch, middlewares: [buffered])
    running.send(.add(1))
    running.send(.add(2))
    #expect(try Self.tracedSequences(buffered.buffer).isEmpty)

    buffered.buffer.startTracing()
    running.send(.add(3))
    running.send(.multiply(2))
    buffered.buffer.stopTracing()
    running.send(.add(4))
    #expect(try Self.tracedSequences(buffered.buffer) == [3, 4])
  }

  /// Beside a tracer that traces, one switched off ignores what it is handed; an effect begun
  /// while tracing ends in the trace after the tracing stopped, one begun before is not in it.
  @Test func aTracerOffIgnoresTheTimingsAndKeepsTheEndsOfTheEffectsItSawBegin() async throws {
    let buffered = Buffered()
    let collector = Collector()
    let store = Store(
      initialState: Tally(),
      middlewares: [buffered, collector],
      scheduler: TestScheduler()
    ) { state, op in state.apply(op) }
    let gate = AsyncStream<Void>.makeStream()
    store.run("before") { _, _ in
      for await _ in gate.stream { break }
    }
    store.send(.add(1))
    buffered.buffer.startTracing()
    store.run("during") { _, _ in
      for await _ in gate.stream { break }
    }
    store.send(.add(2))
    buffered.buffer.stopTracing()
    gate.continuation.finish()
    await store.finish()

    #expect(collector.steps.values.map(\.sequence) == [1, 2])
    #expect(try Self.tracedSequences(buffered.buffer) == [2])
    let effects = try Self.events(
      of: buffered.buffer.trace(process: "tally") { _, _ in nil }.json()
    )
    .filter { $0["ph"] as? String == "b" || $0["ph"] as? String == "e" }
    #expect(effects.map { $0["name"] as? String } == ["during", "during"])
    #expect((effects.last?["args"] as? [String: Any])?["outcome"] as? String == "ended")
  }

  static func events(of json: String) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    #expect(object?["displayTimeUnit"] as? String == "ns")
    return try #require(object?["traceEvents"] as? [[String: Any]])
  }
}
