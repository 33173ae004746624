/// The inspector's trace view (`/trace.html`): a live app's timings, drawn.
///
/// It draws `/api/trace` as Perfetto draws it — a lane per processing thread with each input's
/// slice and its phases inside, a lane per concurrent effect — then each input on a row of its
/// own, its phases to the scale of the longest input (an input takes microseconds, an effect
/// milliseconds: on one time axis the inputs are lines), each phase's totals, and the file to
/// open in Perfetto. Kept as text in the executable, like ``InspectorPage``.
///
/// The app is timed only while asked (``InspectorLink/LiveInspector``): opening the view asks
/// (`POST /api/timing?on=true`, with the token the inspector's page passes on), "Stop timing"
/// and leaving the view end the ask, as Chrome's Performance panel records only between Record
/// and Stop.
enum TracePage {
  /// The page.
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Cascade Inspector · Trace</title>
    <link rel="stylesheet" href="/inspector.css">
    <script src="/trace.js" defer></script>
    </head>
    <body>
    <header>
      <h1>Cascade Inspector · Trace</h1>
      <span id="summary"></span>
    </header>
    <nav>
      <button id="record" type="button" aria-pressed="false"
        title="Time the app's inputs for the trace: each costs it four clock readings">Record timings</button>
      <span id="recording"></span>
      <label>Last <input id="last" type="number" min="1" max="100000" value="200"> inputs</label>
      <button id="refresh" type="button">Refresh</button>
      <a id="download" href="/api/trace?last=100000" download="cascade-trace.json"
        title="Chrome's trace event format: open it in ui.perfetto.dev or chrome://tracing">Download for Perfetto</a>
    </nav>
    <section id="trace-view">
      <svg id="lanes" xmlns="http://www.w3.org/2000/svg"></svg>
      <h2>Inputs, each to the scale of the longest</h2>
      <svg id="inputs" xmlns="http://www.w3.org/2000/svg"></svg>
      <table id="phases"><thead><tr><th>Phase</th><th>Count</th><th>Total µs</th>
        <th>Mean µs</th><th>Max µs</th></tr></thead><tbody></tbody></table>
    </section>
    <p id="error" hidden></p>
    </body>
    </html>

    """

  /// The page's script.
  static let javaScript = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const SVG = "http://www.w3.org/2000/svg";
    const PHASES = ["intercept", "step", "reduce", "middleware", "delivery"];
    const LANE = 22, LABEL = 150, WIDTH = 1100;

    function node(name, attributes, parent) {
      const element = document.createElementNS(SVG, name);
      for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
      parent.appendChild(element);
      return element;
    }

    function rect(parent, x, y, width, height, className, title) {
      const bar = node("rect", { x, y, width: Math.max(width, 0.5), height, class: className },
        parent);
      node("title", {}, bar).textContent = title;
    }

    function draw(trace) {
      const events = trace.traceEvents;
      const slices = events.filter((e) => e.ph === "X");
      const begins = new Map(events.filter((e) => e.ph === "b").map((e) => [e.id, e]));
      const effects = events.filter((e) => e.ph === "e" && begins.has(e.id)).map((end) => ({
        name: end.name, start: begins.get(end.id).ts, end: end.ts, outcome: end.args.outcome }));
      const threads = new Map(events.filter((e) => e.name === "thread_name")
        .map((e) => [e.tid, e.args.name]));
      const times = slices.map((e) => e.ts + e.dur).concat(effects.map((e) => e.end));
      const starts = slices.map((e) => e.ts).concat(effects.map((e) => e.start));
      const origin = starts.length ? Math.min(...starts) : 0;
      const span = Math.max(1, (times.length ? Math.max(...times) : 1) - origin);
      const x = (t) => LABEL + ((t - origin) / span) * (WIDTH - LABEL - 10);
      // Effects packed into as few lanes as they need: one lane per effect running at once.
      const effectLanes = [];
      for (const effect of effects.sort((a, b) => a.start - b.start)) {
        let lane = effectLanes.findIndex((end) => end <= effect.start);
        if (lane < 0) { lane = effectLanes.length; effectLanes.push(0); }
        effectLanes[lane] = effect.end;
        effect.lane = lane;
      }
      const tids = [...new Set(slices.map((e) => e.tid))].sort((a, b) => a - b);
      const height = 30 + (tids.length * 2 + effectLanes.length) * LANE + 20;
      const svg = $("lanes");
      svg.replaceChildren();
      svg.setAttribute("width", WIDTH);
      svg.setAttribute("height", height);
      for (let tick = 0; tick <= 10; tick++) {
        const at = x(origin + (span * tick) / 10);
        node("line", { x1: at, x2: at, y1: 16, y2: height - 10, class: "axis" }, svg);
        node("text", { x: at + 2, y: 12, class: "tick" }, svg).textContent =
          ((span * tick) / 10 / 1000).toFixed(2) + " ms";
      }
      tids.forEach((tid, index) => {
        const y = 24 + index * 2 * LANE;
        node("text", { x: 4, y: y + 15, class: "lane" }, svg).textContent =
          threads.get(tid) || "thread " + tid;
        for (const slice of slices.filter((e) => e.tid === tid)) {
          const isInput = slice.cat === "input";
          rect(svg, x(slice.ts), isInput ? y : y + LANE, x(slice.ts + slice.dur) - x(slice.ts),
            LANE - 4, isInput ? "phase-input" : "phase-" + slice.name,
            slice.name + " · " + slice.dur.toFixed(3) + " µs");
        }
      });
      const effectsTop = 24 + tids.length * 2 * LANE;
      effectLanes.forEach((_, lane) => {
        node("text", { x: 4, y: effectsTop + lane * LANE + 15, class: "lane" }, svg).textContent =
          lane === 0 ? "effects" : "";
      });
      for (const effect of effects) {
        rect(svg, x(effect.start), effectsTop + effect.lane * LANE,
          x(effect.end) - x(effect.start), LANE - 4, "effect " + effect.outcome,
          effect.name + " · " + effect.outcome + " · " + (effect.end - effect.start).toFixed(3) + " µs");
        if (x(effect.end) - x(effect.start) > 60) {
          node("text", { x: x(effect.start) + 4, y: effectsTop + effect.lane * LANE + 13,
            class: "effect-name" }, svg).textContent = effect.name;
        }
      }
      drawInputs(slices);
      const body = $("phases").tBodies[0];
      body.replaceChildren();
      for (const phase of ["input"].concat(PHASES)) {
        const durations = slices.filter((e) => phase === "input" ? e.cat === "input"
          : e.cat !== "input" && e.name === phase).map((e) => e.dur);
        const total = durations.reduce((a, b) => a + b, 0);
        const row = body.insertRow();
        const name = row.insertCell();
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        const box = document.createElementNS(SVG, "svg");
        box.setAttribute("width", 10); box.setAttribute("height", 10);
        node("rect", { width: 10, height: 10, class: "phase-" + phase }, box);
        swatch.appendChild(box);
        name.append(swatch, phase);
        row.insertCell().textContent = durations.length;
        row.insertCell().textContent = total.toFixed(1);
        row.insertCell().textContent = durations.length ? (total / durations.length).toFixed(2) : "";
        row.insertCell().textContent = durations.length ? Math.max(...durations).toFixed(2) : "";
      }
      $("summary").textContent = slices.filter((e) => e.cat === "input").length + " inputs, " +
        effects.length + " effects over " + (span / 1000).toFixed(2) + " ms · " +
        (events.find((e) => e.name === "process_name")?.args.name || "");
    }

    // Each input on its row: its name, its phases to the scale of the longest input, its time.
    function drawInputs(slices) {
      const inputs = slices.filter((e) => e.cat === "input");
      const longest = Math.max(0.001, ...inputs.map((e) => e.dur));
      const NAME = 330, TIME = 80, ROW = 18;
      const scale = (WIDTH - NAME - TIME) / longest;
      const svg = $("inputs");
      svg.replaceChildren();
      svg.setAttribute("width", WIDTH);
      svg.setAttribute("height", inputs.length * ROW + 4);
      inputs.forEach((input, row) => {
        const y = row * ROW + 2;
        const name = input.name.length > 48 ? input.name.slice(0, 47) + "…" : input.name;
        node("text", { x: 4, y: y + 12, class: "lane" }, svg).textContent = name;
        rect(svg, NAME, y, input.dur * scale, ROW - 4, "phase-input",
          input.name + " · " + input.dur.toFixed(3) + " µs");
        const phases = slices.filter((e) => e.cat !== "input" && e.tid === input.tid
          && e.ts >= input.ts && e.ts < input.ts + input.dur);
        for (const phase of phases) {
          rect(svg, NAME + (phase.ts - input.ts) * scale, y + 2, phase.dur * scale, ROW - 8,
            "phase-" + phase.name, phase.name + " · " + phase.dur.toFixed(3) + " µs");
        }
        node("text", { x: WIDTH - TIME + 6, y: y + 12, class: "tick" }, svg).textContent =
          input.dur.toFixed(1) + " µs";
      });
    }

    // The token, passed on by the inspector's page: asking the app to time itself posts with it.
    const token = new URLSearchParams(location.search).get("token");
    let recording = false;

    function showTiming(answer) {
      recording = answer.asked === true;
      $("record").textContent = recording ? "Stop timing" : "Record timings";
      $("record").setAttribute("aria-pressed", String(recording));
      $("recording").className = recording ? "recording" : "";
      $("recording").textContent = recording
        ? "timing the app's inputs from now on: use it, then Refresh"
        : "the app is not timed";
    }

    async function setTiming(on) {
      const response = await fetch("/api/timing?on=" + on, {
        method: "POST", credentials: "same-origin", headers: { "X-Cascade-Token": token || "" },
      });
      if (!response.ok) throw new Error(await response.text());
      showTiming(await response.json());
    }

    async function load() {
      $("error").hidden = true;
      const last = Math.min(100000, Math.max(1, Number($("last").value) || 200));
      const response = await fetch("/api/trace?last=" + last);
      if (!response.ok) throw new Error(await response.text());
      draw(await response.json());
    }

    function showError(error) {
      $("error").textContent = String(error.message || error);
      $("error").hidden = false;
    }

    document.addEventListener("DOMContentLoaded", () => {
      // The token is in a cookie now: keep it out of the address bar and history.
      history.replaceState(null, "", "/trace.html");
      $("refresh").addEventListener("click", () => load().catch(showError));
      $("record").addEventListener("click", () => setTiming(!recording).catch(showError));
      // Leaving the view ends its ask: the app is timed only while someone looks at its trace.
      addEventListener("pagehide", () => {
        if (!recording) return;
        fetch("/api/timing?on=false", {
          method: "POST", credentials: "same-origin", keepalive: true,
          headers: { "X-Cascade-Token": token || "" },
        }).catch(() => {});
      });
      // Opening the view asks for the timings; the trace shows the inputs timed so far.
      setTiming(true).then(load).catch(showError);
    });

    """#
}
