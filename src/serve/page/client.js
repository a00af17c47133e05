// Talking to the server: requests (cancellable), and boards as the API
// takes and gives them.

import { $, ruleName, say, state } from "./state.js";
import { toGraph6 } from "./graph.js";

let inFlight = new Set();

/** POSTs `body` to the API; aborted with the Cancel button. */
export async function api(path, body) {
  const controller = new AbortController();
  inFlight.add(controller);
  const started = performance.now();
  const busy = $("busy");
  const tick = setInterval(() => {
    busy.hidden = false;
    $("elapsed").textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`;
  }, 250);
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
    return answer;
  } finally {
    clearInterval(tick);
    inFlight.delete(controller);
    if (inFlight.size === 0) busy.hidden = true;
  }
}

export function cancelAll() {
  for (const controller of inFlight) controller.abort();
}

export function failed(error) {
  say(error.name === "AbortError" ? "Cancelled." : `Error: ${error.message}`);
}

export function boardRows(bits = state.board) {
  const rows = [];
  for (let r = 0; r < state.rows; r++) {
    let row = "";
    for (let c = 0; c < state.cols; c++) row += bits[r * state.cols + c] ? "b" : "w";
    rows.push(row);
  }
  return rows;
}

/** The board as the API takes it: rows of b and w for two states (the
 *  request of before), else lists of state numbers. */
export function boardBody(cells = state.board) {
  if (state.states === 2) return boardRows(cells);
  const rows = [];
  for (let r = 0; r < state.rows; r++) rows.push([...cells.subarray(r * state.cols, (r + 1) * state.cols)]);
  return rows;
}

/** A grid of numbers from the API, row-major: rows of digits (K <= 10),
 *  rows of `x` and `.` (two states), or lists of numbers. */
export function gridNumbers(lines) {
  return Uint8Array.from(lines.flatMap((row) =>
    typeof row === "string" ? [...row].map((ch) => (ch === "x" ? 1 : ch === "." ? 0 : Number(ch))) : row));
}

/** A board from the API, row-major: rows of b and w (two states), rows of
 *  digits, or lists of numbers. */
export function boardCells(lines) {
  if (state.states === 2) return Uint8Array.from(lines.join(""), (ch) => (ch === "b" ? 1 : 0));
  return gridNumbers(lines);
}

export function gridBits(lines) {
  return Uint8Array.from(lines.join("").split(""), (ch) => (ch === "x" ? 1 : 0));
}

/** What the API calls the target: two states name colours, more ask for
 *  "any" or a state's number. */
export function targetBody() {
  if (state.states === 2) return state.target;
  return state.target === "either" ? "any" : Number(state.target);
}

/** The common fields of a request about this board's puzzle: on a graph,
 *  the graph as the page plays it (graph6, whatever it was picked as, so
 *  that the server solves the very graph drawn). */
export function puzzleBody() {
  const body = { rule: ruleName(), torus: state.torus };
  if (state.states !== 2) body.states = state.states;
  if (state.graph) {
    delete body.torus;
    body.graph = toGraph6(state.graph);
  }
  return body;
}

/** The puzzle's shape for /api/analyze: its size, or its graph. */
export function shapeBody() {
  return state.graph ? puzzleBody() : { rows: state.rows, cols: state.cols, ...puzzleBody() };
}
