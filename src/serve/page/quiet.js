// The analysis of the size: rank, nullity and the quiet patterns.

import { $, plural, presses, state } from "./state.js";
import { cellSize, changed, drawGraph, drawGrid } from "./draw.js";
import { api, gridNumbers, shapeBody } from "./client.js";
import { graphInfo, placeGraph } from "./graph.js";

const SHOWN_PATTERNS = 64;

let quietPatterns = [];

/** A kernel's size in words: the number, or a power of two when long. */
function kernelText(a) {
  return a.kernel_size.length <= 12 ? a.kernel_size : `about 2^${a.kernel_size_log2.toFixed(1)}`;
}

/** A power of two as the intro above writes it (2<sup>d</sup>), in text:
 *  2² = 4, and past 2²⁰ only the power (2⁴⁰). */
function powerOfTwo(d) {
  const power = `2${String(d).replace(/[0-9]/g, (c) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[c])}`;
  return d <= 20 ? `${power} = ${2 ** d}` : power;
}

/** The shape analysed, in words: "5×5 plane", or the graph's name with
 *  its vertices and edges. */
function shapeText(a) {
  if (!a.graph) return `${a.rows}×${a.cols} ${a.topology}`;
  const name = state.graph ? state.graph.label : "a graph";
  return `${name[0].toUpperCase()}${name.slice(1)}, ${a.graph.vertices} vertices, ${a.graph.edges} edges`;
}

/** What the analysis says of this size, rule and number of states. */
function analysisText(a) {
  if (!a.states || a.states === 2) {
    const d = a.nullity;
    let text = `${shapeText(a)}, rule ${a.rule}: rank ${a.rank}, nullity ${d}. `;
    text += d === 0
      ? "Every board can be cleared, in exactly one way."
      : `1 board in ${powerOfTwo(d)} can be cleared. Lightest quiet pattern: ${presses(a.lightest_quiet_pattern.presses)}.`;
    if (a.gcd) text += ` gcd polynomial: ${a.gcd}.`;
    return text;
  }
  // Rank and nullity mean something over a field: K prime.
  const rank = a.rank === null ? " (no rank or nullity: K is not prime)" : `, rank ${a.rank}, nullity ${a.nullity}`;
  let text = `${shapeText(a)}, rule ${a.rule}, ${a.states} states: ` +
    `${kernelText(a)} quiet press ${plural(Number(a.kernel_size), "pattern")}${rank}. `;
  text += a.kernel_size === "1"
    ? "Every board can be cleared, in exactly one way."
    : `1 board in ${kernelText(a)} can be cleared, in ${kernelText(a)} ways. ` +
      `Lightest quiet pattern: ${presses(a.lightest_quiet_pattern.presses)}.`;
  return text;
}

/** The explanation above the patterns, in the words of two states or K. */
function quietIntro(states) {
  $("quiet-intro").hidden = states !== 2;
  $("quiet-intro-k").hidden = states === 2;
}

export async function analyze() {
  const box = $("quiet");
  // Nothing of the last size stays on show while the next is computed.
  $("quiet-title").textContent = state.graph ? "Quiet patterns of this graph" : "Quiet patterns of this size";
  $("analysis").textContent = state.graph ? `Analysing ${state.graph.label}…` : `Analysing ${state.rows}×${state.cols}…`;
  box.replaceChildren();
  try {
    const graph = state.graph;
    const a = await api("/api/analyze", shapeBody());
    // A graph is drawn where the server's layout puts its vertices: the
    // board waits for the first answer about it.
    if (graph && !graph.pos && placeGraph(graph, a.layout) && graph === state.graph) {
      $("graph-info").textContent = graphInfo(graph);
      changed();
    }
    const states = a.states || 2;
    // Two states answer with the patterns (on a graph, lists of the
    // vertices pressed); more with {order, pattern}.
    quietPatterns = a.quiet_patterns.map((q) => (states === 2 ? { order: 2, pattern: graph ? vertexRow(q, graph.n) : q } : q));
    $("analysis").textContent = analysisText(a);
    quietIntro(states);
    box.replaceChildren();
    quietPatterns.slice(0, SHOWN_PATTERNS).forEach((q, k) => {
      const button = document.createElement("button");
      button.type = "button";
      const cells = gridNumbers(q.pattern);
      const weight = cells.reduce((n, v) => n + v, 0);
      const order = states === 2 ? "" : `, order ${q.order}`;
      button.setAttribute("aria-label", `Quiet pattern ${k + 1}${order}, ${presses(weight)}: open`);
      const canvas = document.createElement("canvas");
      drawPattern(canvas, cells, a, graph, 96, states);
      button.append(canvas, `${k + 1}${order}: ${presses(weight)}`);
      button.addEventListener("click", () => openPattern(k, a, graph));
      box.append(button);
    });
    if (quietPatterns.length > SHOWN_PATTERNS) {
      box.append(`… and ${quietPatterns.length - SHOWN_PATTERNS} more`);
    }
  } catch (error) {
    $("analysis").textContent = error.name === "AbortError" ? "Cancelled." : `Error: ${error.message}`;
    box.replaceChildren();
  }
}

/** A list of pressed vertices as the row of a graph's board. */
function vertexRow(vertices, n) {
  const row = new Uint8Array(n);
  for (const v of vertices) row[v] = 1;
  return [[...row]];
}

/** A quiet pattern drawn `room` px wide: a grid, or the graph's drawing. */
function drawPattern(canvas, cells, a, graph, room, states) {
  // A graph not yet placed (no layout came) is not drawn.
  if (graph) {
    if (graph.pos) drawGraph(canvas, cells, graph, room, states);
  } else {
    drawGrid(canvas, cells, a.rows, a.cols, cellSize(a.rows, a.cols, room), states);
  }
}

function openPattern(k, a, graph) {
  const q = quietPatterns[k], states = a.states || 2;
  const cells = gridNumbers(q.pattern);
  const weight = cells.reduce((n, v) => n + v, 0);
  const of = graph ? graph.label : `${a.rows}×${a.cols}`;
  $("pattern-title").textContent = states === 2
    ? `Quiet pattern ${k + 1} of ${of}: ${presses(weight)} (black = press)`
    : `Quiet pattern ${k + 1} of ${of}, ${states} states: order ${q.order}, ${presses(weight)} ` +
      "(each cell's number: how many times to press it)";
  drawPattern($("pattern-canvas"), cells, a, graph, 480, states);
  $("pattern-dialog").showModal();
}

let analyzeTimer = 0;

export function analyzeSoon() {
  clearTimeout(analyzeTimer);
  analyzeTimer = setTimeout(analyze, 300);
}

/** The analysis now, not after a pause: a new graph needs its layout. */
export function analyzeNow() {
  clearTimeout(analyzeTimer);
  analyze();
}
