public import CascadeStore

/// A trace in Chrome's trace event format (the JSON object form, `{"traceEvents":[…]}`), which
/// Perfetto (ui.perfetto.dev) and `chrome://tracing` open.
///
/// Each input is a slice on the track of the thread that processed it, named by the input, with
/// the phases inside it: `intercept` (the middlewares' interception), `step` (a reactor's
/// `mutate`), `reduce`, `middleware` (their processing) and `delivery` (to subscribers). Each
/// effect is an asynchronous slice from its start to its end, on a track of its own, its name
/// the effect's, its end's `args.outcome` `ended`, `cancelled` or `running` (still running when
/// the trace was taken: it lasts to the trace's last event). Times are microseconds from the
/// first event; an empty phase is left out.
///
/// ```swift
/// var trace = ChromeTrace(process: "Todo")
/// trace.add(step: timing, name: "addTask")
/// trace.addEffect(id: 3, name: "save", start: started, end: ended, cancelled: false)
/// try Data(trace.json().utf8).write(to: URL(fileURLWithPath: "todo.trace.json"))
/// ```
public struct ChromeTrace: Sendable {
  /// The process's name in the trace viewer.
  public var process: String
  private var steps: [(timing: StepTiming, name: String)] = []
  private var effects: [(id: Int, name: String, start: UInt64, end: UInt64?, cancelled: Bool)] = []

  /// An empty trace of a process named `process`.
  public init(process: String) {
    self.process = process
  }

  /// Whether the trace has no step and no effect.
  public var isEmpty: Bool { steps.isEmpty && effects.isEmpty }

  /// Adds one input's timings, named `name`.
  public mutating func add(step timing: StepTiming, name: String) {
    steps.append((timing, name))
  }

  /// Adds an effect from `start` to `end` (`StepTiming.now`); `end` is `nil` for an effect
  /// still running, which then lasts to the trace's last event.
  public mutating func addEffect(
    id: Int,
    name: String,
    start: UInt64,
    end: UInt64?,
    cancelled: Bool
  ) {
    effects.append((id, name, start, end, cancelled))
  }

  /// The trace as JSON text.
  public func json() -> String {
    let starts = steps.map(\.timing.received) + effects.map(\.start)
    let origin = starts.min() ?? 0
    let ends = steps.map(\.timing.delivered) + effects.map { $0.end ?? $0.start }
    let last = ends.max() ?? origin
    /// `time` in microseconds since `origin`.
    func micros(_ time: UInt64) -> String { duration(time >= origin ? time - origin : 0) }
    /// `nanos` nanoseconds in microseconds, to the nanosecond.
    func duration(_ nanos: UInt64) -> String {
      let fraction = nanos % 1000
      let fractionText = String(fraction)
      return "\(nanos / 1000)." + String(repeating: "0", count: 3 - fractionText.count)
        + fractionText
    }
    var out = #"{"displayTimeUnit":"ns","traceEvents":["#
    var first = true
    func event(_ text: String) {
      if !first { out += "," }
      first = false
      out += "\n" + text
    }
    event(
      #"{"ph":"M","pid":1,"tid":0,"name":"process_name","args":{"name":"#
        + Self.quoted(process) + "}}"
    )
    // Threads numbered in the order they first processed an input.
    var threads: [UInt: Int] = [:]
    for step in steps where threads[step.timing.thread] == nil {
      let number = threads.count + 1
      threads[step.timing.thread] = number
      let name = number == 1 ? "processing" : "processing \(number)"
      event(
        #"{"ph":"M","pid":1,"tid":\#(number),"name":"thread_name","args":{"name":"#
          + Self.quoted(name) + "}}"
      )
    }
    for (timing, name) in steps {
      let tid = threads[timing.thread] ?? 1
      func slice(_ name: String, _ from: UInt64, _ to: UInt64) {
        guard to > from else { return }
        event(
          #"{"ph":"X","pid":1,"tid":\#(tid),"ts":\#(micros(from)),"dur":\#(duration(to - from)),"name":"#
            + Self.quoted(name) + "}"
        )
      }
      event(
        #"{"ph":"X","pid":1,"tid":\#(tid),"ts":\#(micros(timing.received)),"dur":\#(duration(timing.delivered &- timing.received)),"cat":"input","name":"#
          + Self.quoted(name) + #","args":{"sequence":\#(timing.sequence)}}"#
      )
      slice("intercept", timing.received, timing.intercepted)
      slice("step", timing.intercepted, timing.reduceStart)
      slice("reduce", timing.reduceStart, timing.reduced)
      slice("middleware", timing.reduced, timing.processed)
      slice("delivery", timing.processed, timing.delivered)
    }
    for (index, effect) in effects.enumerated() {
      let end = effect.end ?? last
      let id = #""0x\#(String(index + 1, radix: 16))""#
      let name = Self.quoted(effect.name)
      event(
        #"{"ph":"b","pid":1,"tid":0,"cat":"effect","id":\#(id),"ts":\#(micros(effect.start)),"name":\#(name),"args":{"effect":\#(effect.id)}}"#
      )
      let outcome = effect.end == nil ? "running" : effect.cancelled ? "cancelled" : "ended"
      event(
        #"{"ph":"e","pid":1,"tid":0,"cat":"effect","id":\#(id),"ts":\#(micros(end)),"name":\#(name),"args":{"outcome":"\#(outcome)"}}"#
      )
    }
    out += "\n]}\n"
    return out
  }

  /// `text` as a JSON string literal.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
