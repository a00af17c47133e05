// The solution from the server, and stepping through it: Solve, Hint, Step.

import { $, allOf, cellName, presses, say, state } from "./state.js";
import { forgetSolution, remaining, showLegend, solvedText, stepsAll, stepsDone, stray } from "./puzzle.js";
import { changed } from "./draw.js";
import { api, boardBody, boardRows, gridBits, gridNumbers, puzzleBody, targetBody } from "./client.js";
import { makeMove, progressText } from "./play.js";

/** Presses listed in words under the board (all are drawn). */
const LISTED_PRESSES = 100;

/** Asks for the fewest presses from the board as it is now, and shows
 *  them all. */
export async function solve() {
  // A solution a hint or a step already fetched is the one shown, so that
  // the hints given are among its presses.
  const hidden = state.solution && !state.solution.shown ? state.solution : null;
  const s = hidden || (await fetchSolution());
  if (s) reveal(s);
  return s;
}

/** Asks the server for the fewest presses from the board as it is now and
 *  keeps them, hidden: a hint or a step uses them without giving the rest
 *  away; `reveal` shows them. */
async function fetchSolution() {
  const answer = await api("/api/solve", { board: boardBody(), target: targetBody(), ...puzzleBody() });
  // Two states answer by colour, more with a list of targets.
  const name = state.states === 2
    ? (state.target === "either" ? answer.best.target : state.target)
    : (state.target === "either" ? answer.best.target : Number(state.target));
  const entry = name === null || name === undefined ? null
    : state.states === 2 ? answer[name] : answer.targets.find((t) => t.target === name);
  if (!entry || !entry.solvable) {
    forgetSolution();
    await explainImpossible(answer);
    changed();
    return null;
  }
  const counts = gridNumbers(entry.solution);
  const toPress = [];
  counts.forEach((n, i) => { if (n) toPress.push(i); });
  state.solution = {
    presses: new Map(toPress.map((i) => [i, counts[i]])),
    pressed: new Map(),
    target: name,
    proven: entry.proven_minimal,
    count: entry.presses,
    shown: false,
  };
  state.hint = -1;
  showLegend();
  return state.solution;
}

/** Shows the solution `s`: every press drawn and listed. */
function reveal(s) {
  s.shown = true;
  state.hint = -1;
  const proof = s.proven ? "proven minimal" : "not proven minimal";
  say(`${presses(s.count)} to ${allOf(s.target)} (${proof}).`);
  // A cell pressed n times is listed as r1c2×n; a vertex as v3×n.
  const where = (i) => (state.graph ? `v${i}` : `r${Math.floor(i / state.cols) + 1}c${(i % state.cols) + 1}`);
  const toPress = [...s.presses.keys()];
  const listed = toPress.slice(0, LISTED_PRESSES).map((i) => `${where(i)}${s.presses.get(i) > 1 ? `×${s.presses.get(i)}` : ""}`);
  if (toPress.length > LISTED_PRESSES) listed.push(`… and ${toPress.length - LISTED_PRESSES} more`);
  $("presses").textContent = toPress.length ? "Press: " + listed.join(" ") : "No presses needed.";
  changed();
}

/** Says why no presses reach the target, and marks the proof from
 *  /api/check: a pattern that every press meets evenly while the board
 *  does not. */
async function explainImpossible(answer) {
  if (state.states === 2) {
    const goal = state.target === "either" ? "all white or all black" : `all ${state.target}`;
    // The proof: a pattern that every press meets in an even number of
    // cells, and the cells to flip in an odd number.
    const colour = state.target === "black" ? "black" : "white";
    const check = await api("/api/check", { board: boardRows(), target: colour, ...puzzleBody() });
    state.proof = gridBits(check[colour].obstruction).reduce((cells, bit, i) => (bit ? [...cells, i] : cells), []);
    say(`Impossible: no presses make this board ${goal} (nullity ${answer.nullity}). ` +
      `The squares mark the proof: every press flips an even number of them, but an odd number must change to reach all ${colour}.`);
    return;
  }
  const k = state.states;
  const goal = state.target === "either" ? "uniform (any state)" : allOf(state.target);
  // The proof is a weighting of the cells: every press adds a multiple of
  // K to the weighted sum of the board, but reaching the target changes it
  // by something else. For "any", the weighting for all 0s.
  const target = state.target === "either" ? 0 : Number(state.target);
  const check = await api("/api/check", { board: boardBody(), target, ...puzzleBody() });
  const found = check.targets.find((t) => t.target === target);
  if (found && found.obstruction) {
    state.proofWeights = gridNumbers(found.obstruction);
    state.proof = [...state.proofWeights.keys()].filter((i) => state.proofWeights[i]);
  }
  const size = `a quiet space of ${answer.kernel_size} press patterns`;
  say(`Impossible: no presses make this board ${goal} (${size}). ` +
    `The boxed numbers are the proof: weigh each cell by its number; every press changes the weighted sum ` +
    `by a multiple of ${k}, but reaching ${allOf(target)} would change it by something else.`);
}

/** One press of a minimal solution, outlined; the rest stays hidden
 *  until Solve. */
export async function hint() {
  const s = state.solution || (await fetchSolution());
  if (!s) return;
  const [next] = remaining(s);
  if (next === undefined) {
    say(`Solved: the board is ${allOf(s.target)}.`);
    return;
  }
  state.hint = next;
  state.cursor = next;
  const kind = s.proven ? "a minimal solution" : "a solution, not proven minimal";
  say(`Hint: press ${cellName(next)} (one press of ${kind}).`);
  changed();
}

/** Presses the next press of the solution (a move like any other). */
export async function step() {
  const s = state.solution || (await fetchSolution());
  if (!s) return;
  const [next] = remaining(s);
  if (next === undefined) {
    say(`Nothing left to press.${solvedText()}`);
    return;
  }
  makeMove(next);
  state.cursor = next;
  // Counted as steps of the solution while no stray press is in the way.
  const strays = [...s.pressed.keys()].some((i) => stray(s, i));
  const where = strays ? `Pressed ${cellName(next)}.` : `Step ${stepsDone(s)} of ${stepsAll(s)}.`;
  say(where + progressText(strays));
  changed();
}
