// grognard room pages: the host's page (start, pause, take back, referee's dice, the seats and the players)
import { $, el, say, store } from "./page.js";
import { code, S } from "./state.js";
import { send } from "./connection.js";

let settingsDrawn = false;
const UNDO_RULE = "Take back works until a die is rolled or a secret revealed: an action whose dice were rolled stands.";
const chosen = new Set();  // the players ticked on the host page for "Remove the ticked players"

// the host's buttons and forms
export function hostControls() {
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("pause").addEventListener("click", () => send({ type: "pause", paused: !(S.last && S.last.paused) }));
  $("undo").addEventListener("click", () => send({ type: "undo" }));
  $("dice-mode").addEventListener("click", () => send({ type: "dice_mode", mode: S.last && S.last.dice === "manual" ? "seeded" : "manual" }));
  $("end").addEventListener("click", () => { if (confirm("End the game now?")) send({ type: "end" }); });
  $("lock").addEventListener("click", () => send({ type: "lock", locked: !(S.last && S.last.locked) }));
  $("select-unseated").addEventListener("click", () => {
    for (const p of (S.last && S.last.host ? S.last.host.players : [])) if (!p.seats.length) chosen.add(p.id);
    if (S.last) drawHost(S.last);
  });
  $("remove-chosen").addEventListener("click", () => {
    const players = (S.last && S.last.host ? S.last.host.players : []).filter((p) => chosen.has(p.id));
    if (!players.length) { say("Tick the players to remove first.", "error"); return; }
    const names = players.map((p) => p.name);
    const list = names.slice(0, 12).join(", ") + (names.length > 12 ? " and " + (names.length - 12) + " more" : "");
    if (!confirm("Remove " + names.length + (names.length === 1 ? " player" : " players") + " (" + list + ")? Their pages close and their seats are freed.")) return;
    send({ type: "remove_many", players: players.map((p) => p.id) });
    chosen.clear();
  });
  $("delete").addEventListener("click", async () => {
    const playing = S.last && (S.last.status === "playing" || S.last.status === "lobby");
    if (!confirm("Delete this game and its record now, for good?" + (playing ? " It is not over: every page of it closes." : "") + " Nothing of it is kept on the server.")) return;
    const r = await fetch("/api/rooms/" + code, { method: "DELETE", headers: { "X-Host-Token": S.token } });
    const a = await r.json();
    if (r.ok) { store.del("grognard:host:" + code); location.href = "/"; } else say(a.message, "error");
  });
  $("record").addEventListener("click", async (e) => {
    e.preventDefault();
    const r = await fetch("/api/rooms/" + code + "/record", { headers: { "X-Host-Token": S.token } });
    if (!r.ok) { say((await r.json()).message, "error"); return; }
    const url = URL.createObjectURL(await r.blob());
    const a = el("a", null, { href: url, download: "grognard-" + code + ".jsonl" });
    document.body.appendChild(a); a.click(); a.remove();
  });
  $("reports").addEventListener("click", async (e) => {
    e.preventDefault();
    $("reports-note").textContent = "Making the reports...";
    const r = await fetch("/api/rooms/" + code + "/reports", { headers: { "X-Host-Token": S.token } });
    if (!r.ok) { $("reports-note").textContent = ""; say((await r.json()).message, "error"); return; }
    const coach = r.headers.get("X-Coach") || "";
    $("reports-note").textContent = coach === "ready" ? "Downloaded, with the coach's view."
      : "Downloaded. The coach is still weighing the players' decisions (" + coach.replace("working ", "") + "): download again in a few minutes for its view.";
    const url = URL.createObjectURL(await r.blob());
    const a = el("a", null, { href: url, download: "grognard-" + code + "-reports.zip" });
    document.body.appendChild(a); a.click(); a.remove();
  });
  $("settings").addEventListener("submit", (e) => {
    e.preventDefault();
    const f = e.target;
    const bot_names = {};
    for (const sel of $("bot-names").querySelectorAll("select")) bot_names[sel.name] = sel.value;
    send({ type: "settings", fill_bots: f.fill_bots.checked, timer: parseInt(f.timer.value || "0", 10), on_timeout: f.on_timeout.value, bot_names,
      odds_shown: f.odds_shown.value, odds_from: parseInt(f.odds_from.value || "0", 10),
      // the days kept: sent when changed (a server keeping games less than a day takes no whole day)
      retention_days: f.retention_days.value !== f.retention_days.defaultValue ? parseInt(f.retention_days.value || "1", 10) : undefined });
  });
  $("dice-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = $("dice-values");
    if (!input.value.trim()) return;
    send({ type: "dice", values: input.value.trim() });
    input.value = "";
  });
}

// a bot select's options: the levels offered, weakest first, each with its line as a tooltip; a room's older
// bot name (doctrine, search:hard...) stays offered while it is the one chosen
function levelOptions(sel, h, chosen) {
  const names = h.bots.includes(chosen) || !chosen ? h.bots : h.bots.concat([chosen]);
  for (const b of names) {
    sel.appendChild(el("option", b, { value: b, title: h.bot_notes[b] || "", selected: b === chosen }));
  }
}

export function drawHost(s) {
  const h = s.host;
  $("lock").textContent = s.locked ? "Unlock the room (let new players join)" : "Lock the room (no new players)";
  $("lock").setAttribute("aria-pressed", s.locked ? "true" : "false");
  $("lock-note").textContent = s.locked ? "The room is locked: nobody new can join. Players who joined already play on." : "";
  for (const id of Array.from(chosen)) if (!h.players.some((p) => p.id === id)) chosen.delete(id);
  $("join-url").textContent = (h.join_url || location.origin) + "/play/" + code;
  if (h.projector_url) $("projector-link").setAttribute("href", h.projector_url);
  $("start").disabled = s.status !== "lobby" || !s.ready;
  $("start-why").textContent = startWhy(s);
  $("pause").disabled = s.status !== "playing";
  $("pause").textContent = s.paused ? "Resume" : "Pause";
  $("undo").disabled = !h.steps;
  $("undo").title = h.stands ? "The last action stands: " + h.stands + ". " + UNDO_RULE : UNDO_RULE;
  $("dice-mode").textContent = s.dice === "manual" ? "Referee mode is on: let the computer roll again" : "Referee mode: type the table's dice";
  $("dice-mode").disabled = !s.ready;
  $("end").disabled = s.status === "over" || s.status === "ended";
  $("delete").disabled = false;  // at once, a game under way too (after a confirmation)
  $("expires").textContent = h.expires ? "This game and its record are deleted from the server on " +
    new Date(h.expires * 1000).toLocaleString(undefined, { dateStyle: "long", timeStyle: "short" }) +
    " (" + (+h.retention_days.toFixed(4)) + " days after it was made), or when you delete it." : "";
  $("record").hidden = !(s.status === "over" || s.status === "ended");
  $("record").setAttribute("href", "#");
  $("reports").hidden = $("record").hidden;
  $("reports").setAttribute("href", "#");
  if (!settingsDrawn) {
    settingsDrawn = true;
    const f = $("settings");
    f.fill_bots.checked = h.fill_bots;
    f.timer.value = s.timer.seconds;
    f.on_timeout.value = s.timer.on_timeout;
    f.odds_shown.value = h.odds_shown;
    f.odds_from.value = h.odds_from;
    f.retention_days.defaultValue = f.retention_days.value = String(Math.max(1, Math.round(h.retention_days)));
    f.retention_days.max = String(Math.max(1, Math.floor(h.retention_most)));
    const box = $("bot-names");
    for (const side of h.sides) {
      const id = "bot-" + side;
      const p = el("p");
      p.appendChild(el("label", "bot for the " + side + " side", { for: id }));
      p.appendChild(document.createTextNode(" "));
      const sel = el("select", null, { id, name: side, "aria-describedby": id + "-note" });
      levelOptions(sel, h, h.bot_names[side]);
      p.appendChild(sel);
      const note = el("span", null, { id: id + "-note", class: "hint" });
      const show = () => { note.textContent = h.bot_notes[sel.value] || ""; };
      sel.addEventListener("change", show);
      show();
      p.appendChild(el("br"));
      p.appendChild(note);
      box.appendChild(p);
    }
  }
  // dice
  const req = h.dice_request;
  $("dice-panel").hidden = !req;
  if (req) {
    $("dice-purpose").textContent = req.purpose + (req.for ? " (" + req.for + ")" : "");
    let kept = $("dice-kept");
    if (!kept) { kept = el("p", null, { id: "dice-kept" }); $("dice-purpose").after(kept); }
    // the rolls of this order typed already: stored, so a restart of the server keeps them too
    kept.textContent = req.kept && req.kept.length
      ? "Already entered and kept: " + req.kept.map((r) => r.purpose + ": " + r.values.join(" ")).join("; ")
      : "";
    $("dice-label").textContent = "Roll " + req.n + (req.n === 1 ? " die" : " dice") + (req.sides !== 6 ? " (d" + req.sides + ")" : "") + " and type what they show (5 2 6 1 or 5261)";
    $("dice-problem").textContent = req.problem ? "Refused: " + req.problem : "";
  }
  // seats
  const rows = $("seat-rows");
  const focused = document.activeElement && document.activeElement.id;
  rows.textContent = "";
  const commands = s.seats.some((x) => x.commands);  // a side's seats each command part of it: say which
  $("seat-commands").hidden = !commands;
  for (const seat of s.seats) {
    const tr = el("tr");
    tr.appendChild(el("th", seat.seat, { scope: "row" }));
    tr.appendChild(el("td", seat.side));
    if (commands) tr.appendChild(el("td", seat.commands || ""));
    const ptd = el("td");
    const pid = "seat-player-" + seat.seat.replace(/\W+/g, "-");
    const psel = el("select", null, { id: pid, "aria-label": "player of " + seat.seat });
    psel.appendChild(el("option", "(free)", { value: "" }));
    for (const p of h.players) {
      const o = el("option", p.name, { value: p.id });
      if (p.id === seat.player_id) o.selected = true;
      psel.appendChild(o);
    }
    psel.addEventListener("change", () => send({ type: "assign", seat: seat.seat, player: psel.value || null }));
    ptd.appendChild(psel);
    tr.appendChild(ptd);
    const btd = el("td");
    const bid = "seat-bot-" + seat.seat.replace(/\W+/g, "-");
    const bsel = el("select", null, { id: bid, "aria-label": "bot for " + seat.seat });
    bsel.appendChild(el("option", seat.player_id ? "(a person)" : "(default)", { value: "" }));
    levelOptions(bsel, h, seat.player_id ? null : seat.bot);
    bsel.addEventListener("change", () => send({ type: "bot", seat: seat.seat, bot: bsel.value || null }));
    btd.appendChild(bsel);
    tr.appendChild(btd);
    tr.appendChild(el("td", seat.owes ? "to act" : ""));
    rows.appendChild(tr);
  }
  const prow = $("player-rows");
  prow.textContent = "";
  for (const p of h.players) {
    const tr = el("tr");
    const ctd = el("td");
    const tick = el("input", null, { type: "checkbox", id: "tick-" + p.id, "aria-label": "tick " + p.name, checked: chosen.has(p.id) });
    tick.addEventListener("change", () => { if (tick.checked) chosen.add(p.id); else chosen.delete(p.id); drawChosen(); });
    ctd.appendChild(tick);
    tr.appendChild(ctd);
    tr.appendChild(el("th", p.name, { scope: "row" }));
    tr.appendChild(el("td", p.seats.join(", ") || "none"));
    tr.appendChild(el("td", p.online ? "yes" : "no"));
    const rtd = el("td");
    const rid = "rename-" + p.id;
    const rin = el("input", null, { id: rid, maxlength: 32, "aria-label": "new name for " + p.name, autocomplete: "off" });
    const rbtn = el("button", "Rename", { type: "button" });
    rbtn.addEventListener("click", () => { if (rin.value.trim()) send({ type: "rename", player: p.id, name: rin.value }); });
    rtd.appendChild(rin); rtd.appendChild(rbtn);
    tr.appendChild(rtd);
    const xtd = el("td");
    const xbtn = el("button", "Remove " + p.name, { type: "button" });
    xbtn.addEventListener("click", () => {
      if (confirm("Remove " + p.name + (p.seats.length ? " (" + p.seats.join(", ") + ")" : "") + "? Their page closes and their seat is freed.")) send({ type: "remove", player: p.id });
    });
    xtd.appendChild(xbtn);
    tr.appendChild(xtd);
    prow.appendChild(tr);
  }
  drawChosen();
  if (focused && $(focused)) $(focused).focus();
}
// why Start cannot be pressed now, said beside it (a referee saw it greyed out with no word why)
function startWhy(s) {
  if (s.status === "playing") return "The game has started.";
  if (s.status !== "lobby") return "The game is over.";
  if (s.ready) return "";
  if (s.dice === "manual") {
    const req = s.host && s.host.dice_request;
    const kept = req && req.kept ? req.kept.length : 0;
    return "Start waits for the setup's dice: type each roll above" + (kept ? " (" + kept + " typed so far)." : ".");
  }
  return "Start waits for the game to be set up.";
}

// a host command done: said briefly, then cleared (a lasting "Done." read as news long after)
const doneWords = { start: "Started.", pause: "Done: paused or resumed.", settings: "Settings saved.", assign: "Seat given.",
  bot: "Bot set.", rename: "Renamed.", remove: "Removed.", remove_many: "Removed.", lock: "Done: the room's lock changed.",
  undo: "Taken back.", end: "The game is ended.", dice_mode: "Dice mode changed." };
export function sayDone(op, words) {
  const text = words || doneWords[op] || "Done: " + op + ".";
  say(text, "ok", "op");
  setTimeout(() => { const box = $("message"); if (box && box.dataset.about === "op" && box.textContent === text) say(""); }, 5000);
}

function drawChosen() {
  const n = chosen.size;
  $("remove-chosen").textContent = "Remove the ticked players" + (n ? " (" + n + ")" : "");
  $("remove-chosen").disabled = !n;
  const unseated = S.last && S.last.host ? S.last.host.players.filter((p) => !p.seats.length).length : 0;
  $("select-unseated").textContent = "Tick the players without a seat (" + unseated + ")";
  $("select-unseated").disabled = !unseated;
}
