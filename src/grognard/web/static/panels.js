// grognard room pages: what is shown beside the table: the status line and its clock, the face's tables,
// the count, what just happened, who is winning, the debrief, and the projector's "how to join"
import { $, el, eventItem, foldedTable, resultWords } from "./page.js";
import { role, code, S } from "./state.js";

let deadline = null;  // when the phase's timer runs out (ms), or null
const pageTitle = document.title;  // "Rule set - Player - CODE": the game's own name goes before it

let drawnEvents = null;  // the events the feed was last drawn from, as JSON (null: changed since)

export function addEvents(events) {
  const list = $("events");
  for (const e of events) list.insertBefore(eventItem(e), list.firstChild);
  while (list.children.length > 30) list.removeChild(list.lastChild);
  drawnEvents = null;
}
// the feed drawn anew only when its events changed: a state that brings none (who is winning, a timer, a
// seat taken) leaves its lines as they are, with the place a reader scrolled to and the line being read
function drawEvents(events) {
  const drawn = JSON.stringify(events);
  if (drawn === drawnEvents) return;
  drawnEvents = drawn;
  const list = $("events");
  list.textContent = "";
  for (const e of events) list.insertBefore(eventItem(e), list.firstChild);
}

// each table folds under its caption: folded on a player's page (the orders come first), open elsewhere;
// a table opened or folded stays so when the state is drawn again
const folded = {};

// the status line, the tables, the count, the events, the odds and the debrief of state s
export function drawPanels(s) {
  const over = s.status === "over" || s.status === "ended";
  const game = $("head-game");  // the game's own name (a scenario's title) in the header and the tab's title
  if (game && s.heading !== undefined && game.textContent !== s.heading) {
    game.textContent = s.heading || "";
    game.hidden = !s.heading;
    document.title = (s.heading ? s.heading + " - " : "") + pageTitle;
  }
  const who = $("head-who");  // a player's page: the name they joined with, not "Player" (set as text)
  if (who && role === "player" && s.you && s.you.name && who.textContent !== s.you.name) who.textContent = s.you.name;
  $("turn").textContent = s.ready ? "Turn " + s.turn : (s.dice === "manual" ? "Waiting for the referee's dice" : "Setting up");
  $("phase").textContent = s.phase ? "- " + s.phase : "";
  const words = { lobby: "waiting to start", playing: s.paused ? "paused" : "playing", over: "game over", ended: "ended by the host" };
  const word = words[s.status] || s.status;  // said once: "game over (game over)" was said twice
  $("state").textContent = s.phase && s.phase.toLowerCase().includes(word) ? "" : "(" + word + ")";
  const owing = s.seats.filter((x) => x.owes);
  $("waiting").textContent = s.status === "playing" && owing.length
    ? "Waiting for: " + owing.map((x) => x.seat + (x.player ? " (" + x.player + ")" : x.bot ? " (bot)" : "")).join(", ")
    : "";
  deadline = s.timer && s.timer.left !== null ? Date.now() + s.timer.left * 1000 : null;
  tick();
  const tables = $("tables");
  tables.textContent = "";
  for (const spec of s.tables || []) tables.appendChild(foldedTable(spec, folded, role !== "player"));
  const figs = $("figures");
  figs.textContent = "";
  for (const [label, value] of s.figures || []) { figs.appendChild(el("dt", label)); figs.appendChild(el("dd", value)); }
  drawEvents(s.events || []);
  if (window.grognardOdds) window.grognardOdds.draw(s.odds, s.sides, role);  // static/odds.js
  const debrief = $("debrief");
  debrief.hidden = !over;
  if (over) {
    const r = s.result;
    $("result").textContent = r ? resultWords(r) : "The host ended the game on turn " + s.turn + ".";
    if (!debriefAsked) { debriefAsked = true; loadDebrief(); loadCoach(); }
    const sum = $("summary"); sum.textContent = "";
    for (const [label, value] of s.summary || []) {
      const tr = el("tr"); tr.appendChild(el("th", label, { scope: "row" })); tr.appendChild(el("td", value)); sum.appendChild(tr);
    }
  }
  if (role === "projector") drawJoinInfo(s);
}

let debriefAsked = false;
async function loadDebrief() {
  const box = $("debrief-extra");
  box.textContent = "";
  box.appendChild(el("p", "Playing the same game 400 times with bots, to compare..."));
  try {
    const r = await fetch("/api/rooms/" + code + "/debrief");
    const d = await r.json();
    box.textContent = "";
    if (!r.ok) { box.appendChild(el("p", d.message)); return; }
    for (const line of d.lines) box.appendChild(el("p", line));
    if (d.reasons && d.reasons.length) {  // the bots' reasons: the rules they followed most (core/reasons.py tally)
      box.appendChild(el("h3", "Why the bots played as they did"));
      const list = el("ul", null, { class: "why-tally" });
      for (const line of d.reasons) list.appendChild(el("li", line));
      box.appendChild(list);
    }
    for (const plot of d.plots) {
      const fig = el("figure");
      fig.appendChild(el("img", null, { src: plot.url, alt: plot.alt, class: "plot" }));
      fig.appendChild(el("figcaption", plot.alt));
      box.appendChild(fig);
    }
  } catch (err) { box.textContent = "The debrief could not be made: " + err.message; }
}

// the coach: each person's key decisions beside the hard bot's (a player's page: his own), asked again
// every few seconds while the server is still weighing them
async function loadCoach() {
  const box = $("coach-body");
  try {
    const r = await fetch("/api/rooms/" + code + "/coach", { headers: S.token ? { "X-Token": S.token } : {} });
    const d = await r.json();
    if (!r.ok) { box.textContent = d.message; return; }
    box.textContent = "";
    if (!d.ready) {
      box.appendChild(el("p", "The coach is setting each of your decisions beside the " + d.level + " bot's and playing both out: " + d.done + " of " + d.total + " done."));
      setTimeout(loadCoach, 4000);
      return;
    }
    const me = S.last && S.last.you ? S.last.you.id : null;  // a pupil is sent his own; the host everyone's
    if (!d.players.length) box.appendChild(el("p", role === "player" ? "You gave no orders in this game: nothing to coach."
      : "Each pupil sees the coach's view of his own decisions on his page; the host's reports hold every pupil's."));
    for (const p of d.players) drawCoach(box, p, d.level, !me);
  } catch (err) { box.textContent = "The coach could not be asked: " + err.message; }
}
function drawCoach(box, p, level, named) {
  const who = named ? p.name + " (" + p.seats.join(", ") + "): " : "You: ";
  box.appendChild(el("p", who + p.decisions + " decisions, " + p.as_hard + " as the " + level + " bot would have chosen."));
  if (!p.key.length) { box.appendChild(el("p", "No decision gained or cost anything the playouts could tell.")); return; }
  const list = el("ol", null, { class: "coach-key" });
  for (const w of p.key) {
    const why = w.why && w.why.startsWith(w.suggested + ": ") ? w.why.slice(w.suggested.length + 2) : w.why;
    list.appendChild(el("li", (w.turn ? "Turn " + w.turn : "At the set-up") + ": you chose \u201c" + w.made + "\u201d; the " + level + " bot \u201c" + w.suggested + "\u201d" + (why ? " (" + why + ")" : "") + ": " + w.verdict + "."));
  }
  box.appendChild(list);
}

function tick() {
  const clock = $("clock");
  if (!clock) return;
  if (deadline === null) { clock.textContent = ""; return; }
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  clock.textContent = left + " s left in this phase";
}

// ---------------------------------------------------------------- projector: how to join
// shown in the lobby and hidden once the game starts; the button or the J key shows or hides it any time
let joinChoice = null;  // null: as the game's status says; true or false: the teacher's choice
let joinStatus = null;
function setJoinInfo(open) {
  $("join-info").hidden = !open;
  const button = $("join-toggle");
  button.setAttribute("aria-expanded", String(open));
  button.textContent = open ? "Hide how to join (J)" : "How to join (J)";
}
function drawJoinInfo(s) {
  if (s.status !== joinStatus) { joinStatus = s.status; joinChoice = null; }  // the game started: the table
  setJoinInfo(joinChoice === null ? s.status === "lobby" : joinChoice);
}

// the side panel folded away (the table the page's whole width) or shown
function sidePanel() {
  const button = $("side-toggle"), main = $("main");
  if (!button || !main) return;
  const set = (hidden) => {
    main.classList.toggle("side-hidden", hidden);
    button.setAttribute("aria-expanded", String(!hidden));
    button.textContent = hidden ? "Show the side panel" : "Hide the side panel";
  };
  button.addEventListener("click", () => set(!main.classList.contains("side-hidden")));
}

// the clock ticks; the side panel's button; the projector's J key and button show or hide how to join
export function startPanels() {
  setInterval(tick, 1000);
  sidePanel();
  if (role !== "projector") return;
  const toggle = () => { joinChoice = $("join-info").hidden; setJoinInfo(joinChoice); };
  $("join-toggle").addEventListener("click", toggle);
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.altKey || e.metaKey || e.target.closest("input, select, textarea")) return;
    if (e.key === "j" || e.key === "J") { e.preventDefault(); toggle(); }
    else if (e.key === "Escape" && !$("join-info").hidden) { joinChoice = false; setJoinInfo(false); }
  });
}
