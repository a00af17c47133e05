// The explorer page: plain DOM and canvas, no framework, no build step.
// This module wires the board and the buttons and starts the page; the
// others (imported below) each hold one part of it, state.js at the bottom.

import { $, allOf, cellName, moveCursor, presses, say, state, stateName } from "./state.js";
import { loadFromUrl } from "./url.js";
import { forgetSolution, press } from "./puzzle.js";
import { cellUnder, changed, drawBoard } from "./draw.js";
import { api, boardCells, cancelAll, failed, shapeBody, targetBody } from "./client.js";
import { clickCell, newBoard, undo } from "./play.js";
import { hint, solve, step } from "./solution.js";
import { chaseStep } from "./chase.js";
import { analyze, analyzeSoon } from "./quiet.js";
import { drawHeat, wireHeat } from "./heat.js";
import { buildGraphPicker, buildMask, buildRuleMenu, openSize, showSettings, wireSettings } from "./settings.js";

/** The cell or vertex a click on the board hit, or -1. */
function cellAt(event) {
  const canvas = $("board");
  const box = canvas.getBoundingClientRect();
  const scale = canvas.width / box.width;
  return cellUnder((event.clientX - box.left) * scale, (event.clientY - box.top) * scale);
}

/** `count` numbers drawn uniformly from 0..k-1. A byte mod k would favour
 *  the low states when k does not divide 256: draws at or past the last
 *  whole multiple of k are thrown back. */
function uniformStates(count, k) {
  const out = new Uint8Array(count);
  const limit = 256 - (256 % k);
  const pool = new Uint8Array(Math.max(16, count));
  let used = pool.length;
  for (let i = 0; i < count;) {
    if (used === pool.length) {
      crypto.getRandomValues(pool);
      used = 0;
    }
    const b = pool[used++];
    if (b < limit) out[i++] = b % k;
  }
  return out;
}

function random(solvable) {
  const cells = state.rows * state.cols;
  const draws = uniformStates(cells, state.states);
  newBoard(state.board);
  forgetSolution();
  if (solvable) {
    // Pressing at random from all white gives a board that can go back:
    // each cell 0..K-1 times.
    state.board = new Uint8Array(cells);
    draws.forEach((n, i) => { if (n) press(i, n); });
    // A board made to be solved is for playing: clicks press from now on.
    state.mode = "play";
    showSettings();
    const goal = state.states === 2 ? "white" : "all 0s";
    say(`A random board that can be cleared to ${goal}. Click cells to press them (play mode).`);
  } else {
    state.board = draws;
    say("A random board.");
  }
  changed();
}

/** Loads a board that needs the most presses any board of this size (or
 *  graph) needs to the target, from /api/hardest, to play. */
async function hardest() {
  const target = targetBody() === "either" ? "any" : targetBody();
  // The distribution where the server finds it cheap to count (the
  // library's own estimate), drawn under the board.
  const answer = await api("/api/hardest", { ...shapeBody(), target, cheap_distribution: true });
  const most = answer.most_presses;
  const goal = target === "any" ? "the nearest uniform board" : allOf(target);
  drawDistribution(answer, goal);
  if (!most.board) {
    say(`No board could be certified; none needs more than ${presses(most.upper)} to ${goal}.`);
    return;
  }
  newBoard(state.board);
  forgetSolution();
  state.board = boardCells(most.board);
  state.mode = "play";
  showSettings();
  if (most.exact) {
    const others = most.boards && most.boards !== "1" ? ` (one of ${most.boards})` : "";
    say(`A hardest board${others}: it needs ${presses(most.lower)} to ${goal}, the most any board needs (proven, ${most.how}).`);
  } else {
    say(`A board needing ${presses(most.lower)} to ${goal}; the hardest need ${most.lower} to ${most.upper} (not settled).`);
  }
  changed();
}

/** log10 of a count given in decimal (counts pass 2^53: the digits say
 *  the magnitude). */
function log10Of(decimal) {
  const digits = decimal.replace(/^0+/, "");
  if (!digits) return -Infinity;
  return Math.log10(Number(digits.slice(0, 15))) + Math.max(0, digits.length - 15);
}

/** An axis label: 500, 2000, 1e6. */
function tickLabel(log10) {
  const value = 10 ** log10;
  return value < 1e4 ? String(Math.round(value)) : `1e${Math.round(log10)}`;
}

/** The boards of the size by their fewest presses, as a histogram under
 *  the hardest board: a bar per number of presses, heights on a log scale
 *  when the counts span more than two decades (as `lightsout hardest
 *  --distribution --png` draws it), the Most Clicks bar red. Hidden when
 *  the answer has no distribution (too costly to count here). */
function drawDistribution(answer, goal) {
  const figure = $("distribution");
  const rows = answer.distribution;
  if (!rows || rows.length === 0) {
    figure.hidden = true;
    return;
  }
  const most = answer.most_presses.exact ? answer.most_presses.upper : null;
  const logs = rows.map((d) => log10Of(d.boards));
  const top = Math.max(0, ...logs);
  const log = top - Math.min(...logs) > 2;
  const canvas = $("distribution-chart");
  const ratio = window.devicePixelRatio || 1;
  const [width, height, left, bottom, head] = [320, 180, 44, 22, 10];
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  canvas.style.width = `${width}px`;
  const g = canvas.getContext("2d");
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.fillStyle = "#fff";
  g.fillRect(0, 0, width, height);
  const plot = height - bottom - head;
  const foot = Math.log10(0.5);
  const ceiling = log ? Math.max(Math.ceil(top), top + 0.1) : 10 ** top;
  const barHeight = (l) => {
    if (!Number.isFinite(l)) return 0;
    const h = log ? ((l - foot) / (ceiling - foot)) * plot : (10 ** l / ceiling) * plot;
    return Math.max(1, Math.round(h));
  };
  const heaviest = Math.max(...rows.map((d) => d.presses));
  // Fractions of a pixel where the bars are many (a 40×40 board has 1601).
  const bar = (width - left - 8) / (heaviest + 1);
  g.font = "10px system-ui, sans-serif";
  g.fillStyle = "#333";
  g.textAlign = "right";
  g.textBaseline = "middle";
  const ticks = log
    ? Array.from({ length: Math.floor(ceiling) + 1 }, (_, d) => d)
        .filter((d) => d % Math.max(1, Math.ceil(ceiling / 5)) === 0)
    : [0, 0.5, 1].map((f) => Math.log10(Math.max(1, Math.round(f * ceiling)))).filter((l, i, all) => all.indexOf(l) === i);
  for (const t of ticks) {
    const y = head + plot - barHeight(t);
    g.fillStyle = "#ddd";
    g.fillRect(left, y, bar * (heaviest + 1), 1);
    g.fillStyle = "#333";
    g.fillText(tickLabel(t), left - 4, y);
  }
  rows.forEach((d, i) => {
    const h = barHeight(logs[i]);
    g.fillStyle = d.presses === most ? "#dc2828" : "#466eb4";
    const gap = bar >= 4 ? 1 : 0;
    g.fillRect(left + d.presses * bar + gap, head + plot - h, Math.max(0.5, bar - gap), h);
  });
  g.fillStyle = "#111";
  g.fillRect(left - 1, head, 1, plot + 1);
  g.fillRect(left - 1, head + plot, bar * (heaviest + 1) + 1, 1);
  g.textAlign = "center";
  g.textBaseline = "top";
  const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].find((s) => s * bar >= 24) || 10000;
  for (let w = 0; w <= heaviest; w += step) g.fillText(String(w), left + w * bar + bar / 2, head + plot + 4);
  const scale = log ? " (log scale)" : "";
  const size = answer.graph ? `this graph` : `${answer.rows}×${answer.cols}`;
  const red = most === null ? "" : ` The red bar, Most Clicks ${most}: ${rows.find((d) => d.presses === most).boards} boards.`;
  $("distribution-caption").textContent = `Boards of ${size} by their fewest presses to ${goal}${scale}.${red}`;
  canvas.setAttribute(
    "aria-label",
    `Histogram: ${rows.map((d) => `${presses(d.presses)}: ${d.boards} boards`).join("; ")}`,
  );
  canvas.dataset.bars = JSON.stringify(rows.map((d) => [d.presses, d.boards]));
  figure.hidden = false;
}

function wire() {
  const board = $("board");
  board.addEventListener("click", (e) => {
    const i = cellAt(e);
    if (i >= 0) clickCell(i);
  });
  board.addEventListener("focus", drawBoard);
  board.addEventListener("blur", drawBoard);
  board.addEventListener("keydown", (e) => {
    if (e.key.startsWith("Arrow")) {
      // On a graph every arrow steps through the vertices in their order.
      state.cursor = state.graph
        ? Math.min(state.cols - 1, Math.max(0, state.cursor + (/Up|Left/.test(e.key) ? -1 : 1)))
        : moveCursor(e.key, state.cursor, state.rows, state.cols);
      say(`${cellName(state.cursor)}: ${stateName(state.board[state.cursor])}.`);
      drawBoard();
    } else if (e.key === " " || e.key === "Enter") {
      clickCell(state.cursor);
    } else if (e.key === "s") {
      solve().catch(failed);
    } else if (e.key === "h") {
      hint().catch(failed);
    } else if (e.key === "n") {
      step().catch(failed);
    } else if (e.key === "c") {
      chaseStep().catch(failed);
    } else if (e.key === "b") {
      undo();
    } else {
      return;
    }
    e.preventDefault();
  });
  wireSettings();
  $("clear").addEventListener("click", () => {
    newBoard(state.board);
    state.board = new Uint8Array(state.rows * state.cols);
    forgetSolution();
    say(state.states === 2 ? "All white." : "All 0s.");
    changed();
  });
  $("random").addEventListener("click", () => random(false));
  $("random-solvable").addEventListener("click", () => random(true));
  $("hardest").addEventListener("click", () => hardest().catch(failed));
  $("solve").addEventListener("click", () => solve().catch(failed));
  $("hint").addEventListener("click", () => hint().catch(failed));
  $("step").addEventListener("click", () => step().catch(failed));
  $("chase").addEventListener("click", () => chaseStep().catch(failed));
  $("step-back").addEventListener("click", undo);
  // Ctrl+Z (Cmd+Z) takes back the last change anywhere but in a text box,
  // whose own undo it leaves alone.
  document.addEventListener("keydown", (e) => {
    const typing = e.target instanceof HTMLInputElement && e.target.type !== "radio" && e.target.type !== "checkbox";
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z" && !typing) {
      e.preventDefault();
      undo();
    }
  });
  // A narrower window (a phone turned) gets a board drawn to its width.
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(drawBoard, 100);
  });
  $("cancel").addEventListener("click", cancelAll);
  // The histogram is of the size, rule, states and target it was asked
  // for: another setting makes it some other size's.
  $("controls").addEventListener("change", () => { $("distribution").hidden = true; });

  wireHeat(openSize);
  // A link followed within the page (another size, rule or board) is a
  // new board, analysed like one typed in.
  window.addEventListener("hashchange", () => {
    say("");
    $("distribution").hidden = true;
    loadFromUrl();
    // What the page said of the board before (a hardest board's count, a
    // solution) is not of this one; what the link's reading said is kept.
    forgetSolution();
    const size = state.graph ? state.graph.label : `${state.rows}×${state.cols}`;
    const kind = state.states === 2 ? "two states" : `${state.states} states`;
    const read = $("status").textContent;
    say(`${read ? `${read} ` : ""}The board of the link: ${size}, ${kind}.`);
    showSettings();
    changed();
    analyzeSoon();
  });
}

// Start: the state from the link, then the first drawing and analysis. On
// a phone the settings and the help start folded, so that the first screen
// is the board with its buttons.
if (window.matchMedia("(max-width: 760px)").matches) {
  $("settings").open = false;
  $("about").open = false;
}
buildRuleMenu();
buildMask();
buildGraphPicker();
loadFromUrl();
showSettings();
wire();
changed();
analyze();
drawHeat();
