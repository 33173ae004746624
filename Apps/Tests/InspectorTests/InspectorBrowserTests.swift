import AppSupport
import AppTestSupport
import Foundation
import RPGCore
import Testing

/// The inspector's page in a real browser (headless Chromium, driven over the DevTools
/// protocol), as a user works it.
///
/// A recording the RPG made is stepped through with the arrow keys, the slider, a click on the
/// timeline, Home and End; the state tree and the diff the page shows at three steps are read
/// back from the page and compared with the RPG's own replay of the recording; the kind filter
/// and the search narrow the timeline; inputs are shown by name, their payloads as trees; a
/// screenshot is taken. In live mode, the page follows a running `todo
/// --inspect` step by step, replays to a step, shows the app's trace (each input's phases, each
/// write as an effect), and shows the app's end. Every wait is on the
/// page itself (a `MutationObserver` resolves when what is awaited shows), never on a clock.
///
/// Set `CASCADE_INSPECTOR_SCREENSHOT` to a path to keep the screenshot, and
/// `CASCADE_INSPECTOR_SEARCH_SCREENSHOT` for one of a search, `CASCADE_INSPECTOR_SKIP_SCREENSHOT`
/// for a skip and `CASCADE_INSPECTOR_TRACE_SCREENSHOT` for a live app's trace (the README's are
/// made so).
// The time limit is the safety net of every wait on the browser: it cancels a test whose page
// never shows what it waits for.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InspectorBrowserTests {
  static let inspector = InspectorExecutableTests.inspector
  static let rpg = InspectorExecutableTests.rpg

  /// Runs `body` with a browser, and ends the browser however `body` ends.
  static func withBrowser<T>(_ body: (Chromium) async throws -> T) async throws -> T {
    let browser = try await Chromium.launch()
    do {
      let result = try await body(browser)
      await browser.close()
      return result
    } catch {
      await browser.close()
      throw error
    }
  }

  /// The state tree the page shows, read back from its elements into JSON: an open `details`
  /// per object or array (its summary `key: {…}` or `key: [n]`), a leaf per value.
  static let shownState = """
    (() => {
      const keyOf = (element) => {
        const key = element.querySelector(":scope > .key, :scope > summary > .key");
        return key ? key.textContent.slice(0, -2) : null;
      };
      const read = (element) => {
        if (element.tagName === "DETAILS") {
          const summary = element.querySelector(":scope > summary");
          const children = [...element.children].filter((child) => child !== summary);
          if (summary.textContent.trim().endsWith("]")) return children.map(read);
          const object = {};
          for (const child of children) object[keyOf(child)] = read(child);
          return object;
        }
        return JSON.parse(element.querySelector(":scope > span:not(.key)").textContent);
      };
      return read(document.getElementById("state").firstElementChild);
    })()
    """

  /// What the page shows once step `index` (at `position` of `total` in the timeline) is chosen:
  /// the state tree, read back, and the diff's text.
  static func shown(
    _ page: BrowserPage,
    step index: Int,
    position: Int,
    of total: Int
  ) async throws -> (state: GameState, diff: String) {
    let title = "State after step #\(index) ("
    _ = try await page.waitFor(
      """
      document.getElementById("step-title").textContent.startsWith(\(BrowserPage.literal(title)))
        && document.getElementById("position").textContent === "\(position + 1) / \(total)"
      """
    )
    let tree = try #require(try await page.evaluate(shownState) as? [String: Any])
    let state = try JSONDecoder().decode(
      GameState.self,
      from: JSONSerialization.data(withJSONObject: tree)
    )
    let diff = try #require(
      try await page.evaluate(#"document.getElementById("diff").textContent"#) as? String
    )
    return (state, diff)
  }

  /// Proves that the page steps through a recording the RPG made, by keys, slider and click,
  /// and shows at three steps the state and diff the RPG's own replay gives; that the kind
  /// filter narrows the timeline to one kind; and that the page renders (a screenshot) — on
  /// every architecture.
  @Test(
    .enabled(
      if: Chromium.isAvailable && inspector != nil && rpg != nil,
      "install chromium; build cascade-inspect and rpg"
    ),
    arguments: Architecture.allCases
  )
  func aRecordingIsSteppedThroughInTheBrowser(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try await InspectorExecutableTests.record(architecture, in: directory)
    let kinds = try InspectorExecutableTests.kinds(of: recording, architecture: architecture)
    let replayed = try await InspectorExecutableTests.replayedStates(
      architecture,
      of: recording,
      in: directory
    )
    let intentPositions = kinds.indices.filter { kinds[$0] == "intent" }
    let total = kinds.count
    let served = try await InspectorExecutableTests.serve(recording)

    try await Self.withBrowser { browser in
      let url = try #require(URL(string: "http://127.0.0.1:\(served.port)/?token=\(served.token)"))
      let page = try await browser.open(url)
      let first = try await Self.shown(page, step: 0, position: 0, of: total)
      #expect(first.state == GameState(), "before any input the game is the initial one")
      let summary = try await page.evaluate(#"document.getElementById("summary").textContent"#)
      #expect(
        summary as? String == "rpg play on the \(architecture.rawValue) · \(total) steps",
        "\(String(describing: summary))"
      )

      // The last input of the explore, of the second attack and of the save: reached by the
      // arrow key, the slider and a click on the timeline.
      var shots: Data?
      for (number, reach) in [(1, "keys"), (3, "slider"), (4, "click")] {
        let end = number + 1 < intentPositions.count ? intentPositions[number + 1] : total
        let index = end - 1
        switch reach {
        case "keys":
          for _ in 0..<index { try await page.press(.arrowRight) }
        case "slider":
          _ = try await page.evaluate(
            """
            (() => {
              const slider = document.getElementById("slider");
              slider.value = \(index);
              slider.dispatchEvent(new Event("input"));
            })()
            """
          )
        default:
          try await page.click("#rows .row[data-position='\(index)']")
        }
        let shown = try await Self.shown(page, step: index, position: index, of: total)
        #expect(shown.state == replayed[number + 1], "the state after intent #\(number) (\(reach))")
        let previous = try InspectorExecutableTests.state(in: served.get("/api/step/\(index - 1)"))
        let expectedDiff = try #require(
          try InspectorExecutableTests.diff(previous, replayed[number + 1])
        )
        #expect(shown.diff == expectedDiff, "the diff after intent #\(number) (\(reach))")
        if number == 4 { shots = try await page.screenshot() }
      }

      // End, Home, and a left arrow that has nowhere to go.
      try await page.press(.end)
      _ = try await Self.shown(page, step: total - 1, position: total - 1, of: total)
      try await page.press(.home)
      try await page.press(.arrowLeft)
      let again = try await Self.shown(page, step: 0, position: 0, of: total)
      #expect(again.state == GameState())

      // The filter: only the intents, the first chosen; the next one is the second intent.
      _ = try await page.evaluate(
        """
        (() => {
          const kind = document.getElementById("kind");
          kind.value = "intent";
          kind.dispatchEvent(new Event("change"));
        })()
        """
      )
      let intents = intentPositions.count
      let atFirst = try await Self.shown(page, step: intentPositions[0], position: 0, of: intents)
      #expect(atFirst.diff == "(no change)", "an intent changes nothing by itself")
      let rowKinds = try await page.waitFor(
        """
        (() => {
          const kinds = [...document.querySelectorAll("#rows .row .kind")]
            .map((kind) => kind.textContent);
          return kinds.length === \(intents) && kinds;
        })()
        """
      )
      #expect(rowKinds as? [String] == Array(repeating: "intent", count: intents))
      try await page.press(.arrowRight)
      _ = try await Self.shown(page, step: intentPositions[1], position: 1, of: intents)

      // Each input by the name its Swift source spells, not its Codable JSON (issue 36).
      let rowNames = try await page.waitFor(
        """
        (() => {
          const names = [...document.querySelectorAll("#rows .row")]
            .map((row) => row.lastChild ? row.lastChild.textContent : "");
          return names.length === \(intents) && names.every((name) => name !== "") && names;
        })()
        """
      )
      #expect(
        rowNames as? [String] == [
          #"newGame(name: "Ada", seed: 42)"#, "explore", "attack", "attack",
          "save(overwrite: false)", "load",
        ]
      )
      // Its payload as a tree: the case, then its labelled values.
      try await page.press(.home)
      _ = try await Self.shown(page, step: intentPositions[0], position: 0, of: intents)
      let inputTree = try await page.evaluate(
        """
        [...document.querySelectorAll("#input .case, #input .key, #input .leaf > span:not(.key)")]
          .map((element) => element.textContent)
        """
      )
      #expect(inputTree as? [String] == ["newGame", "name: ", #""Ada""#, "seed: ", "42"])

      // The search, within the kind: the two attacks; then cleared, every intent again.
      for (text, expected) in [("ATTACK", [2, 3]), ("", Array(0..<intents))] {
        _ = try await page.evaluate(
          """
          (() => {
            const search = document.getElementById("search");
            search.value = \(BrowserPage.literal(text));
            search.dispatchEvent(new Event("input"));
          })()
          """
        )
        let first = intentPositions[expected[0]]
        _ = try await Self.shown(page, step: first, position: 0, of: expected.count)
        let found = try await page.waitFor(
          """
          (() => {
            const rows = [...document.querySelectorAll("#rows .row")];
            return rows.length === \(expected.count)
              && rows.every((row) => row.lastChild && row.lastChild.textContent !== "")
              && rows.map((row) => row.lastChild.textContent);
          })()
          """
        )
        let names =
          [#"newGame(name: "Ada", seed: 42)"#, "explore", "attack", "attack"]
          + ["save(overwrite: false)", "load"]
        #expect(found as? [String] == expected.map { names[$0] }, "search \(text)")
        if !text.isEmpty, architecture == .reactor,
          let path = ProcessInfo.processInfo.environment["CASCADE_INSPECTOR_SEARCH_SCREENSHOT"]
        {
          try await page.screenshot().write(to: URL(fileURLWithPath: path))
        }
      }

      // The page as the user saw it at the save: a PNG of the browser's window size.
      let image = try #require(shots)
      #expect(image.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
      let width = image[16..<20].reduce(0) { $0 << 8 | Int($1) }
      let height = image[20..<24].reduce(0) { $0 << 8 | Int($1) }
      #expect(width == 1280 && height == 800, "\(width) × \(height)")
      if let path = ProcessInfo.processInfo.environment["CASCADE_INSPECTOR_SCREENSHOT"],
        architecture == .reactor
      {
        try image.write(to: URL(fileURLWithPath: path))
      }
      let errorShown = try await page.evaluate(#"document.getElementById("error").hidden"#)
      #expect(errorShown as? Bool == true, "the page showed an error")
    }
    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// Proves that the page skips a chosen input (its row struck through, its step changing
  /// nothing, the states after it recomputed), brings it back, commits a step as the start
  /// (the timeline begins after it), exports the recording as a test, and exports and imports
  /// the session — the controls a Redux DevTools user expects.
  @Test(
    .enabled(
      if: Chromium.isAvailable && inspector != nil && rpg != nil,
      "install chromium; build cascade-inspect and rpg"
    )
  )
  func anInputIsSkippedAndAStepCommittedInTheBrowser() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let recording = try await InspectorExecutableTests.record(.store, in: directory)
    let kinds = try InspectorExecutableTests.kinds(of: recording, architecture: .store)
    let intents = kinds.indices.filter { kinds[$0] == "intent" }
    let total = kinds.count
    let served = try await InspectorExecutableTests.serve(recording)
    // The first attack's first input (its event), and the last step before the save.
    let skipped = intents[2] + 1
    let beforeSave = intents[4] - 1
    let original = try InspectorExecutableTests.state(in: served.get("/api/step/\(beforeSave)"))

    try await Self.withBrowser { browser in
      let url = try #require(URL(string: "http://127.0.0.1:\(served.port)/?token=\(served.token)"))
      let page = try await browser.open(url)
      _ = try await Self.shown(page, step: 0, position: 0, of: total)
      let tools = try await page.evaluate(#"!document.getElementById("edit-tools").hidden"#)
      #expect(tools as? Bool == true, "a recording offers skip and commit")
      // "Export as test": the link the page shows downloads the recording's generated test.
      let test = try await page.evaluate(
        """
        (async () => {
          const link = document.getElementById("export-test");
          if (link.hidden) return "hidden";
          return await (await fetch(link.href)).text();
        })()
        """
      )
      let source = try #require(test as? String)
      #expect(source.contains("@Suite struct RPGPlayStoreRecordingTests"), "\(source.prefix(300))")
      #expect(source.contains("let store = TestStore(service.container)"))

      try await page.click("#rows .row[data-position='\(skipped)']")
      _ = try await Self.shown(page, step: skipped, position: skipped, of: total)
      try await page.click("#skip")
      _ = try await page.waitFor(
        """
        document.getElementById("step-title").textContent.endsWith("— skipped")
          && document.querySelector("#rows .row[data-position='\(skipped)']")
            .classList.contains("skipped")
          && document.getElementById("diff").textContent === "(no change)"
        """
      )
      if let path = ProcessInfo.processInfo.environment["CASCADE_INSPECTOR_SKIP_SCREENSHOT"] {
        try await page.screenshot().write(to: URL(fileURLWithPath: path))
      }
      // The states after it are recomputed without it.
      try await page.click("#rows .row[data-position='\(beforeSave)']")
      let without = try await Self.shown(page, step: beforeSave, position: beforeSave, of: total)
      #expect(without.state != original)
      #expect(without.state.changes == original.changes - 1)

      // Brought back.
      try await page.click("#rows .row[data-position='\(skipped)']")
      _ = try await Self.shown(page, step: skipped, position: skipped, of: total)
      try await page.click("#skip")
      _ = try await page.waitFor(
        """
        !document.getElementById("step-title").textContent.endsWith("— skipped")
          && !document.querySelector("#rows .row[data-position='\(skipped)']")
            .classList.contains("skipped")
        """
      )
      try await page.click("#rows .row[data-position='\(beforeSave)']")
      let again = try await Self.shown(page, step: beforeSave, position: beforeSave, of: total)
      #expect(again.state == original)

      // Commit at the first attack: the timeline starts after it.
      try await page.click("#rows .row[data-position='\(intents[2])']")
      _ = try await Self.shown(page, step: intents[2], position: intents[2], of: total)
      try await page.click("#commit")
      let rest = total - intents[2] - 1
      _ = try await Self.shown(page, step: intents[2] + 1, position: 0, of: rest)

      // Export, then import the export through the page's file field: the page starts again
      // with it, its steps those the timeline showed.
      _ = try await page.evaluate(
        """
        (async () => {
          const text = await (await fetch("/api/export")).text();
          const files = new DataTransfer();
          files.items.add(new File([text], "export.jsonl"));
          const field = document.getElementById("import");
          field.files = files.files;
          field.dispatchEvent(new Event("change"));
        })()
        """
      )
      _ = try await page.waitFor(
        """
        document.getElementById("summary").textContent.includes("· \(rest) steps")
          && document.getElementById("position").textContent === "1 / \(rest)"
        """
      )
      let errorShown = try await page.evaluate(#"document.getElementById("error").hidden"#)
      #expect(errorShown as? Bool == true, "the page showed an error")
    }
    let run = await served.child.stop()
    #expect(run.succeeded, "\(run.summary)")
  }

  /// Proves that the page follows a running `todo shell --inspect` as it works: each task added
  /// shows in the state tree as the app processes it, "Replay to here" brings a fresh service to
  /// the step shown with the same state, the trace view times the app from its opening on and
  /// draws those inputs, and the app's end is shown — on every architecture.
  @Test(
    .enabled(
      if: Chromium.isAvailable && InspectorLiveTests.todo != nil && inspector != nil,
      "install chromium; build cascade-inspect and todo"
    ),
    arguments: Architecture.allCases
  )
  func aRunningAppIsFollowedLiveInTheBrowser(_ architecture: Architecture) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let app = try await InspectorLiveTests.startTodo(
      architecture,
      database: directory.file("todo.sqlite")
    )
    let inspector = try await InspectorLiveTests.attach(to: app.endpoint)

    try await Self.withBrowser { browser in
      let url = try #require(
        URL(string: "http://127.0.0.1:\(inspector.port)/?token=\(inspector.token)")
      )
      let page = try await browser.open(url)
      _ = try await page.waitFor(#"document.getElementById("summary").className === "live""#)
      let replayShown = try await page.evaluate(#"!document.getElementById("live-tools").hidden"#)
      #expect(replayShown as? Bool == true, "live mode offers Replay to here")

      // Each task shows as the app writes it: the page follows the last step.
      func add(_ titles: String...) async throws {
        for title in titles {
          app.type("add \(title)\n")
          _ = try await page.waitFor(
            """
            [...document.querySelectorAll("#state .key")].some((key) => key.textContent === "title: "
              && key.nextSibling && key.nextSibling.textContent === \(BrowserPage.literal("\"\(title)\"")))
            """
          )
        }
      }
      try await add("Buy milk", "Walk")
      let rows = try await page.evaluate(
        ##"[...document.querySelectorAll("#rows .row")].map((row) => row.textContent).join("\n")"##
      )
      #expect((rows as? String)?.contains("Walk") == true, "\(String(describing: rows))")

      // Replay to the step shown: a fresh service, no effect, the same state.
      try await page.click("#replay")
      let outcome = try await page.waitFor(
        """
        ["same", "differs"].includes(document.getElementById("replayed").className)
          && document.getElementById("replayed").className
        """
      )
      let message = try await page.evaluate(#"document.getElementById("replayed").textContent"#)
      #expect(outcome as? String == "same", "\(String(describing: message))")

      // The trace: each input's phases and the writes as effects, as Perfetto shows them. The
      // app is timed only from the view's opening on: the tasks are added once it records.
      let traceShown = try await page.evaluate(#"!document.getElementById("trace").hidden"#)
      #expect(traceShown as? Bool == true, "live mode offers the trace")
      let traceLink = try #require(
        try await page.evaluate(#"document.getElementById("trace").getAttribute("href")"#)
          as? String
      )
      #expect(traceLink.hasPrefix("/trace.html?token="), "the view asks with the token")
      let trace = try await browser.open(
        try #require(URL(string: "http://127.0.0.1:\(inspector.port)\(traceLink)"))
      )
      let recording = try await trace.waitFor(
        ##"""
        document.getElementById("recording").className === "recording"
          || (!document.getElementById("error").hidden
            && document.getElementById("error").textContent)
        """##
      )
      #expect(recording as? Bool == true, "the view records: \(String(describing: recording))")
      try await add("Read", "Cook")
      try await trace.click("#refresh")
      // Drawn with the last task added, or an error shown: a failure is reported at once, not at
      // the time limit.
      _ = try await trace.waitFor(
        ##"""
        (document.querySelectorAll("#phases tbody tr").length === 6
          && [...document.querySelectorAll("#inputs rect.phase-input title")]
            .some((title) => title.textContent.includes('title: "Cook")')))
          || !document.getElementById("error").hidden
        """##
      )
      let traceError = try await trace.evaluate(
        #"document.getElementById("error").hidden ? "" : document.getElementById("error").textContent"#
      )
      #expect(traceError as? String == "", "the trace view: \(String(describing: traceError))")
      let drawn = try #require(
        try await trace.evaluate(
          ##"""
          [document.querySelectorAll("#lanes rect.phase-input").length,
           document.querySelectorAll("#lanes rect.phase-reduce").length,
           document.querySelectorAll("#lanes rect.effect").length,
           [...document.querySelectorAll("#inputs rect.phase-input title")]
             .map((t) => t.textContent).join("\n"),
           document.querySelectorAll("#inputs rect.phase-reduce").length]
          """##
        ) as? [Any]
      )
      let inputs = try #require(drawn[0] as? Int)
      #expect(inputs >= 4, "each input a slice: \(drawn)")
      #expect(drawn[1] as? Int == inputs, "each input's reduce: \(drawn)")
      #expect((drawn[2] as? Int ?? 0) >= 2, "each task's write an effect: \(drawn)")
      #expect((drawn[3] as? String)?.contains(#"title: "Cook")"#) == true, "by name: \(drawn)")
      // Walk was added before the view asked: its input was not timed (the later writes' names
      // show it in their lists, `title: "Walk"}`).
      #expect((drawn[3] as? String)?.contains(#"title: "Walk")"#) == false, "since: \(drawn)")
      #expect(drawn[4] as? Int == inputs, "each input on its row with its reduce: \(drawn)")
      if let path = ProcessInfo.processInfo.environment["CASCADE_INSPECTOR_TRACE_SCREENSHOT"],
        architecture == .store
      {
        try await trace.screenshot().write(to: URL(fileURLWithPath: path))
      }

      // The app ends with its input; the page says so.
      try app.endInput()
      _ = try await page.waitFor(#"document.getElementById("summary").className === "ended""#)
    }
    let appRun = await app.child.stop(signal: nil)
    #expect(appRun.status == 0, "todo: \(appRun.summary)")
    let inspectorRun = await inspector.child.stop()
    #expect(inspectorRun.status == 0, "cascade-inspect: \(inspectorRun.summary)")
  }
}
