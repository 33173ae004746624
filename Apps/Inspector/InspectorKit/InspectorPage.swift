/// The inspector's page: HTML, CSS and JavaScript, kept as text in the executable so that it
/// works wherever the binary is copied, needs no build step, and fetches nothing from outside.
enum InspectorPage {
  /// The page.
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Cascade Inspector</title>
    <link rel="stylesheet" href="/inspector.css">
    <script src="/inspector.js" defer></script>
    </head>
    <body>
    <header>
      <h1>Cascade Inspector</h1>
      <span id="summary"></span>
    </header>
    <nav>
      <label>Kind <select id="kind"><option value="">all</option></select></label>
      <input id="search" type="search" placeholder="Search inputs" aria-label="search inputs">
      <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
      <span id="position"></span>
      <a id="export" href="/api/export" download="cascade-session.jsonl">Export</a>
      <a id="export-test" href="/api/export-test" download hidden
        title="The recording as a Swift Testing file: each step through the TestStore">Export as test</a>
      <a id="trace" href="/trace.html" target="_blank" hidden
        title="The app's timings: each input's phases and each effect, as Perfetto shows them">Trace</a>
      <label id="import-label">Import <input id="import" type="file" accept=".jsonl"></label>
    </nav>
    <main>
      <section id="timeline" tabindex="0" aria-label="timeline">
        <div id="rows"></div>
      </section>
      <section id="detail">
        <h2 id="step-title">State</h2>
        <p id="live-tools" hidden>
          <button id="replay" type="button">Replay to here</button>
          <span id="replayed"></span>
        </p>
        <p id="edit-tools" hidden>
          <button id="skip" type="button">Skip this input</button>
          <button id="commit" type="button">Commit: start after this step</button>
        </p>
        <h3>Input</h3>
        <div id="input" class="tree"></div>
        <h3>State</h3>
        <div id="state" class="tree"></div>
        <h2 id="diff-title">Diff against the previous step</h2>
        <pre id="diff"></pre>
      </section>
    </main>
    <p id="error" hidden></p>
    </body>
    </html>

    """

  /// The page's style.
  static let css = """
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #222; background: #fafafa;
      display: flex; flex-direction: column; height: 100vh; }
    header, nav { display: flex; gap: 1em; align-items: center; padding: .4em 1em;
      border-bottom: 1px solid #ddd; background: #fff; }
    h1 { font-size: 1.1em; margin: 0; }
    h2 { font-size: 1em; margin: .8em 0 .3em; }
    h3 { font-size: .9em; margin: .6em 0 .2em; color: #555; }
    #search { width: 14em; }
    #import { width: 12em; }
    #slider { flex: 1; }
    main { flex: 1; display: flex; min-height: 0; }
    #timeline { width: 45%; overflow-y: auto; position: relative; border-right: 1px solid #ddd;
      background: #fff; }
    #rows { position: relative; }
    .row { position: absolute; left: 0; right: 0; height: 24px; padding: 0 .5em;
      white-space: nowrap; overflow: hidden; text-overflow: ellipsis; cursor: pointer;
      font-family: ui-monospace, monospace; font-size: 12px; line-height: 24px; }
    .row:hover { background: #f0f4ff; }
    .row.selected { background: #dbe6ff; }
    .row.skipped { text-decoration: line-through; opacity: .5; }
    .kind { display: inline-block; width: 5.5em; font-weight: bold; }
    .kind-intent { color: #0a6; } .kind-fact { color: #888; } .kind-event { color: #06c; }
    .kind-action { color: #60c; } .kind-mutation { color: #c60; } .kind-input { color: #06c; }
    .source { color: #999; margin-right: .5em; }
    #detail { flex: 1; overflow: auto; padding: 0 1em 1em; }
    .tree, pre { font-family: ui-monospace, monospace; font-size: 12px; }
    .tree details { margin-left: 1.2em; }
    .tree summary { cursor: pointer; margin-left: -1.2em; }
    .tree .leaf { margin-left: 0; }
    .key { color: #905; } .string { color: #070; } .number { color: #05a; }
    .literal { color: #a50; } .case { color: #60c; }
    pre { background: #fff; border: 1px solid #ddd; padding: .5em; white-space: pre-wrap; }
    #error { color: #b00; padding: 0 1em; }
    #detail.loading #state, #detail.loading #diff { opacity: .35; }
    #replayed.same { color: #070; } #replayed.differs { color: #b00; }
    .live { color: #070; font-weight: bold; } .ended { color: #888; }
    .recording { color: #b00; }
    #trace-view { flex: 1; overflow: auto; padding: .5em 1em; background: #fff; }
    #trace-view svg { display: block; }
    .lane { font: 11px ui-monospace, monospace; fill: #555; }
    .phase-input { fill: #c9d6ea; } .phase-intercept { fill: #a78bfa; }
    .phase-step { fill: #f59e0b; } .phase-reduce { fill: #2563eb; }
    .phase-middleware { fill: #10b981; } .phase-delivery { fill: #ef4444; }
    .effect { fill: #94a3b8; } .effect.cancelled { fill: #fca5a5; } .effect.running { fill: #fde68a; }
    .axis { stroke: #ccc; } .tick { font: 10px system-ui; fill: #888; }
    .effect-name { font: 10px system-ui; fill: #1e293b; pointer-events: none; }
    #phases { border-collapse: collapse; margin-top: 1em; font-size: 12px; }
    #phases th, #phases td { border-bottom: 1px solid #eee; padding: .2em .8em; text-align: right; }
    #phases th:first-child, #phases td:first-child { text-align: left; }
    .swatch { display: inline-block; width: .8em; height: .8em; margin-right: .4em; }

    """

  /// The page's script: the timeline (a virtualised list of fixed-height rows, loaded a page at
  /// a time), the filter, the slider, the keys, and the state tree and diff of the step chosen.
  static let javaScript = #"""
    "use strict";
    const ROW = 24, PAGE = 200;
    let total = 0, selected = 0, kind = "", search = "", selection = 0, searchTimer;
    // Live mode: the steps grow while the app runs; "replay to here" posts with the token.
    let live = false, allSteps = 0, summaryText = "";
    const token = new URLSearchParams(location.search).get("token");
    const pages = new Map();
    // The steps already shown, by filter and position: a recorded step never changes, so a row
    // redrawn when the live app adds steps shows its step at once instead of blank until its
    // page is fetched again.
    const shown = new Map();
    const $ = (id) => document.getElementById(id);

    async function get(path) {
      const response = await fetch(path, { credentials: "same-origin" });
      if (!response.ok) throw new Error(path + ": " + (await response.text()));
      return response.json();
    }

    function showError(error) {
      $("error").hidden = false;
      $("error").textContent = String(error);
    }

    // The timeline's filter: its kind and its search text, as a key and as a query.
    const filterKey = () => kind + "\u0001" + search;
    const filterQuery = () => (kind ? "&kind=" + encodeURIComponent(kind) : "")
      + (search ? "&search=" + encodeURIComponent(search) : "");

    async function page(number) {
      const key = filterKey() + ":" + number;
      if (!pages.has(key)) {
        const query = "from=" + number * PAGE + "&count=" + PAGE + filterQuery();
        pages.set(key, get("/api/steps?" + query));
      }
      return pages.get(key);
    }

    async function stepAt(position) {
      const answer = await page(Math.floor(position / PAGE));
      return answer.steps[position % PAGE];
    }

    function renderRows() {
      const timeline = $("timeline"), rows = $("rows");
      rows.style.height = total * ROW + "px";
      const first = Math.max(0, Math.floor(timeline.scrollTop / ROW) - 10);
      const last = Math.min(total, first + Math.ceil(timeline.clientHeight / ROW) + 20);
      rows.replaceChildren();
      for (let position = first; position < last; position++) {
        const row = document.createElement("div");
        row.className = "row" + (position === selected ? " selected" : "");
        row.style.top = position * ROW + "px";
        row.dataset.position = position;
        rows.append(row);
        const key = filterKey() + ":" + position;
        if (shown.has(key)) {
          fill(row, shown.get(key));
          continue;
        }
        stepAt(position).then((step) => {
          if (!step) return;
          shown.set(key, step);
          fill(row, step);
        }).catch(showError);
      }
    }

    function fill(row, step) {
      row.classList.toggle("skipped", step.skipped === true);
      const kindSpan = document.createElement("span");
      kindSpan.className = "kind kind-" + step.kind;
      kindSpan.textContent = step.kind;
      const source = document.createElement("span");
      source.className = "source";
      source.textContent = "#" + step.index + " " + step.source;
      row.replaceChildren(kindSpan, source, document.createTextNode(step.description));
      row.title = step.description;
    }

    function tree(value, name) {
      const label = (text) => labelled(name, text);
      if (value !== null && typeof value === "object") {
        const details = document.createElement("details");
        details.open = true;
        const summary = document.createElement("summary");
        const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
        summary.append(label(Array.isArray(value) ? "[" + entries.length + "]" : "{…}"));
        details.append(summary);
        for (const [key, child] of entries) details.append(tree(child, key));
        return details;
      }
      const leaf = document.createElement("div");
      leaf.className = "leaf";
      const text = document.createElement("span");
      text.className = typeof value === "string" ? "string"
        : typeof value === "number" ? "number" : "literal";
      text.textContent = JSON.stringify(value);
      leaf.append(label(text));
      return leaf;
    }

    // An object of one key whose value is an object reads as an enum case, as Swift encodes one
    // (the server's names read them the same way): `{"intent":{"_0":{"attack":{}}}}` is the
    // case `intent` holding the case `attack`.
    function enumCase(value) {
      const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
      if (!isObject(value)) return null;
      const keys = Object.keys(value);
      if (keys.length !== 1 || !isObject(value[keys[0]])) return null;
      const payload = value[keys[0]];
      const positional = Object.keys(payload).filter((key) => /^_\d+$/.test(key))
        .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
      const labelled = Object.keys(payload).filter((key) => !/^_\d+$/.test(key)).sort();
      return [keys[0], positional.map((key) => [undefined, payload[key]])
        .concat(labelled.map((key) => [key, payload[key]]))];
    }

    // An input as a tree: its cases by name, their values under them (labelled or not).
    function inputTree(value, name, depth = 0) {
      const found = depth < 32 ? enumCase(value) : null;
      if (!found) {
        if (value === null || typeof value !== "object" || depth >= 32) return tree(value, name);
        const details = document.createElement("details");
        details.open = true;
        const summary = document.createElement("summary");
        const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
        summary.append(labelled(name, Array.isArray(value) ? "[" + entries.length + "]" : "{…}"));
        details.append(summary);
        for (const [key, child] of entries) details.append(inputTree(child, key, depth + 1));
        return details;
      }
      const [caseName, entries] = found;
      const caseSpan = document.createElement("span");
      caseSpan.className = "case";
      caseSpan.textContent = caseName;
      if (entries.length === 0) {
        const leaf = document.createElement("div");
        leaf.className = "leaf";
        leaf.append(labelled(name, caseSpan));
        return leaf;
      }
      const details = document.createElement("details");
      details.open = true;
      const summary = document.createElement("summary");
      summary.append(labelled(name, caseSpan));
      details.append(summary);
      for (const [key, child] of entries) details.append(inputTree(child, key, depth + 1));
      return details;
    }

    function labelled(name, content) {
      const fragment = document.createDocumentFragment();
      if (name !== undefined) {
        const key = document.createElement("span");
        key.className = "key";
        key.textContent = name + ": ";
        fragment.append(key);
      }
      fragment.append(content);
      return fragment;
    }

    async function select(position) {
      if (total === 0) return;
      const ticket = ++selection;
      selected = Math.max(0, Math.min(total - 1, position));
      $("slider").value = selected;
      $("position").textContent = (selected + 1) + " / " + total;
      const timeline = $("timeline");
      const top = selected * ROW;
      if (top < timeline.scrollTop || top + ROW > timeline.scrollTop + timeline.clientHeight) {
        timeline.scrollTop = top - timeline.clientHeight / 2;
      }
      renderRows();
      let pending;
      try {
        const step = await stepAt(selected);
        // A step far beyond the checkpoints computed so far (just after opening a long
        // recording) takes a moment: say so, rather than show the last step's state as this one's.
        pending = setTimeout(() => {
          if (ticket !== selection) return;
          $("step-title").textContent = "Computing the state after step #" + step.index + "…";
          $("detail").classList.add("loading");
        }, 150);
        const detail = await get("/api/step/" + step.index);
        if (ticket !== selection) return;  // a later step was chosen meanwhile
        $("step-title").textContent = "State after step #" + step.index + " (" + step.kind + ")"
          + (step.skipped ? " — skipped" : "");
        $("skip").textContent = step.skipped ? "Bring this input back" : "Skip this input";
        $("input").replaceChildren(
          detail.input === undefined ? document.createTextNode("(none)") : inputTree(detail.input));
        // A live app's step whose state it did not capture (it ran ahead of its encoding) comes
        // rebuilt by replay, or without a state once the app is gone.
        const stateless = detail.state === null && detail.captured === false;
        if (detail.rebuilt) $("step-title").textContent += " — rebuilt by replay";
        $("state").replaceChildren(stateless
          ? document.createTextNode("(not captured live, and the app is gone: no replay)")
          : tree(detail.state));
        $("diff-title").textContent = detail.diffFrom === undefined
          ? "Diff against the previous step"
          : "Diff against step #" + detail.diffFrom + " (the states between were not captured)";
        $("diff").textContent = detail.diff !== null ? detail.diff
          : stateless || detail.rebuilt ? "(not captured live)" : "(no change)";
      } catch (error) {
        showError(error);
      } finally {
        clearTimeout(pending);
        if (ticket === selection) $("detail").classList.remove("loading");
      }
    }

    async function load() {
      const answer = await get("/api/steps?from=0&count=" + PAGE + filterQuery());
      pages.set(filterKey() + ":0", Promise.resolve(answer));
      total = answer.total;
      $("slider").max = Math.max(0, total - 1);
      $("timeline").scrollTop = 0;
      renderRows();
      if (total === 0) $("position").textContent = "no step matches";
      await select(0);
    }

    function showKinds(kinds) {
      for (const [name, count] of Object.entries(kinds)) {
        let option = [...$("kind").options].find((option) => option.value === name);
        if (!option) {
          option = document.createElement("option");
          option.value = name;
          $("kind").append(option);
        }
        option.textContent = name + " (" + count + ")";
      }
    }

    function showSummary(summary) {
      summaryText = summary.app + " " + summary.command + " on the " + summary.architecture;
      const state = !summary.live ? "" : summary.connected ? " · live" : " · ended";
      const kept = summary.kept == null ? "" : " (the last " + summary.kept + " kept)";
      $("summary").textContent = summaryText + " · " + summary.steps + " steps" + kept + state;
      $("summary").className = !summary.live ? "" : summary.connected ? "live" : "ended";
    }

    // Live: asks for the summary once there are more steps than the page shows (the server
    // answers when there are, or the app is gone), and shows the new ones; a page that was on
    // the last step, or had none yet, follows the new last one.
    async function follow() {
      while (true) {
        const summary = await get("/api/summary?beyond=" + allSteps);
        showSummary(summary);
        showKinds(summary.kinds);
        if (summary.steps !== allSteps) {
          const wasLast = total === 0 || selected === total - 1;
          allSteps = summary.steps;
          pages.clear();
          const answer = await get("/api/steps?from=0&count=1" + filterQuery());
          total = answer.total;
          $("slider").max = Math.max(0, total - 1);
          renderRows();
          if (wasLast) await select(total - 1);
        }
        if (!summary.connected) return;
      }
    }

    async function replayHere() {
      if (total === 0) return;
      const step = await stepAt(selected);
      $("replayed").className = "";
      $("replayed").textContent = "replaying " + (step.index + 1) + " steps…";
      const response = await fetch("/api/replay/" + step.index, {
        method: "POST", credentials: "same-origin", headers: { "X-Cascade-Token": token || "" },
      });
      const answer = await response.json().catch(() => ({}));
      const outcome = answer.replayed || {};
      if (outcome.error) {
        $("replayed").className = "differs";
        $("replayed").textContent = outcome.error;
      } else {
        $("replayed").className = outcome.matches ? "same" : "differs";
        $("replayed").textContent = "a fresh " + summaryText + " replayed " + outcome.steps
          + " steps, with no effect: " + (outcome.matches ? "the same state" : "a different state");
      }
    }

    // Skip (or bring back) the chosen step, or commit its state as the start: the server
    // recomputes the states, and the timeline is fetched again.
    async function edit(action) {
      if (total === 0) return;
      const step = await stepAt(selected);
      const response = await fetch("/api/" + action + "/" + step.index, {
        method: "POST", credentials: "same-origin", headers: { "X-Cascade-Token": token || "" },
      });
      if (!response.ok) throw new Error(await response.text());
      pages.clear();
      shown.clear();
      if (action === "commit") {
        await load();
      } else {
        renderRows();
        await select(selected);
      }
    }

    // Import: the chosen file (an export, a flight recorder's file, an app's recording) is
    // sent to the server, which inspects it from now on; the page starts again with it.
    async function importFile() {
      const file = $("import").files[0];
      if (!file) return;
      const response = await fetch("/api/import", {
        method: "POST", credentials: "same-origin", body: file,
        headers: { "X-Cascade-Token": token || "", "Content-Type": "application/octet-stream" },
      });
      if (!response.ok) throw new Error(await response.text());
      $("error").hidden = true;
      pages.clear();
      shown.clear();
      kind = "";
      search = "";
      $("kind").value = "";
      $("search").value = "";
      for (const option of [...$("kind").options]) if (option.value) option.remove();
      await start();
    }

    async function start() {
      try {
        const summary = await get("/api/summary");
        showSummary(summary);
        live = summary.live === true;
        allSteps = summary.steps;
        $("live-tools").hidden = !live;
        $("edit-tools").hidden = summary.editable !== true;
        $("export-test").hidden = summary.testable !== true;
        $("trace").hidden = !live;
        // The trace view asks the app to time itself, with the token.
        if (token) $("trace").href = "/trace.html?token=" + encodeURIComponent(token);
        showKinds(summary.kinds);
        // The token is in a cookie now: keep it out of the address bar and history.
        history.replaceState(null, "", "/");
        await load();
        if (live) await follow();
      } catch (error) {
        showError(error);
      }
    }

    document.addEventListener("DOMContentLoaded", () => {
      $("timeline").addEventListener("scroll", renderRows);
      $("rows").addEventListener("click", (event) => {
        const row = event.target.closest(".row");
        if (row) select(Number(row.dataset.position));
      });
      $("slider").addEventListener("input", () => select(Number($("slider").value)));
      $("kind").addEventListener("change", () => { kind = $("kind").value; load(); });
      // A search is sent once typing pauses, not on every key.
      $("search").addEventListener("input", () => {
        clearTimeout(searchTimer);
        searchTimer = setTimeout(() => {
          search = $("search").value.trim();
          load().catch(showError);
        }, 150);
      });
      $("replay").addEventListener("click", () => replayHere().catch(showError));
      $("skip").addEventListener("click", () => edit("skip").catch(showError));
      $("commit").addEventListener("click", () => edit("commit").catch(showError));
      $("import").addEventListener("change", () => importFile().catch(showError));
      document.addEventListener("keydown", (event) => {
        if (event.target.tagName === "SELECT" || event.target.id === "search") return;
        const moves = { ArrowLeft: selected - 1, ArrowRight: selected + 1, ArrowUp: selected - 1,
          ArrowDown: selected + 1, Home: 0, End: total - 1 };
        if (event.key in moves) {
          event.preventDefault();
          select(moves[event.key]);
        }
      });
      start();
    });

    """#
}
