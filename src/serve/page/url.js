// The URL that holds the state: a link is the board, its size and its rule.

import { clampSide, clampStates, namedRule, say, state, validTarget, RULES } from "./state.js";
import { forgetSolution } from "./puzzle.js";
import { graphFromKey } from "./graph.js";

/** Bits a cell needs in the URL: 1 for two states, 2 for 3 and 4, … */
function bitsPerCell(states) {
  return Math.max(1, Math.ceil(Math.log2(states)));
}

/** Board cells, row-major, `bitsPerCell` bits each, least significant
 *  first, packed into bytes, as base64url. Two states give the links of
 *  before: 8 cells a byte. */
function encodeBoard(cells, states = state.states) {
  const width = bitsPerCell(states);
  const bytes = new Uint8Array(Math.ceil((cells.length * width) / 8));
  cells.forEach((v, i) => {
    for (let k = 0; k < width; k++) {
      const bit = i * width + k;
      if ((v >> k) & 1) bytes[bit >> 3] |= 1 << (bit & 7);
    }
  });
  let text = "";
  bytes.forEach((b) => { text += String.fromCharCode(b); });
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeBoard(text, count, states = state.states) {
  const width = bitsPerCell(states);
  const cells = new Uint8Array(count);
  try {
    const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    for (let i = 0; i < count && ((i * width) >> 3) < raw.length; i++) {
      let v = 0;
      for (let k = 0; k < width; k++) {
        const bit = i * width + k;
        v |= (((raw.charCodeAt(bit >> 3) || 0) >> (bit & 7)) & 1) << k;
      }
      // A hand-edited link may hold a value past the last state.
      cells[i] = v % states;
    }
  } catch { /* a damaged link gives a white board */ }
  return cells;
}

export function saveToUrl() {
  const p = new URLSearchParams({
    rows: state.rows, cols: state.cols, rule: state.rule, torus: state.torus ? 1 : 0,
    states: state.states, target: state.target, mode: state.mode, board: encodeBoard(state.board),
  });
  if (state.rule === "mask") p.set("mask", state.mask);
  // A built-in by its name (graph=cycle:7), another graph as g6: and graph6.
  if (state.graph) p.set("graph", state.graph.key);
  history.replaceState(null, "", "#" + p.toString());
}

export function loadFromUrl() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.rows = clampSide(p.get("rows"), 5);
  state.cols = clampSide(p.get("cols"), 5);
  const rule = p.get("rule");
  state.rule = rule === "mask" || namedRule(rule) ? rule : RULES[0].name;
  if (/^[01]{5}(\/[01]{5}){4}$/.test(p.get("mask") || "")) state.mask = p.get("mask");
  state.torus = p.get("torus") === "1";
  state.graph = null;
  if (p.get("graph")) {
    try {
      state.graph = graphFromKey(p.get("graph"));
      [state.rows, state.cols, state.torus] = [1, state.graph.n, false];
      if (!namedRule(state.rule)?.graph_words) state.rule = RULES[0].name;
    } catch (error) {
      say(`The link's graph: ${error.message}; a grid instead.`);
    }
  }
  state.states = clampStates(p.get("states"), 2);
  state.target = validTarget(p.get("target") || "", state.states) ? p.get("target") : "either";
  state.mode = p.get("mode") === "play" ? "play" : "set";
  state.board = decodeBoard(p.get("board") || "", state.rows * state.cols);
  state.cursor = 0;
  state.undo = [];
  state.moves = 0;
  forgetSolution();
}
