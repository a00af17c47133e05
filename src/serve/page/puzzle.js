// The puzzle, played here: presses, and what is left of a solution.

import { $, allOf, offsets, state, stateKey } from "./state.js";

/** Cells flipped by pressing cell `i`: each once, even on a narrow torus;
 *  on a graph, its neighbours, and the vertex where the rule flips the
 *  pressed cell (plus). */
function flippedBy(i) {
  if (state.graph) {
    const near = state.graph.neighbours[i];
    return offsets().some(([dr, dc]) => dr === 0 && dc === 0) ? [i, ...near] : near;
  }
  const r = Math.floor(i / state.cols), c = i % state.cols;
  const cells = new Set();
  for (const [dr, dc] of offsets()) {
    let rr = r + dr, cc = c + dc;
    if (state.torus) {
      rr = ((rr % state.rows) + state.rows) % state.rows;
      cc = ((cc % state.cols) + state.cols) % state.cols;
    } else if (rr < 0 || rr >= state.rows || cc < 0 || cc >= state.cols) {
      continue;
    }
    cells.add(rr * state.cols + cc);
  }
  return cells;
}

/** Presses cell `i` `times` times (K - 1 times takes a press back). */
export function press(i, times = 1) {
  const k = state.states;
  for (const j of flippedBy(i)) state.board[j] = (state.board[j] + times) % k;
  const s = state.solution;
  if (s) s.pressed.set(i, ((s.pressed.get(i) || 0) + times) % k);
}

/** Sets cell `i` to `value`: drawing, not playing. */
export function setCell(i, value) {
  state.board[i] = value % state.states;
}

/** The state the board shows all over, or null. */
export function uniformState() {
  const first = state.board[0];
  return state.board.every((v) => v === first) ? first : null;
}

/** Whether the board now shows what was asked for. */
export function won() {
  const v = uniformState();
  return v !== null && (state.target === "either" || state.target === stateKey(v));
}

export function solvedText() {
  const v = uniformState();
  return v !== null ? ` The board is ${allOf(v)}.` : "";
}

export function forgetSolution() {
  state.solution = null;
  state.chase = null;
  state.proof = null;
  state.proofWeights = null;
  state.hint = -1;
  $("presses").textContent = "";
  showLegend();
}

/** Whether light chasing has steps left (its marks are on the board). */
function chasing() {
  return state.chase !== null && state.chase.at < state.chase.steps.length;
}

/** The legend's press entry says what the drawn presses are. */
export function showLegend() {
  const s = state.solution;
  $("legend-press").textContent = !s ? (chasing() ? "press of the next chase step" : "press of a solution")
    : s.proven ? "press (minimal solution)" : "press (a solution, not proven minimal)";
}

/** Times cell `i` is still to be pressed to finish the solution `s`. */
export function left(s, i) {
  const k = state.states;
  return (((s.presses.get(i) || 0) - (s.pressed.get(i) || 0)) % k + k) % k;
}

/** Whether cell `i` was pressed past the solution `s` (a stray press):
 *  more is left to press there than the solution asked for. */
export function stray(s, i) {
  return left(s, i) > (s.presses.get(i) || 0);
}

/** The cells still to press for `s`, in reading order. */
export function remaining(s) {
  const cells = new Set([...s.presses.keys(), ...s.pressed.keys()]);
  return [...cells].filter((i) => left(s, i) > 0).sort((a, b) => a - b);
}

/** Presses of the solution made: a cell pressed n times is n steps. */
export function stepsDone(s) {
  return [...s.presses].reduce((done, [i, n]) => done + n - left(s, i), 0);
}

/** Presses in the solution `s`, all steps counted. */
export function stepsAll(s) {
  return [...s.presses.values()].reduce((a, n) => a + n, 0);
}
