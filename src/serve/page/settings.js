// The settings: size or graph, rule, torus, number of states, target and mode.

import { $, clampSide, clampStates, convertTarget, namedRule, ruleName, say, state, MAX_SIDE, MAX_STATES, MIN_STATES, RULES } from "./state.js";
import { BUILT_INS, builtIn, graphInfo, parseGraph, toGraph6 } from "./graph.js";
import { forgetSolution } from "./puzzle.js";
import { changed, stateColour } from "./draw.js";
import { analyzeNow, analyzeSoon } from "./quiet.js";
import { drawHeat, heat, heatSize, paintHeat } from "./heat.js";

function setSize(rows, cols, note = "") {
  state.graph = null;
  state.rows = rows;
  state.cols = cols;
  state.board = new Uint8Array(rows * cols);
  state.cursor = 0;
  // Changes to another size cannot be taken back cell by cell.
  state.undo = [];
  state.moves = 0;
  forgetSolution();
  showSettings();
  say(state.states === 2 ? `${note}A white ${rows}×${cols} board.` : `${note}A ${rows}×${cols} board, all 0s.`);
  changed();
  analyzeSoon();
}

export function openSize(i) {
  const [r, c] = heatSize(i);
  setSize(r, c);
  paintHeat();
  $("board").focus();
}

/** Plays on `graph` from now: its vertices all 0. A rule a graph does not
 *  take (king, a mask) becomes the first that it does (plus), and the
 *  torus goes, with a word. */
function setGraph(graph) {
  let note = "";
  if (!namedRule(state.rule)?.graph_words) {
    const names = RULES.filter((rule) => rule.graph_words).map((rule) => rule.name);
    const list = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
    note = `A graph takes the rules ${list}, so ${names[0]} rather than ${ruleName()}. `;
    state.rule = names[0];
  }
  state.torus = false;
  state.graph = graph;
  state.rows = 1;
  state.cols = graph.n;
  state.board = new Uint8Array(graph.n);
  state.cursor = 0;
  state.undo = [];
  state.moves = 0;
  forgetSolution();
  showSettings();
  say(`${note}${graph.label[0].toUpperCase()}${graph.label.slice(1)}: ${graph.n} vertices, ${graph.edges.length} edges, all ${state.states === 2 ? "white" : "0s"}. A press changes a vertex${state.rule === "plus" ? " and its" : "'s"} neighbours.`);
  changed();
  // The analysis brings where the vertices go: at once when not yet known.
  if (graph.pos) analyzeSoon();
  else analyzeNow();
}

/** The picker's choices: the grid, the built-ins, and a pasted graph. */
export function buildGraphPicker() {
  const select = $("graph");
  select.append(...BUILT_INS.map((b) => new Option(b.label, b.kind)), new Option("pasted: graph6 or an edge list", "paste"));
}

/** What the picker, its number box or its pasted text now ask for: a
 *  grid or a graph; a graph that cannot be made is one line of why. */
function graphPicked(usePasted) {
  const kind = $("graph").value;
  if (kind === "grid") {
    if (state.graph) setSize(clampSide($("rows").value, 5), clampSide($("cols").value, 5));
    return;
  }
  if (kind === "paste" && !usePasted) {
    showPicker(kind);
    $("graph-text").focus();
    return;
  }
  try {
    const spec = BUILT_INS.find((b) => b.kind === kind);
    if (spec && spec.size) showPicker(kind);
    setGraph(kind === "paste" ? parseGraph($("graph-text").value) : builtIn(kind, spec.size ? Number($("graph-size").value) : undefined));
  } catch (error) {
    say(`Graph: ${error.message}.`);
  }
}

/** Which of the picker's boxes show for `kind`, and their words. */
function showPicker(kind) {
  const spec = BUILT_INS.find((b) => b.kind === kind);
  $("grid-size").hidden = kind !== "grid";
  $("graph-paste").hidden = kind !== "paste";
  $("graph-size-label").hidden = !(spec && spec.size);
  if (spec && spec.size) {
    const [least, most] = spec.size;
    $("graph-size-name").textContent = kind === "hypercube" ? "Dimension D" : "Vertices N";
    Object.assign($("graph-size"), { min: least, max: most });
  }
}

/** The graph in the settings: the picker on it, and its graph6 to copy
 *  (`lightsout --graph FILE` reads it). */
function showGraph() {
  const g = state.graph;
  const [kind, size] = g ? (g.key.startsWith("g6:") ? ["paste"] : g.key.split(":")) : ["grid"];
  $("graph").value = kind;
  if (size !== undefined) $("graph-size").value = size;
  if (kind === "paste" && document.activeElement !== $("graph-text")) $("graph-text").value = g.key.slice(3);
  showPicker(kind);
  for (const option of $("rule").options) option.disabled = Boolean(g) && !namedRule(option.value)?.graph_words;
  $("torus-label").hidden = Boolean(g);
  $("graph-info").hidden = !g;
  $("graph6-label").hidden = !g;
  if (g) {
    $("graph-info").textContent = graphInfo(g);
    $("graph6").value = toGraph6(g);
  }
  const shape = g ? g.label : `${state.rows}×${state.cols}${state.torus ? " torus" : ""}`;
  $("settings-summary").textContent = `(${shape}, ${ruleName()}, ${state.states} states)`;
}

export function showSettings() {
  showGraph();
  // The boxes keep the grid's size while a graph is played, to go back to.
  if (!state.graph) {
    $("rows").value = state.rows;
    $("cols").value = state.cols;
  }
  ruleWords();
  $("rule").value = state.rule;
  $("torus").checked = state.torus;
  $("states").value = state.states;
  targetOptions();
  $("target").value = state.target;
  $("clear").textContent = state.states === 2 ? "All white" : "All 0s";
  showRamp();
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.checked = radio.value === state.mode;
  $("mask").hidden = state.rule !== "mask";
  const bits = state.mask.replace(/\//g, "");
  $("mask").querySelectorAll("button").forEach((b, k) => b.setAttribute("aria-pressed", bits[k] === "1"));
}

/** The rule menu: the server's named rules, then the drawn mask. */
export function buildRuleMenu() {
  const named = RULES.map((rule) => new Option(`${rule.name}: ${rule.words}`, rule.name));
  $("rule").replaceChildren(...named, new Option("drawn: the mask below", "mask"));
}

/** The rule menu in the words of the board played: a grid's cell and its
 *  4 neighbours, a graph's vertex and its neighbours (as the CLI says). */
function ruleWords() {
  for (const option of $("rule").options) {
    const rule = namedRule(option.value);
    if (rule) option.textContent = `${rule.name}: ${(state.graph && rule.graph_words) || rule.words}`;
  }
}

/** The key to the colours of K > 2 under the board: each state (the
 *  first and last eight of many) as a swatch with its number. */
function showRamp() {
  const box = $("ramp"), k = state.states;
  box.hidden = k === 2;
  if (k === 2 || box.dataset.states === `${k}`) return;
  box.dataset.states = `${k}`;
  const shown = k <= 16 ? [...Array(k).keys()] : [0, 1, 2, 3, 4, 5, 6, 7, -1, ...Array.from({ length: 8 }, (_, j) => k - 8 + j)];
  box.replaceChildren("States:", ...shown.map((v) => {
    if (v < 0) return "…";
    const swatch = document.createElement("span");
    const colour = stateColour(v, k);
    swatch.className = "swatch";
    swatch.style.background = colour.fill;
    swatch.style.color = colour.light ? "#111" : "#fff";
    swatch.textContent = `${v}`;
    return swatch;
  }));
}

/** The target's choices: colours for two states, state numbers for more
 *  (all of them up to 16, then a box for the number would be kinder, but
 *  a list of 255 still works with the keyboard: type the number). */
function targetOptions() {
  const select = $("target");
  const wanted = state.states === 2
    ? [["either", "either colour"], ["white", "all white"], ["black", "all black"]]
    : [["either", "any state"], ...Array.from({ length: state.states }, (_, v) => [`${v}`, `all ${v}s`])];
  const have = [...select.options].map((o) => o.value + "=" + o.textContent).join();
  if (have === wanted.map(([v, t]) => v + "=" + t).join()) return;
  select.replaceChildren(...wanted.map(([value, text]) => new Option(text, value)));
}

export function buildMask() {
  const box = $("mask");
  for (let k = 0; k < 25; k++) {
    const b = document.createElement("button");
    b.type = "button";
    b.setAttribute("aria-label", `mask row ${Math.floor(k / 5) + 1}, column ${(k % 5) + 1}${k === 12 ? " (the pressed cell)" : ""}`);
    if (k === 12) b.className = "centre";
    b.addEventListener("click", () => {
      const bits = [...state.mask.replace(/\//g, "")];
      bits[k] = bits[k] === "1" ? "0" : "1";
      state.mask = [0, 5, 10, 15, 20].map((s) => bits.slice(s, s + 5).join("")).join("/");
      showSettings();
      ruleChanged();
    });
    box.append(b);
  }
}

function ruleChanged() {
  // A press taken back must flip what it flipped: not across a new rule.
  state.undo = [];
  state.moves = 0;
  forgetSolution();
  changed();
  analyzeSoon();
}

/** The settings' boxes: size, rule, torus, states, target and mode. */
export function wireSettings() {
  // A side out of range is brought into it, in the box too, and the page
  // says so: the box must not show 300 beside a board of 256 rows.
  const sizeChanged = () => {
    const notes = [];
    const side = (id, name, current) => {
      const typed = $(id).value.trim(), n = Number(typed);
      const value = clampSide(typed, current);
      if (!Number.isInteger(n) || n < 1 || n > MAX_SIDE) {
        notes.push(`${name} go from 1 to ${MAX_SIDE}, so ${value} rather than ${typed === "" ? "nothing" : `“${typed}”`}.`);
      }
      $(id).value = value;
      return value;
    };
    const rows = side("rows", "Rows", state.rows), cols = side("cols", "Columns", state.cols);
    const note = notes.length ? notes.join(" ") + " " : "";
    if (rows !== state.rows || cols !== state.cols) setSize(rows, cols, note);
    else if (note) say(note.trim());
  };
  $("graph").addEventListener("change", () => graphPicked(false));
  $("graph-size").addEventListener("change", () => graphPicked(false));
  $("graph-use").addEventListener("click", () => graphPicked(true));
  $("rows").addEventListener("change", sizeChanged);
  $("cols").addEventListener("change", sizeChanged);
  $("rule").addEventListener("change", () => {
    state.rule = $("rule").value;
    showSettings();
    ruleChanged();
  });
  $("torus").addEventListener("change", () => {
    state.torus = $("torus").checked;
    ruleChanged();
  });
  // Another number of states keeps the board, each cell taken mod the new
  // K (a drawn board survives going up), and is corrected into 2..255 in
  // its box like a side.
  $("states").addEventListener("change", () => {
    const typed = $("states").value.trim(), n = Number(typed);
    const states = clampStates(typed, state.states);
    const note = !Number.isInteger(n) || n < MIN_STATES || n > MAX_STATES
      ? `States go from ${MIN_STATES} to ${MAX_STATES}, so ${states} rather than ${typed === "" ? "nothing" : `“${typed}”`}. `
      : "";
    $("states").value = states;
    if (states === state.states) {
      if (note) say(note.trim());
      return;
    }
    state.target = convertTarget(state.target, states);
    state.states = states;
    state.board = state.board.map((v) => v % states);
    showSettings();
    ruleChanged();
    // The map below counts quiet patterns of K states: one of the last K
    // would mislead (a table of 64 x 64 sizes takes a fraction of a second).
    if (heat.grid.length) drawHeat();
    say(`${note}${states} states per cell: a press adds 1 to each cell it reaches, and ${states - 1} goes back to 0.`);
  });
  $("target").addEventListener("change", () => {
    state.target = $("target").value;
    forgetSolution();
    changed();
  });
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => {
      state.mode = radio.value;
      changed();
    });
  }
}
