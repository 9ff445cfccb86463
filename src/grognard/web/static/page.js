// grognard pages: what every page's script shares (no build step; plain ES modules). Every text from the
// server is written with textContent.
export const $ = (id) => document.getElementById(id);

export const el = (tag, text, attrs) => {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === false || v === null || v === undefined) continue;
    node.setAttribute(k, v === true ? "" : String(v));
  }
  return node;
};

// the message line; about: what the line is about ("order": sending, done, refused; cleared when the
// decisions it was about go)
export const say = (text, kind, about) => {
  const box = $("message");
  if (!box) return;
  box.textContent = text || "";
  box.className = "message" + (kind ? " " + kind : "");
  if (about) box.dataset.about = about; else delete box.dataset.about;
  // an error said at the top of a long form (the home page's "Make the game") is brought into sight
  if (kind === "error" && text) {
    const r = box.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) box.scrollIntoView({ block: "nearest" });
  }
};

export const store = {
  get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
  set: (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  del: (k) => { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
};

export function randomId() {  // (crypto.randomUUID needs https; a classroom server is often plain http)
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// this browser's own id: the server counts wrong room codes by address and browser, so one pupil's
// typos do not stop the rest of a class behind the same address
let browserId = store.get("grognard:browser");
if (!browserId) {
  browserId = randomId();
  store.set("grognard:browser", browserId);
}
const pause = (ms) => new Promise((done) => setTimeout(done, ms));

// a refusal that says when to try again (many joining at once from one school address) is tried
// again by itself, saying so, up to a few minutes
export async function post(url, data) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      method: "POST", body: JSON.stringify(data),
      headers: { "Content-Type": "application/json", "X-Grognard-Browser": browserId },
    });
    const answer = await response.json().catch(() => ({ message: "the server did not answer" }));
    if (response.ok) return answer;
    if (response.status === 429 && answer.retry && attempt < 30) {
      const wait = answer.retry + Math.random();  // not all at the same moment again
      say("Many are joining at once: trying again in " + Math.ceil(wait) + " s...", "");
      await pause(wait * 1000);
      continue;
    }
    throw new Error(answer.message || "refused");
  }
}

// ---------------------------------------------------------------- what the room and replay pages share
function die(value, sides) {
  return el("span", String(value), { class: "die", role: "img", "aria-label": "d" + sides + " showing " + value });
}

// one event of the game: its words, or a roll's purpose and its dice
export function eventItem(e) {
  const li = el("li");
  if (e.dice) {
    li.className = "roll";
    li.appendChild(el("span", e.purpose + ": ", { class: "purpose" }));
    for (const v of e.dice) li.appendChild(die(v, e.sides));
  } else {
    li.textContent = e.text;
  }
  if (e.why) li.appendChild(whyBox(e.why));
  return li;
}

// a bot's reason (core/reasons.py): folded under "why?" beside its line; open, its line in words, the
// rule it followed and the candidates it weighed with their figures
// (the feed is drawn anew with each state: a reason opened stays open, by its order's words)
const openWhys = new Set();
export function whyBox(why) {
  const key = why.seat + "|" + why.action;
  const box = el("details", null, { class: "why", open: openWhys.has(key) });
  box.appendChild(el("summary", "why?", { "aria-label": "why " + why.seat + " did this" }));
  box.appendChild(whyWords(why));
  box.addEventListener("toggle", () => { if (box.open) openWhys.add(key); else openWhys.delete(key); });
  return box;
}

export function whyWords(why) {
  const words = el("div", null, { class: "why-words" });
  words.appendChild(el("p", why.seat + ": " + why.line));
  words.appendChild(el("p", "rule: " + why.clause, { class: "why-clause" }));
  if (why.weighed && why.weighed.length) {
    const list = el("ul", null, { class: "why-weighed", "aria-label": "what it weighed" });
    for (const w of why.weighed) {
      list.appendChild(el("li", w.action + ": " + w.figures + (w.chosen ? " (chosen)" : ""), { class: w.chosen ? "chosen" : null }));
    }
    words.appendChild(list);
  }
  return words;
}

// a face's table ({caption, columns, rows} or {caption, pre}) folded under its caption; a row whose
// "yours" column says "yes" is marked as the viewer's, and the caption names them; a "yours" column with
// nothing of the viewer's in it (every row of a projector's, a spectator's) is left out, blank for them.
// folded: the captions a person opened (false) or folded (true), kept across redraws; open: whether a
// table not in it is open
export function foldedTable(spec, folded, open) {
  const box = el("details", null, { class: "fold", open: !(spec.caption in folded ? folded[spec.caption] : !open) });
  const mine = spec.columns ? spec.columns.indexOf("yours") : -1;
  const yours = mine >= 0 ? spec.rows.filter((r) => r[mine] === "yes").map((r) => r[0]) : [];
  const shown = (cells) => (mine > 0 && !yours.length ? cells.filter((_, i) => i !== mine) : cells);
  box.appendChild(el("summary", spec.caption + (yours.length ? " - yours: " + yours.join(", ") : "")));
  if (spec.pre) box.appendChild(el("pre", spec.pre));
  else {
    const t = el("table", null, { class: "units", "aria-label": spec.caption });
    const head = el("tr");
    for (const c of shown(spec.columns)) head.appendChild(el("th", c, { scope: "col" }));
    const thead = el("thead"); thead.appendChild(head); t.appendChild(thead);
    const tb = el("tbody");
    for (const row of spec.rows) {
      const tr = el("tr");
      shown(row).forEach((cell, i) => tr.appendChild(el(i === 0 ? "th" : "td", cell, i === 0 ? { scope: "row" } : {})));
      if (mine >= 0 && row[mine] === "yes") tr.className = "mine";
      tb.appendChild(tr);
    }
    t.appendChild(tb);
    box.appendChild(t);
  }
  box.addEventListener("toggle", () => { folded[spec.caption] = !box.open; });
  return box;
}

// the result line of a game over: "Allies win on turn 7: ..."
export const resultWords = (r) => (r.outcome === "win" ? r.winner + " win" : r.outcome) + " on turn " + r.turn + ": " + r.reason;
