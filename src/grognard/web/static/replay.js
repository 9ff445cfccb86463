// grognard's replay viewer: a game record replayed by the server, shown one event (one line of the record)
// at a time on the browser's table (static/table.js), with the dice of each event. The page asks for the
// outline once (the turn after each event), then for each event's scene as it is shown, keeping those
// it has seen. No build step (an ES module); every text from the server is written with textContent.
import { $, el, say, eventItem, foldedTable, resultWords, whyBox } from "./page.js";

const main = $("main");
const api = main.dataset.api;
const turnName = (t) => (t === 0 ? "Setup" : "Turn " + t);

let outline = null;  // {title, ruleset, sides, steps, turns, result, stopped}
let at = 0;          // the event shown
let wanted = 0;      // the event last asked for (a quick run of key presses shows only the last)
const kept = new Map();  // event -> its answer
let tableView = null;
const folded = {};

async function fetchStep(n) {
  if (kept.has(n)) return kept.get(n);
  const response = await fetch(api + "/" + n);
  const answer = await response.json().catch(() => ({ message: "the server did not answer" }));
  if (!response.ok) throw new Error(answer.message || "refused");
  kept.set(n, answer);
  return answer;
}

// the first event of the turn shown at event n, and of the turns before and after it
const firstOf = (turn) => outline.turns.findIndex((t) => t === turn);
function nextTurn(n) {
  const i = outline.turns.findIndex((t, k) => k > n && t > outline.turns[n]);
  return i < 0 ? outline.steps - 1 : i;
}
function previousTurn(n) {
  const start = firstOf(outline.turns[n]);
  if (start < n) return start;  // first back to the start of this turn
  for (let k = n - 1; k >= 0; k--) if (outline.turns[k] < outline.turns[n]) return firstOf(outline.turns[k]);
  return 0;
}

async function show(n) {
  n = Math.max(0, Math.min(outline.steps - 1, n));
  wanted = n;
  let s;
  try { s = await fetchStep(n); } catch (err) {
    if (wanted === n) wanted = at;  // the next move counts from the event still shown
    say("Could not show event " + n + ": " + err.message, "error");
    return;
  }
  if (wanted !== n) return;
  at = n;
  draw(s);
  if (n + 1 < outline.steps) fetchStep(n + 1).catch(() => {});  // the next one ready before it is asked for
}

function draw(s) {
  const turns = outline.turns;
  const lastTurn = turns[turns.length - 1];
  $("turn").textContent = turnName(s.turn) + (s.turn > 0 ? " of " + lastTurn : "");
  $("turn").dataset.turn = String(s.turn);
  const said = turnName(s.turn).toLowerCase();  // "Setup - setup" said once
  $("phase").textContent = s.phase && s.phase.toLowerCase() !== said ? "- " + s.phase : "";
  $("where").textContent = "(event " + s.step + " of " + (outline.steps - 1) + ", record line " + s.line + ")";
  if (s.scene) {
    if (!tableView && window.GrognardTable) {
      tableView = window.GrognardTable.create($("svg"), { sides: outline.sides, labelledby: "board-h", maxAspect: 100 });
      window.grognardTable = tableView;
    }
    if (tableView) tableView.draw(s.scene, outline.sides);
  } else if (s.svg) $("svg").innerHTML = s.svg;  // made by the server's render code, every text escaped there
  const order = $("order");
  order.textContent = "";
  if (s.order) {
    order.appendChild(el("strong", s.order.seat + ": "));
    order.appendChild(document.createTextNode(s.order.text));
    if (s.why) order.appendChild(whyBox(s.why));
  } else order.textContent = s.step === 0 ? "The game is set up." : "";
  const list = $("events");
  list.textContent = "";
  for (const e of s.events) list.appendChild(eventItem(e));
  if (!s.events.length) list.appendChild(el("li", "nothing a spectator sees"));
  const tables = $("tables");
  tables.textContent = "";
  for (const spec of s.tables || []) tables.appendChild(foldedTable(spec, folded, true));
  const figs = $("figures");
  figs.textContent = "";
  for (const [label, value] of s.figures || []) { figs.appendChild(el("dt", label)); figs.appendChild(el("dd", value)); }
  const r = s.result;
  $("end").hidden = !(r || s.ended || (outline.stopped && s.step === outline.steps - 1));
  $("result").textContent = r ? resultWords(r) : s.ended || outline.stopped || "";
  const slider = $("turn-slider");
  slider.value = String(s.turn);
  slider.setAttribute("aria-valuetext", turnName(s.turn));
  $("turn-out").textContent = turnName(s.turn);
  $("first").disabled = $("prev").disabled = $("prev-turn").disabled = s.step === 0;
  $("last").disabled = $("next").disabled = $("next-turn").disabled = s.step === outline.steps - 1;
}

// a move counts from the event last asked for, not the one shown: clicks quicker than the server's
// answers each go one further (counted from the one shown, three quick clicks went one event on)
const moves = {
  first: () => 0,
  "prev-turn": () => previousTurn(wanted),
  prev: () => wanted - 1,
  next: () => wanted + 1,
  "next-turn": () => nextTurn(wanted),
  last: () => outline.steps - 1,
};
function go(name) {
  if (!outline) return;
  const button = $(name);
  show(moves[name]());
  // a button disabled by the move (the last, say) would drop the focus to the page: keep it on the controls
  setTimeout(() => { if (button.disabled && document.activeElement === button) { const other = name.startsWith("prev") || name === "first" ? "next" : "prev"; if (!$(other).disabled) $(other).focus(); } }, 0);
}
for (const name of Object.keys(moves)) $(name).addEventListener("click", () => go(name));
$("turn-slider").addEventListener("input", (e) => {
  if (!outline) return;
  const want = parseInt(e.target.value, 10);
  let i = outline.turns.findIndex((t) => t >= want);  // the first event of that turn (or the next turn with one)
  if (i < 0) i = outline.steps - 1;
  $("turn-out").textContent = turnName(want);
  show(i);
});
document.addEventListener("keydown", (e) => {
  if (!outline || e.altKey || e.ctrlKey || e.metaKey) return;
  const t = e.target;
  if (t && (t.closest && t.closest("svg") || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName))) return;  // the table pans, the slider slides
  const name = {
    ArrowLeft: e.shiftKey ? "prev-turn" : "prev", ArrowRight: e.shiftKey ? "next-turn" : "next",
    PageUp: "prev-turn", PageDown: "next-turn", Home: "first", End: "last",
  }[e.key];
  if (!name) return;
  e.preventDefault();
  go(name);
});

async function start() {
  try {
    const response = await fetch(api);
    const answer = await response.json().catch(() => ({ message: "the server did not answer" }));
    if (!response.ok) throw new Error(answer.message || "refused");
    outline = answer;
  } catch (err) {
    $("turn").textContent = "No replay";
    say("The record could not be replayed: " + err.message, "error");
    return;
  }
  const slider = $("turn-slider");
  slider.min = String(outline.turns[0]);
  slider.max = String(outline.turns[outline.turns.length - 1]);
  window.grognardReplay = { outline: () => outline, at: () => at };  // for the tests
  await show(0);
  if (outline.stopped) say(outline.stopped, "");
}
start();
