// grognard: a scenario of one's own played, tested and balanced from its text (the server's web/trials.py).
// wireTrials({ruleset, source, options?, play, test, balance, games, box}): source() gives {name, text} (the file
// as it stands), options() the rule set's other options ({name: value}, as a new game's);
// "Play" makes a room of it and opens its host page; "Test it" plays one game of the book against the book and
// links its replay; "Balance it" plays games in the background: a progress bar, a Cancel button, then each
// side's chance with its 95% interval and how long the game lasts. Every text from the server: textContent.
import { el, post, say } from "./page.js";

const pct = (v) => (100 * v).toFixed(0) + "%";
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

async function ask(url, method) {  // a GET or a DELETE of a run: its JSON, or an Error with the server's line
  const r = await fetch(url, { method: method || "GET" });
  const answer = await r.json().catch(() => ({ message: "the server did not answer" }));
  if (!r.ok) throw new Error(answer.message || "refused");
  return answer;
}

// the figures of a run as they stand: a table of each side's chance, the draws, the game's length
function figures(run) {
  const box = el("div", null, { class: "trial-figures" });
  if (!run.done) return box;
  const t = el("table", null, { class: "units trial-sides", "aria-label": "each side's chance, book against book" });
  const head = el("tr");
  for (const c of ["side", "won", "chance", "95% interval"]) head.appendChild(el("th", c, { scope: "col" }));
  t.appendChild(head);
  const rows = run.sides.map((s) => [s.side, s.wins + " of " + run.done, pct(s.share), pct(s.low95) + " to " + pct(s.high95)]);
  if (run.draws && run.draws.games) rows.push(["no winner", run.draws.games + " of " + run.done, pct(run.draws.share), pct(run.draws.low95) + " to " + pct(run.draws.high95)]);
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((cell, i) => tr.appendChild(el(i ? "td" : "th", cell, i ? {} : { scope: "row" })));
    t.appendChild(tr);
  }
  box.appendChild(t);
  const turns = run.turns || {};
  if (turns.median !== null && turns.median !== undefined) {
    const limit = run.to_the_limit && run.limit ? "; " + run.to_the_limit.games + " of " + run.done + " reached the turn limit (" + run.limit + ")" : "";
    box.appendChild(el("p", "Game length: " + turns.median + " turns (half of the games " + turns.q1 + " to " + turns.q3 + ", all " + turns.min + " to " + turns.max + ")" + limit, { class: "trial-turns" }));
  }
  return box;
}

export function wireTrials(o) {
  const box = o.box;
  box.classList.add("trial-box");
  const busy = (on) => { for (const b of [o.play, o.test, o.balance]) if (b) b.dataset.busy = on ? "1" : ""; };
  const file = async () => {
    const f = await o.source();
    if (!f || !f.text) throw new Error("no scenario to try: draw one, or choose its file");
    return { ruleset: o.ruleset(), upload: { name: f.name || "table.toml", text: f.text }, options: o.options ? o.options() : {} };
  };
  if (o.play) o.play.addEventListener("click", async () => {
    try {
      const made = await post("/api/rooms", await file());
      location.href = made.host_url;
    } catch (e) { say(String(e.message || e), "error"); }
  });
  if (o.test) o.test.addEventListener("click", async () => {
    box.textContent = "";
    box.appendChild(el("p", "Playing one game, the book against the book...", { class: "trial-status" }));
    busy(true);
    try {
      const t = await post("/api/trials/test", await file());
      box.textContent = "";
      const r = t.result || {};
      const end = r.outcome === "win" ? r.winner + " win" : r.outcome || "no result";
      box.appendChild(el("p", "One game, the book against the book (seed " + t.seed + "): " + end + " on turn " + t.turn + (r.reason ? ": " + r.reason : "") + ".", { class: "trial-status" }));
      const a = el("a", "Watch its replay (" + t.steps + " steps)", { href: t.url, target: "_blank", rel: "noopener", class: "trial-replay" });
      box.appendChild(el("p")).appendChild(a);
    } catch (e) {
      box.textContent = "";
      box.appendChild(el("p", "Not tested: " + (e.message || e), { class: "problem" }));
    }
    busy(false);
  });
  if (o.balance) o.balance.addEventListener("click", async () => {
    box.textContent = "";
    // the number typed, said back in words when out of reach (was "malformed message: games: Input should be ...")
    const typed = o.games ? o.games.value.trim() : "100";
    const most = o.games && o.games.max ? Number(o.games.max) : 200;
    const games = Number(typed);
    if (!/^[0-9]+$/.test(typed) || games < 1 || games > most) {
      box.appendChild(el("p", "Not balanced: games: " + (typed || "nothing typed") + ": a whole number from 1 to " + most + " here (grognard balance at a terminal plays more)", { class: "problem" }));
      return;
    }
    let run;
    try {
      run = await post("/api/trials/balance", Object.assign(await file(), { games: games }));
    } catch (e) {
      box.appendChild(el("p", "Not balanced: " + (e.message || e), { class: "problem" }));
      return;
    }
    const url = run.url;
    const line = el("p", "", { class: "trial-status", role: "status" });
    const bar = el("progress", null, { max: run.games, value: 0, class: "trial-progress", "aria-label": "games played" });
    const cancel = el("button", "Cancel", { type: "button", class: "trial-cancel" });
    const shown = el("div");
    cancel.addEventListener("click", async () => { try { run = await ask(url, "DELETE"); } catch (e) { say(String(e.message || e), "error"); } });
    box.appendChild(line); box.appendChild(bar); box.appendChild(cancel); box.appendChild(shown);
    for (;;) {
      const left = run.left_seconds !== null && run.left_seconds !== undefined && run.status === "running" ? ", about " + Math.ceil(run.left_seconds) + " s of play left" : "";
      const state = { running: "playing", done: "done", cancelled: "cancelled", failed: "failed: " + run.problem }[run.status] || run.status;
      line.textContent = "Book against book, " + run.done + " of " + run.games + " games (" + state + left + ")";
      bar.value = run.done;
      shown.replaceChildren(figures(run));
      if (run.status !== "running") break;
      await pause(500);
      try { run = await ask(url); } catch (e) { line.textContent = "Lost the run: " + (e.message || e); break; }
    }
    cancel.remove();
    box.dataset.run = run.status;
  });
}
