/// Writes the source of a test generated from a recording, one line per record.
struct TestSourceBuilder {
  private let app: String
  private let module: String
  private let architecture: Architecture
  private let command: String
  private let path: String
  private let suite: String
  private let generator: String
  private var start = "{}"
  private var startType = ""
  private var state = ""
  private var container = ""
  private var effects: [(record: Int, key: Int?, outcome: String)] = []
  private var steps: [String] = []
  /// The decoders the steps use: the name each is called by, and its type.
  private var decoders: [(name: String, type: String)] = []

  init(
    app: (some RecordingTestBlueprint).Type,
    architecture: Architecture,
    command: String,
    path: String,
    suite: String,
    generator: String
  ) {
    self.app = String(reflecting: app)
    module = String(self.app.prefix { $0 != "." })
    self.architecture = architecture
    self.command = "\(app.name) \(command)"
    self.path = path
    self.suite = suite
    self.generator = generator
    startType = String(reflecting: app.Start.self)
  }

  mutating func declare(start: String, state: String, container: String) {
    self.start = start
    self.state = state
    self.container = container
  }

  /// An intent the front sent.
  mutating func send(_ intent: String, record: Int) {
    use("intent", "\(app).Intent")
    steps.append("app.send(try intent(\(literal(intent))))  // #\(record)")
  }

  /// A reactor's action, whose mutations follow.
  mutating func note(_ input: String, record: Int) {
    steps.append("// #\(record): the action \(input); its mutations follow")
  }

  /// An effect's outcome, released before it is received.
  mutating func release(record: Int, key: Int?, outcome: String) {
    effects.append((record, key, outcome))
    steps.append("effects.release(\(record))")
  }

  /// An input received, with the change it made.
  mutating func receive(
    _ received: String,
    type: String,
    form: ReceivedForm,
    patch: String?,
    record: Int
  ) {
    let decoder = form == .mutation ? "mutation" : "input"
    use(decoder, type)
    var arguments = "\(decoder)(\(literal(received)))"
    if case .recorded(let recorded) = form { arguments += ", as: \(recorded)" }
    if let patch {
      use("patch", "")
      arguments += ", assert: patch(\(literal(patch)))"
    }
    steps.append("try await store.receive(\(arguments))  // #\(record)")
  }

  private mutating func use(_ name: String, _ type: String) {
    if !decoders.contains(where: { $0.name == name }) { decoders.append((name, type)) }
  }

  /// The file.
  func text(effectType: String) -> String {
    var lines: [String] = [
      "// swift-format-ignore-file",
      "// Generated from the recording \(path) (`\(command)`, on the \(architecture)) by",
      "// `\(generator)`",
      "// Do not edit it: make it again from the recording.",
      "import AppSupport",
      "import CascadeFeedback",
      "import CascadeReactor",
      "import CascadeStore",
      "import CascadeTesting",
      "import Testing",
      "",
      "@testable import \(module)",
      "",
      "/// `\(command)`, recorded on the \(architecture), replayed through the exhaustive",
      "/// `TestStore`: one line per record of the recording (its number after `#`), each",
      "/// received input with the change of state it made; the effects answer with their",
      "/// recorded outcomes, each released at the record that holds it.",
      "@Suite struct \(suite) {",
      "  @Test func replaysTheRecordingStepByStep() async throws {",
    ]
    if effects.isEmpty {
      lines.append("    let effects = RecordedEffects<\(effectType)>([])")
    } else {
      lines.append("    let effects = try RecordedEffects<\(effectType)>(json: [")
      for effect in effects {
        let key = effect.key.map(String.init) ?? "nil"
        lines.append(
          "      (record: \(effect.record), key: \(key), outcome: \(literal(effect.outcome))),"
        )
      }
      lines.append("    ])")
    }
    lines += [
      "    let start = try RecordedJSON<\(startType)>.decode(\(literal(start)))",
      "    let service = \(app).\(architecture).service(",
      "      \(app).testEnvironment(start: start, effects: effects)",
      "    )",
    ]
    if decoders.contains(where: { $0.name == "intent" }) {
      lines.append("    let app: any AppService<\(app).Intent, \(app).State> = service")
    }
    lines.append("    let store = TestStore(\(container))")
    for decoder in decoders {
      if decoder.name == "patch" {
        lines.append("    let patch = StatePatch<\(state)>.apply")
      } else {
        lines.append("    let \(decoder.name) = RecordedJSON<\(decoder.type)>.decode")
      }
    }
    lines.append("")
    lines += steps.map { "    " + $0 }
    lines += [
      "",
      "    await store.finish()",
      "    #expect(effects.problems == [])",
      "  }",
      "}",
      "",
    ]
    return lines.joined(separator: "\n")
  }
}

/// `text` as a raw string literal that nothing in it ends early.
func literal(_ text: String) -> String {
  var hashes = "#"
  while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
  return hashes + "\"" + text + "\"" + hashes
}
