// The page's state and the words for it: what every other module reads.
// The board lives here; the server solves and analyses (the JSON API that
// `lightsout serve` documents in docs/serve.md).

import { RULES } from "./rules.js";

export const MAX_SIDE = 256;

// States a cell takes (Z_K): a press adds 1 to each cell it reaches, mod
// `state.states`. Two states are the classic game, drawn in black and
// white and spoken of as colours; from 3 to MAX_STATES cells show their
// state's number on a colour ramp (`stateColour`), and the API is asked
// with `states`.
export const MIN_STATES = 2, MAX_STATES = 255;
export const $ = (id) => document.getElementById(id);

export const state = {
  rows: 5,
  cols: 5,
  rule: RULES[0].name,
  mask: "00000/00100/01110/00100/00000",
  torus: false,
  // A graph instead of the grid (graph.js), or null: the board is then
  // one row of its vertices' states, `rows` 1 and `cols` its vertex count,
  // as the API takes it.
  graph: null,
  // K: every cell is 0..K-1. The target is "either" (any uniform board)
  // or, for K = 2, "white" or "black", for K > 2 a state number as text.
  states: 2,
  target: "either",
  mode: "set",
  board: new Uint8Array(25),
  cursor: 0,
  // The last solution of the board as it was when solved: `presses`, a
  // Map of cell -> times to press it; `pressed`, a Map of cell -> times it
  // was pressed since (mod K); the target and whether the server
  // proved it minimal. Presses commute, so what is left to press from the
  // board now is `presses - pressed` cell by cell, whatever order the
  // presses came in, strays included.
  solution: null,
  // What can be taken back (Back, Ctrl+Z), latest last: {kind: "press",
  // cell}, {kind: "set", cell, before} or {kind: "board", before, moves}.
  undo: [],
  // Presses made on the board since it was last drawn, filled or resized.
  moves: 0,
  // When the board cannot reach the target: the cells of a pattern that
  // proves it (from /api/check), and for K > 2 the weight of every cell.
  proof: null,
  proofWeights: null,
  hint: -1,
  // Light chasing in progress (chase.js): the walk from /api/chase, the
  // next step, the board the next step expects, and its presses (marked).
  chase: null,
};

// The rules with a name, from the server (`rules.js`, made from the
// model's list): {name, words, graph_words (null: not for graphs),
// offsets}, the default first. The menu, the link and the presses read
// them; a drawn mask is the page's own.
export { RULES };

/** The named rule `name`, or undefined (a mask, or no such rule). */
export function namedRule(name) {
  return RULES.find((rule) => rule.name === name);
}

/** The offsets a press flips, for the current rule. */
export function offsets() {
  if (state.rule !== "mask") return (namedRule(state.rule) ?? RULES[0]).offsets;
  const rows = state.mask.split("/");
  const h = (rows.length - 1) / 2, w = (rows[0].length - 1) / 2;
  const out = [];
  rows.forEach((row, r) => [...row].forEach((bit, c) => { if (bit === "1") out.push([r - h, c - w]); }));
  return out;
}

/** The rule as the API spells it. */
export function ruleName() {
  return state.rule === "mask" ? state.mask : state.rule;
}

export function clampSide(value, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(MAX_SIDE, Math.max(1, n)) : fallback;
}

export function clampStates(value, fallback) {
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) ? Math.min(MAX_STATES, Math.max(MIN_STATES, n)) : fallback;
}

/** Whether `target` means something with `states` states. */
export function validTarget(target, states) {
  if (target === "either") return true;
  if (states === 2) return target === "white" || target === "black";
  return /^[0-9]+$/.test(target) && Number(target) < states;
}

/** The target carried over to another number of states: white is state
 *  0 and black state 1, and a state past the new last is "either". */
export function convertTarget(target, states) {
  const number = { white: "0", black: "1" }[target] ?? target;
  const carried = states === 2 ? ({ "0": "white", "1": "black" }[number] ?? target) : number;
  return validTarget(carried, states) ? carried : "either";
}

/** A state in words: a colour for two states, else its number. */
export function stateName(v) {
  return state.states === 2 ? (v ? "black" : "white") : `${v}`;
}

/** A state as the target select names it. */
export function stateKey(v) {
  return state.states === 2 ? stateName(v) : `${v}`;
}

/** A uniform board of state `v` (or target name) in words: "all white",
 *  "all 2s". */
export function allOf(v) {
  if (state.states === 2) return `all ${typeof v === "string" ? v : stateName(v)}`;
  return `all ${v}s`;
}

export function plural(n, one, many = one + "s") {
  return n === 1 ? one : many;
}

/** A number of presses in words: "1 press", "3 presses". */
export function presses(n) {
  return `${n} ${plural(Number(n), "press", "presses")}`;
}

export function cellName(i) {
  if (state.graph) return `vertex ${i}`;
  return `row ${Math.floor(i / state.cols) + 1}, column ${(i % state.cols) + 1}`;
}

export function moveCursor(key, index, rows, cols) {
  let r = Math.floor(index / cols), c = index % cols;
  if (key === "ArrowUp") r = Math.max(0, r - 1);
  if (key === "ArrowDown") r = Math.min(rows - 1, r + 1);
  if (key === "ArrowLeft") c = Math.max(0, c - 1);
  if (key === "ArrowRight") c = Math.min(cols - 1, c + 1);
  return r * cols + c;
}

export function say(text) {
  $("status").textContent = text;
}
