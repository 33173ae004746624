// What Redux DevTools costs an app per action on a large state, at the least: its page script
// stringifies the state after every action to send it to the extension (redux-devtools,
// extension/src/pageScript/api/index: `toContentScript`, `message.payload =
// stringify(message.payload, serializeState)` for each `ACTION`, with jsan, which is slower than
// JSON.stringify). This measures a Redux-style store (an immutable reducer) on the state of
// cascade-inspector-bench's `live` workload (a list of N tasks, each toggle one action) plain
// and with a JSON.stringify of the state after each action: a lower bound of the extension's
// cost, without its jsan, its message passing or its panel.
//
// Usage: node Tooling/Comparisons/redux-devtools-cost.mjs [ACTIONS] [TASKS]
//   node Tooling/Comparisons/redux-devtools-cost.mjs 200 30000
const actions = Number(process.argv[2] ?? 200);
const taskCount = Number(process.argv[3] ?? 30000);
if (!(actions >= 1 && actions <= 10_000_000 && taskCount >= 1 && taskCount <= 10_000_000)) {
  console.error("usage: redux-devtools-cost.mjs [ACTIONS 1…10⁷] [TASKS 1…10⁷]");
  process.exit(64);
}

const initial = {
  tasks: Array.from({ length: taskCount }, (_, index) => ({
    done: index % 3 === 0,
    id: index + 1,
    position: index,
    title: `Task ${index + 1}: review the chapter, answer the mail, water the plants, call back`,
  })),
  toggles: 0,
};

// Redux's rule: a new state, sharing what did not change.
function reduce(state, action) {
  const index = action.index % state.tasks.length;
  const tasks = state.tasks.slice();
  tasks[index] = { ...tasks[index], done: !tasks[index].done };
  return { tasks, toggles: state.toggles + 1 };
}

function run(inspected) {
  let state = initial;
  let bytes = 0;
  const started = process.hrtime.bigint();
  for (let n = 0; n < actions; n++) {
    state = reduce(state, { type: "toggle", index: n * 7919 });
    if (inspected) bytes += JSON.stringify(state).length;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (state.toggles !== actions) throw new Error("lost an action");
  return { perSecond: actions / seconds, bytes: inspected ? bytes / actions : 0 };
}

// Alternated, best of three each, as cascade-inspector-bench does.
let plain = 0, inspected = 0, size = 0;
for (let round = 0; round < 3; round++) {
  plain = Math.max(plain, run(false).perSecond);
  const measured = run(true);
  inspected = Math.max(inspected, measured.perSecond);
  size = measured.bytes;
}
console.log(
  `redux-devtools-cost: ${actions} actions on a list of ${taskCount} tasks ` +
    `(${(size / 1e6).toFixed(1)} MB as JSON): ${Math.round(plain)} actions/s plain, ` +
    `${inspected.toFixed(1)} actions/s with the state stringified after each ` +
    `(${(1000 / inspected).toFixed(1)} ms an action)`
);
