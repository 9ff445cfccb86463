// grognard pages: one small script, no build step. Names and every text from the
// server are written with textContent; only the server-made SVG picture of a rule set without a face is
// inserted as markup. A rule set with a face sends its scene (inches): static/table.js draws it.
"use strict";
(function () {
  const body = document.body;
  const role = body.dataset.role;
  const code = body.dataset.code;
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, attrs) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === false || v === null || v === undefined) continue;
      node.setAttribute(k, v === true ? "" : String(v));
    }
    return node;
  };
  // about: what the line is about; "order" (sending, done, refused) is cleared when the decisions it was about go
  const say = (text, kind, about) => {
    const box = $("message");
    if (!box) return;
    box.textContent = text || "";
    box.className = "message" + (kind ? " " + kind : "");
    if (about) box.dataset.about = about; else delete box.dataset.about;
  };
  const store = {
    get: (k) => { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set: (k, v) => { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
    del: (k) => { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  };

  // this browser's own id: the server counts wrong room codes by address and browser, so one pupil's
  // typos do not stop the rest of a class behind the same address
  let browserId = store.get("grognard:browser");
  if (!browserId) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    browserId = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    store.set("grognard:browser", browserId);
  }
  const pause = (ms) => new Promise((done) => setTimeout(done, ms));

  // a refusal that says when to try again (many joining at once from one school address) is tried
  // again by itself, saying so, up to a few minutes
  async function post(url, data) {
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

  // ---------------------------------------------------------------- home page
  if (role === "index") {
    const showOptions = () => {
      for (const box of document.querySelectorAll("fieldset.options")) box.hidden = box.dataset.ruleset !== $("ruleset").value;
    };
    const showSides = () => {  // the solo game's side: those of the rule set chosen
      const chosen = $("ruleset").selectedOptions[0];
      const side = $("solo-side");
      if (!side || !chosen) return;
      side.textContent = "";
      for (const name of (chosen.dataset.sides || "").split(" ").filter((x) => x)) side.appendChild(el("option", name.charAt(0).toUpperCase() + name.slice(1), { value: name }));
    };
    $("ruleset").addEventListener("change", () => { showOptions(); showSides(); });
    showOptions();
    showSides();
    const optionsOf = (f) => {
      const options = {};
      const box = document.querySelector('fieldset.options[data-ruleset="' + f.ruleset.value + '"]');
      for (const input of box ? box.querySelectorAll("[data-option]") : []) {
        const value = input.type === "checkbox" ? (input.checked ? "on" : "off") : input.value.trim();
        if (value !== "") options[input.dataset.option] = value;
      }
      return options;
    };
    // a file of one's own (a scenario TOML) for the rule set chosen: sent whole with the new game
    const uploadOf = async (f) => {
      const box = document.querySelector('fieldset.options[data-ruleset="' + f.ruleset.value + '"]');
      const input = box ? box.querySelector("input[type=file][data-upload]") : null;
      const file = input && input.files && input.files[0];
      return file ? { name: file.name, text: await file.text() } : null;
    };
    $("create-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = e.target;
      try {
        const made = await post("/api/rooms", { ruleset: f.ruleset.value, options: optionsOf(f), dice: f.dice.value, upload: await uploadOf(f) });
        store.set("grognard:host:" + made.code, made.host_token);
        location.href = "/host/" + made.code;
      } catch (err) { say(err.message, "error"); }
    });
    // play solo: one request makes the game, seats you on your side, gives the rest to bots and starts it
    if ($("solo-start")) $("solo-start").addEventListener("click", async () => {
      const f = $("create-form");
      const name = $("solo-name").value.trim() || "Solo player";
      try {
        const made = await post("/api/rooms", {
          ruleset: f.ruleset.value, options: optionsOf(f), dice: "seeded", solo: { name, side: $("solo-side").value }, upload: await uploadOf(f),
        });
        store.set("grognard:host:" + made.code, made.host_token);
        store.set("grognard:player:" + made.code, made.token);
        location.href = made.play_url;
      } catch (err) { say(err.message, "error"); }
    });
    // a saved game record, replayed by the server (every die and digest checked): refused with one line
    $("replay-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const file = $("replay-file").files[0];
      if (!file) { say("Choose a game record (.jsonl) first.", "error"); return; }
      say("Reading the record...", "");
      try {
        const response = await fetch("/api/replays?name=" + encodeURIComponent(file.name), { method: "POST", body: file, headers: { "Content-Type": "application/x-ndjson" } });
        const answer = await response.json().catch(() => ({ message: "the server did not answer" }));
        if (!response.ok) throw new Error(answer.message || "refused");
        location.href = answer.url;
      } catch (err) { say("Refused: " + file.name + ": " + err.message, "error"); }
    });
    $("join-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = e.target;
      const room = f.code.value.trim().toUpperCase();
      try {
        const joined = await post("/api/rooms/" + encodeURIComponent(room) + "/join", { name: f.name.value });
        store.set("grognard:player:" + room, joined.token);
        location.href = "/play/" + room;
      } catch (err) { say(err.message, "error"); }
    });
    return;
  }

  // ---------------------------------------------------------------- room pages
  let token = null;
  if (role === "host") {
    if (location.hash.length > 1) {
      store.set("grognard:host:" + code, location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
    }
    token = store.get("grognard:host:" + code);
    if (!token) say("This browser does not hold the host's token for this game.", "error");
  } else if (role === "player") {
    token = store.get("grognard:player:" + code);
  } else if (role === "projector") {
    // the host page's projector link carries a token: it lets this page in however many others watch
    if (location.hash.length > 1) {
      store.set("grognard:projector:" + code, location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
    }
    token = store.get("grognard:projector:" + code);
  }

  let ws = null;
  let retry = 500;
  let seq = 0;
  let last = null;
  let drawn = [];  // the decisions the player's forms show, each as its JSON text
  let drawnKeys = [];  // and each as "seat|id": the question, whatever its details
  let answered = null;  // the decision the message line's order answers: {key, step (from its ack)}
  const keyOf = (d) => d.seat + "|" + d.id;
  let deadline = null;
  let pickers = {};  // per decision shown (its index): the move form that a click on the picture fills
  let shownDecisions = [];  // the decisions on the page: {id, unit, controls, choices} (a unit: where the table has it)
  let shownId = null;  // the id of the decision whose controls are shown (one at a time)

  // a click on the picture, or a drag across it, fills the point of the shown decision's move form
  // (the typed fields are always there too: dragging is never the only way); the preview is asked on
  // release. A tap on another unit that owes an order picks that unit's decision instead.
  const svgBox = $("svg");
  if (svgBox && role === "player") {  // the server picture of a rule set without a face
    let dragging = false;
    const where = (e) => {
      const svg = svgBox.querySelector("svg");
      if (!svg) return null;
      const point = svg.createSVGPoint();
      point.x = e.clientX; point.y = e.clientY;
      return point.matrixTransform(svg.getScreenCTM().inverse());
    };
    const pick = (e, ask) => {
      const at = where(e);
      const k = shownDecisions.findIndex((d) => d.id === shownId);
      if (!at || k < 0 || !pickers[k]) return false;
      pickers[k](at.x, at.y, ask);
      return true;
    };
    const unitAt = (e) => {  // the nearest other unit owing an order within its ring, if any
      const at = where(e);
      if (!at) return null;
      let best = null;
      for (const d of shownDecisions) {
        if (!d.unit || d.id === shownId) continue;
        const far = Math.hypot(at.x - d.unit.x, at.y - d.unit.y);
        if (far <= d.unit.r && (!best || far < best.far)) best = { id: d.id, far };
      }
      return best && best.id;
    };
    svgBox.addEventListener("pointerdown", (e) => {
      if (tableView || e.button !== 0) return;
      const other = unitAt(e);
      if (other) { choose(other); e.preventDefault(); return; }
      if (!pick(e, false)) return;
      dragging = true;
      svgBox.setPointerCapture(e.pointerId);
      e.preventDefault();
    });
    svgBox.addEventListener("pointermove", (e) => { if (dragging && !tableView) pick(e, false); });
    svgBox.addEventListener("pointerup", (e) => { if (dragging) { dragging = false; pick(e, true); } });
    svgBox.addEventListener("pointercancel", () => { dragging = false; });
  }

  // ---------------------------------------------------------------- the table (a rule set with a face)
  // A tap on a unit owing an order picks its decision; a tap on a target (a pick-target control) asks the
  // preview of that order, or offers the menu's orders on it; a tap or a drag elsewhere fills the shown
  // decision's point (pick-point, drag-path) and asks the preview while pointing. The answer is shown beside
  // the pointer with a Commit button; nothing is given until then. A drag where nothing is picked pans.
  let tableView = null;
  let gesture = null;  // what the pointer on the table is doing: {kind, ...}
  let asked = null;  // the preview asked from the table: {text, d, x, y (client), at (inches)}
  let lastAsk = 0;
  function ensureTable(s) {
    if (tableView || !$("svg") || !window.GrognardTable) return tableView;
    tableView = window.GrognardTable.create($("svg"), {
      sides: s.sides || [], onPointer: onTable, focusMine: role === "player",
      minText: role === "projector" ? 16 : 13, minMark: role === "projector" ? 12 : 9,
      maxAspect: role === "projector" ? 100 : 2,  // the projector: the whole table across the screen
    });
    window.grognardTable = tableView;  // for the tests: tableView.screen(x, y) is where an inch point is
    return tableView;
  }
  function shownDecision() { return shownDecisions.find((d) => d.id === shownId) || null; }
  let tipFor = null;  // the decision ("seat|id") the pointer's box is about: it stays while that is owed
  function clearTip() {
    asked = null; tipFor = null;
    if (tableView) { tableView.preview(null); tableView.tip(0, 0, null); tableView.dropGhost(); }
  }
  function unitNear(at, hit) {  // another decision's unit under the pointer (its ring), if any
    let best = null;
    for (const d of shownDecisions) {
      if (!d.unit || d.id === shownId) continue;
      const far = Math.hypot(at.x - d.unit.x, at.y - d.unit.y);
      if ((hit === d.unit.id || far <= d.unit.r) && (!best || far < best.far)) best = { id: d.id, far };
    }
    return best && best.id;
  }
  function askAt(text, d, e, at, via) {
    if (!text || !text.trim()) return;
    tipFor = keyOf(d);
    asked = { text: text.trim(), d: d, x: e.clientX, y: e.clientY, at: at, via: via || null, n: ++seq };
    send({ type: "preview", action: text.trim(), n: asked.n });
  }
  // One man acting alone (a man's own move, his ladder, a gunner's wedge) or a template laid: the shown
  // decision's controls that carry a place ("from"). A tap on such a man picks him (ringed); then a drag, or
  // a tap where he goes, sets his point. A drag from a man not picked is his unit's path on a move (as
  // before), his wedge's aim on fire. A burst's template is laid by a press anywhere, dragged, and turned
  // by the buttons beside the pointer.
  let picked = null;  // {key ("seat|id" of the decision), id (the man), c (the control his drag sets)}
  const turned = {};  // a template's turn (degrees) by "seat|id|unit", kept while its decision is owed
  const placing = (c) => c.kind === "drag-path" || c.kind === "pick-point" || c.kind === "template";
  function soloControls(d) {
    return (d.controls || []).filter((c) => c.from && placing(c) && !(d.unit && c.unit === d.unit.id));
  }
  function placeControl(d) {  // the decision's own point to lay (a burst's template)
    return (d.controls || []).find((c) => c.kind === "template" && c.from && d.unit && c.unit === d.unit.id) || null;
  }
  function manAt(d, at, hit) {  // the man of the shown decision who may act alone under the pointer
    const px = tableView.perInch();
    let best = null;
    for (const c of soloControls(d)) {
      const far = Math.hypot(at.x - c.from[0], at.y - c.from[1]);
      if ((hit === c.unit || far * px <= Math.max(0.6 * px, 12)) && (!best || far < best.far)) best = { id: c.unit, far };
    }
    return best && best.id;
  }
  const angled = (c) => (c.fields || []).some((f) => f.name === "angle");
  function turnOf(d, c) {
    const k = keyOf(d) + "|" + c.unit;
    if (turned[k] !== undefined) return turned[k];
    const f = (c.fields || []).find((x) => x.name === "angle");
    return f ? Number(f.value) || 0 : 0;
  }
  const hundredths = (v) => String(Math.round(v * 100) / 100);
  function fillOrder(c, vals) {
    return c.template.replace(/\{(\w+)\}/g, (_, n) => {
      if (vals[n] !== undefined) return hundredths(vals[n]);
      const f = (c.fields || []).find((x) => x.name === n);
      return f ? String(f.value) : "0";
    });
  }
  function fillForm(c, vals) {  // the control's form gets the same numbers: the keyboard's way stays in step
    const form = document.querySelector('.decision:not([hidden]) form.order-form[aria-label="' + CSS.escape(c.title) + '"]');
    if (!form) return;
    for (const [n, v] of Object.entries(vals)) { const i = form.querySelector('[name="' + n + '"]'); if (i) i.value = hundredths(v); }
  }
  function onLine(c, at) {  // a control with lines to snap to (a wall's): the nearest point of one within 1.5"
    let best = null;
    for (const [a, b] of c.snap || []) {
      const dx = b[0] - a[0], dy = b[1] - a[1], len = dx * dx + dy * dy;
      const t = len ? Math.max(0, Math.min(1, ((at.x - a[0]) * dx + (at.y - a[1]) * dy) / len)) : 0;
      const p = { x: a[0] + t * dx, y: a[1] + t * dy }, far = Math.hypot(at.x - p.x, at.y - p.y);
      if (far <= 1.5 && (!best || far < best.far)) best = { x: p.x, y: p.y, far: far };
    }
    return best ? { x: best.x, y: best.y } : at;
  }
  function place(g, at, e, final) {  // g {c, d, from}: the control's point at the pointer, asked (throttled on the way)
    at = onLine(g.c, at);
    const vals = { x: at.x, y: at.y };
    if (angled(g.c)) vals.angle = turnOf(g.d, g.c);
    fillForm(g.c, vals);
    if (g.c.kind === "drag-path") tableView.drag({ x: g.from[0], y: g.from[1] }, at);
    const now = Date.now();
    if (final || now - lastAsk > 300) { lastAsk = now; askAt(fillOrder(g.c, vals), g.d, e, at, { c: g.c, d: g.d, from: g.from }); }
  }
  function unpick() { picked = null; if (tableView) tableView.pick(null); }
  function pickMan(d, id, e) {
    const mine = soloControls(d).filter((c) => c.unit === id);
    if (!mine.length) return;
    picked = { key: keyOf(d), id: id, c: mine[0] };
    tableView.preview(null);
    tableView.pick({ id: id, x: mine[0].from[0], y: mine[0].from[1] });
    tipFor = keyOf(d);
    const say = () => tableView.tip(e.clientX, e.clientY, (tip) => {
      tip.appendChild(el("p", id + " is picked: he acts alone", { class: "tip-head" }));
      tip.appendChild(el("p", picked.c.title));
      for (const c of mine.length > 1 ? mine : []) {  // his other ways: a ladder, a move
        const b = el("button", c.verb, { type: "button", class: "tip-mode", "aria-pressed": String(c === picked.c) });
        b.addEventListener("click", () => { picked.c = c; say(); });
        tip.appendChild(b);
      }
      for (const c of (d.controls || []).filter((x) => x.kind === "choice" && x.unit === id && !/\{\w+\}/.test(x.template))) {
        const b = el("button", c.title, { type: "button", "data-order": c.template });
        b.addEventListener("click", () => askAt(c.template, d, e, null));
        tip.appendChild(b);
      }
      const off = el("button", "Let " + id + " go", { type: "button", class: "tip-unpick" });
      off.addEventListener("click", () => { unpick(); clearTip(); });
      tip.appendChild(off);
    });
    say();
  }
  function offer(c, id, d, e) {  // the menu's orders on target id, each a button that asks its preview
    const named = d.choices.filter((ch) => ch.text.split(/\s+/)[0] === c.offer && ch.text.split(/\s+/).includes(id));
    const list = named.length || c.named ? named : d.choices.filter((ch) => ch.text.split(/\s+/)[0] === c.offer);
    tableView.preview(null);
    tipFor = keyOf(d);
    tableView.tip(e.clientX, e.clientY, (tip) => {
      tip.appendChild(el("p", list.length ? c.title + ":" : "No order of the menu on " + id + " now (out of reach this move?).", { class: "tip-head" }));
      for (const ch of list.slice(0, 8)) {
        const b = el("button", (ch.label || ch.text) + (ch.odds ? " - odds " + ch.odds : ""), { type: "button", "data-order": ch.text });
        b.addEventListener("click", () => askAt(ch.text, d, e, null));
        tip.appendChild(b);
      }
      tip.appendChild(tipCancel());
    });
  }
  function hint(d, e) {  // a tap on the unit itself: what it may be told on the table
    tableView.preview(null);
    tipFor = keyOf(d);
    tableView.tip(e.clientX, e.clientY, (tip) => {
      tip.appendChild(el("p", (d.unit.id || "") + ": " + (d.prompt || ""), { class: "tip-head" }));
      for (const c of d.controls || []) if (c.kind !== "form") tip.appendChild(el("p", c.title));
      tip.appendChild(tipCancel());
    });
  }
  function tipCancel() {
    const b = el("button", "Cancel", { type: "button", class: "tip-cancel" });
    b.addEventListener("click", clearTip);
    return b;
  }
  function onTable(phase, at, hit, e) {
    if (role !== "player") return false;
    const d = shownDecision();
    if (phase === "cancel") { gesture = null; tableView.dropGhost(); clearTip(); return false; }
    if (phase === "down") {
      gesture = null;
      if (!at) return false;
      const other = unitNear(at, hit);
      if (other) { clearTip(); unpick(); choose(other); gesture = { kind: "chosen" }; return true; }
      if (!d) return false;
      const k = shownDecisions.indexOf(d);
      const target = (d.controls || []).find((c) => c.kind === "pick-target" && hit && (c.targets || []).includes(hit));
      const man = manAt(d, at, hit);
      const start = { x: e.clientX, y: e.clientY, moved: false };
      if (picked && picked.key === keyOf(d) && !(man && man !== picked.id) && !target) {
        // the picked man's point: a drag from him or a press elsewhere (a tap on him again lets him go)
        gesture = Object.assign({ kind: "solo", c: picked.c, d: d, from: picked.c.from, onMan: man === picked.id }, start);
        return true;
      }
      if (target) { gesture = { kind: "target", c: target, id: hit, d: d }; return true; }
      // on the unit itself: a drag from it is its path; a tap on it says what a tap elsewhere does
      // (within its ring, or 14 px of it when the table is shown small; not its name, which is beside it)
      const px = tableView.perInch();
      const own = !!(d.unit && Math.hypot(at.x - d.unit.x, at.y - d.unit.y) * px <= Math.max(d.unit.r * px, 14));
      if (man) { gesture = Object.assign({ kind: "candidate", man: man, k: k, d: d }, start); return true; }
      const lay = placeControl(d);
      if (lay && !own) { gesture = Object.assign({ kind: "solo", c: lay, d: d, from: lay.from, onMan: false }, start); return true; }
      if (pickers[k]) {
        gesture = Object.assign({ kind: "point", k: k, d: d, own: own }, start);
        if (!own) pickers[k](at.x, at.y);
        return true;
      }
      if (own) { gesture = { kind: "own", d: d }; return true; }
      return false;
    }
    if (!gesture) return false;
    if (phase === "move" && at && gesture.x !== undefined) {
      if (!gesture.moved && Math.hypot(e.clientX - gesture.x, e.clientY - gesture.y) < 6) return true;
      if (gesture.kind === "candidate") {  // a drag from a man not picked: his unit's path, or his wedge's aim
        const c = soloControls(gesture.d).find((x) => x.unit === gesture.man);
        const g = gesture;
        if (pickers[g.k] && !(c && c.kind === "template")) gesture = { kind: "point", k: g.k, d: g.d, own: true, x: g.x, y: g.y };
        else if (c) gesture = { kind: "solo", c: c, d: g.d, from: c.from, x: g.x, y: g.y };
        else { gesture = { kind: "chosen" }; return true; }
      }
      gesture.moved = true;
      if (gesture.kind === "solo") { place(gesture, at, e, false); return true; }
      if (gesture.kind === "point") {
        const text = pickers[gesture.k](at.x, at.y);
        if (gesture.d.unit) tableView.drag(gesture.d.unit, at);
        const now = Date.now();
        if (now - lastAsk > 300) { lastAsk = now; askAt(text, gesture.d, e, at); }
      }
      return true;
    }
    if (phase === "up") {
      const g = gesture; gesture = null;
      if (g.kind === "candidate") { pickMan(g.d, g.man, e); return true; }  // a tap on a man: he is picked
      if (g.kind === "solo") {
        if (!g.moved && g.onMan) { unpick(); clearTip(); return true; }
        if (at) place(g, at, e, true);
        return true;
      }
      if ((g.kind === "point" && g.own && !g.moved) || g.kind === "own") hint(g.d, e);
      else if (g.kind === "point" && at) askAt(pickers[g.k](at.x, at.y), g.d, e, at);
      if (g.kind === "target") {
        if (g.c.offer) offer(g.c, g.id, g.d, e);
        else askAt(g.c.template.replace("{target}", g.id), g.d, e, null);
      }
      return true;
    }
    return true;
  }
  function turnBy(a, by) {  // the template asked about, turned by ``by`` degrees about its centre and asked again
    let t = turnOf(a.via.d, a.via.c) + by;
    if (t > 180) t -= 360;
    if (t <= -180) t += 360;
    turned[keyOf(a.via.d) + "|" + a.via.c.unit] = t;
    place(a.via, a.at, { clientX: a.x, clientY: a.y }, true);
  }
  // the [ and ] keys turn a template shown beside the pointer, as its buttons do
  document.addEventListener("keydown", (e) => {
    const a = asked;
    if (!a || !a.via || !angled(a.via.c) || (e.key !== "[" && e.key !== "]")) return;
    if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
    e.preventDefault();
    turnBy(a, e.key === "[" ? 15 : -15);
  });
  function tableAnswer(m) {  // a preview asked from the table: drawn on it, and said beside the pointer
    if (!tableView || !asked) return;
    const a = asked;
    const d = shownDecisions.find((x) => x === a.d) || a.d;
    const from = a.via ? { x: a.via.from[0], y: a.via.from[1] } : d.unit;
    const pointed = a.via && a.via.c.kind === "pick-point" && a.at && from;  // a ladder's top: the line to it
    if (m.legal && pointed && !(m.drawn && m.drawn.path)) tableView.preview(Object.assign({ ok: true, path: [[from.x, from.y], [a.at.x, a.at.y]] }, m.drawn || {}));
    else if (m.legal && m.drawn) tableView.preview(Object.assign({ ok: true }, m.drawn));
    else if (!m.legal && a.at && from) tableView.preview({ ok: false, path: [[from.x, from.y], [a.at.x, a.at.y]] });
    else tableView.preview(null);
    if (!gesture) { if (m.legal) tableView.dropGhost(); else tableView.snapBack(); }  // a refused path snaps back
    tableView.tip(a.x, a.y, (tip) => {
      tip.appendChild(el("p", m.legal ? m.action : "Not allowed: " + m.problem, { class: m.legal ? "ok tip-head" : "problem tip-head" }));
      if (m.legal) {
        const dr = m.drawn || {};
        if (dr.length !== undefined && dr.length !== null && a.via) {
          tip.appendChild(el("p", "Path " + Number(dr.length).toFixed(1) + '", costs ' + Number(dr.cost).toFixed(1) + '" of his move, ' + Number(dr.left).toFixed(1) + '" left', { class: "tip-path" }));
        }
        if (m.note) tip.appendChild(el("p", m.note));
        if (dr.lands) tip.appendChild(el("p", "Exact: " + dr.lands, { class: "odds" }));
        if (dr.shapes) {  // a wedge or template: each man under it and his exact chance of dying of it
          const list = dr.odds || [];
          tip.appendChild(el("p", list.length ? "Under it (exact chance of death):" : "Nobody under it.", { class: "tip-under-head" }));
          for (const o of list.slice(0, 10)) tip.appendChild(el("p", o.id + ": " + o.words, { class: "odds tip-under", "data-id": o.id }));
          if (list.length > 10) tip.appendChild(el("p", "and " + (list.length - 10) + " more (ringed on the table)"));
        }
        tip.appendChild(el("p", "Exact odds: " + m.odds, { class: "odds" }));
        if (a.via && angled(a.via.c)) {  // turn the template about its centre, 15 degrees a press
          const row = el("p", null, { class: "tip-turn", role: "group", "aria-label": "turn the template" });
          for (const [words, by] of [["\u27f2 turn left 15\u00b0 [", 15], ["] turn right 15\u00b0 \u27f3", -15]]) {
            const b = el("button", words, { type: "button", class: by > 0 ? "tip-left" : "tip-right" });
            b.addEventListener("click", () => turnBy(a, by));
            row.appendChild(b);
          }
          tip.appendChild(row);
        }
        const commit = el("button", "Commit", { type: "button", class: "tip-commit" });
        commit.addEventListener("click", () => { const text = a.text; clearTip(); unpick(); act(text, d); });
        tip.appendChild(commit);
      }
      tip.appendChild(tipCancel());
    });
  }

  // one decision's controls at a time: the others wait behind their buttons (or a tap on their unit)
  function choose(id) {
    if (!shownDecisions.some((d) => d.id === id)) id = shownDecisions.length ? shownDecisions[0].id : null;
    if (id !== shownId) { previewHome(); const box = $("preview"); if (box) box.textContent = ""; if (picked) unpick(); }
    shownId = id;
    shownDecisions.forEach((d, k) => {
      const section = $("d" + k + "-h") && $("d" + k + "-h").parentNode;
      if (section) section.hidden = d.id !== id;
      const tab = $("d" + k + "-tab");
      if (tab) tab.setAttribute("aria-pressed", d.id === id ? "true" : "false");
    });
    const k = shownDecisions.findIndex((d) => d.id === id);
    if ($("svg")) $("svg").classList.toggle("picking", k >= 0 && !!pickers[k]);
    if (tableView) tableView.element.dataset.shown = id || "";
  }

  function send(message) {
    if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(message)); return true; }
    say("Not connected: trying again...", "error");
    return false;
  }

  // ---------------------------------------------------------------- the outbox: no order is lost
  // Every order is kept here (and in localStorage, so a reload keeps it) with its own client id until
  // the server answers it; it is sent again on every reconnect, and the server applies an id only once.
  const outboxKey = "grognard:outbox:" + code;
  let outbox = [];  // [{client, action, seat, waited}] in the order given
  let lastSent = [];  // orders that had to wait and were sent since the last order given
  if (role === "player") {
    try {
      const kept = JSON.parse(store.get(outboxKey) || "null");
      if (kept && kept.token === token && Array.isArray(kept.orders)) outbox = kept.orders;
    } catch (e) { /* a damaged outbox: nothing to resend */ }
  }
  function saveOutbox() {
    if (outbox.length) store.set(outboxKey, JSON.stringify({ token, orders: outbox }));
    else store.del(outboxKey);
  }
  function clientId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);  // (crypto.randomUUID needs https; a classroom server is often plain http)
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function online() { return !!(ws && ws.readyState === WebSocket.OPEN && ws.greeted); }
  function sendOrder(order) {
    if (!online()) { order.waited = true; return; }
    ws.send(JSON.stringify({ type: "act", action: order.action, seat: order.seat, client: order.client, n: ++seq }));
  }
  function flushOutbox() {  // on every (re)connect: each order not yet answered, again (the server applies it once)
    for (const order of outbox) { order.waited = true; sendOrder(order); }
    saveOutbox();
    showOutbox();
  }
  function orderAnswered(client) {
    const k = outbox.findIndex((o) => o.client === client);
    if (k < 0) return null;
    const [order] = outbox.splice(k, 1);
    saveOutbox();
    if (order.waited) { order.turn = last ? last.turn : undefined; lastSent.push(order); }
    showOutbox();
    return order;
  }
  function outboxBox() {
    let box = $("outbox");
    if (!box && $("decisions")) {
      box = el("p", null, { id: "outbox", class: "message", role: "status", "aria-live": "polite" });
      $("decisions").before(box);
    }
    return box;
  }
  function showOutbox() {
    const box = outboxBox();
    if (!box) return;
    const orders = outbox.map((o) => o.action).join("; ");
    const count = outbox.length + (outbox.length === 1 ? " order" : " orders");
    if (outbox.length && !online()) {
      box.textContent = count + " waiting to be sent: " + orders + ". Not connected: " +
        (outbox.length === 1 ? "it is" : "they are") + " kept and sent as soon as the connection is back.";
      box.className = "message error";
    } else if (outbox.length) {
      box.textContent = count + " sent, waiting for the answer: " + orders;
      box.className = "message";
    } else if (lastSent.length) {
      const turn = lastSent[0].turn;
      box.textContent = "Sent: " + lastSent.map((o) => o.action).join("; ") + (turn !== undefined ? " on turn " + turn : "") +
        " (kept while the connection was down).";
      box.className = "message ok";
    } else {
      box.textContent = "";
      box.className = "message";
    }
  }

  function connect() {
    if (role === "player" && !token) { showJoin(true); return; }
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(scheme + location.host + "/ws/" + code);
    ws.onopen = () => {
      retry = 500;
      resyncing = false;
      ws.send(JSON.stringify({ type: "hello", role, token: token || undefined }));
      ws.greeted = true;
      if (role === "player") flushOutbox();  // the server reads them after the hello, in order
    };
    ws.onmessage = (m) => receive(JSON.parse(m.data));
    ws.onclose = (e) => {
      ws = null;
      if (role === "player") showOutbox();
      if (e.code === 1008) {
        say((e.reason || "refused") + ".", "error");
        if (role === "player" && /token|removed/.test(e.reason || "")) {
          store.del("grognard:player:" + code); token = null; showJoin(true);
        }
        return;
      }
      $("turn").textContent = "Reconnecting...";
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }
  // a Chromebook waking from sleep: reconnect at once
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !ws) connect();
  });

  function showJoin(show) {
    const panel = $("join-panel");
    if (panel) panel.hidden = !show;
    if (show) $("turn").textContent = "Join to play";
  }

  if (role === "player") {
    $("player-join").addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const joined = await post("/api/rooms/" + code + "/join", { name: e.target.name.value, side: e.target.side.value || null });
        token = joined.token;
        store.set("grognard:player:" + code, token);
        showJoin(false);
        say("");
        connect();
      } catch (err) { say(err.message, "error"); }
    });
  }

  // a patch: what changed since the state this page was sent last (grognard/web/patch.py): an object's
  // keys set whole, unset or changed; a list's runs (items put in place of a stretch, or one item changed);
  // the picture's lines likewise. A patch for another state than this page's: ask for the whole state
  function changed(old, op) {
    if (op.lines) return runs(old.split("\n"), op.lines).join("\n");
    if (op.runs) return runs(old, op.runs);
    const out = Object.assign({}, old, op.set || {});
    for (const k of op.unset || []) delete out[k];
    for (const [k, sub] of Object.entries(op.change || {})) out[k] = changed(old[k], sub);
    return out;
  }
  function runs(old, list) {
    const out = [];
    let at = 0;
    for (const run of list) {
      const start = run[0];
      for (let i = at; i < start; i++) out.push(old[i]);
      if (run.length === 2) { out.push(changed(old[start], run[1])); at = start + 1; }
      else { for (const item of run[2]) out.push(item); at = run[1]; }
    }
    for (let i = at; i < old.length; i++) out.push(old[i]);
    return out;
  }
  function merged(p) {
    if (!last || last.version !== p.base) return null;
    const s = changed(last, { set: p.set, unset: p.unset, change: p.change });
    s.type = "state";
    return s;
  }
  let resyncing = false;  // asked for the whole state; patches until it comes are dropped
  window.grognardState = () => last;  // what the page holds (read by the tests)

  function receive(m) {
    if (m.type === "state") { last = m; resyncing = false; draw(m); }
    else if (m.type === "patch") {
      const s = merged(m);
      if (s) { last = s; draw(s); } else if (!resyncing) { resyncing = send({ type: "resync" }); }
    }
    else if (m.type === "events") { addEvents(m.events); }
    else if (m.type === "refused") {
      if (m.client && m.code === "rate") { setTimeout(flushOutbox, 2000); return; }  // kept: sent again soon
      if (m.client) orderAnswered(m.client);
      say("Refused: " + m.message, "error", m.n ? "order" : null);
    } else if (m.type === "ack") {
      if (m.client) orderAnswered(m.client);
      if (m.action) {
        if (answered) answered.step = m.step;
        // the state after it may have come first, asking the same question again (the next turn): no news then
        if (!(last && answered && askedAgain(last))) say("Done: " + m.action, "ok", "order");
      }
      else if (m.dice) say("Dice entered: " + m.dice.join(" "), "ok");
      else if (m.op) say("Done.", "ok");
    } else if (m.type === "preview") { showPreview(m); }
    else if (m.type === "bye") { say(m.message, "error"); }
  }

  // ---------------------------------------------------------------- drawing
  function die(value, sides) {
    return el("span", String(value), { class: "die", role: "img", "aria-label": "d" + sides + " showing " + value });
  }
  function eventItem(e) {
    const li = el("li");
    if (e.dice) {
      li.className = "roll";
      li.appendChild(el("span", e.purpose + ": ", { class: "purpose" }));
      for (const v of e.dice) li.appendChild(die(v, e.sides));
    } else {
      li.textContent = e.text;
    }
    return li;
  }
  function addEvents(events) {
    const list = $("events");
    for (const e of events) list.insertBefore(eventItem(e), list.firstChild);
    while (list.children.length > 30) list.removeChild(list.lastChild);
  }
  function drawEvents(events) {
    const list = $("events");
    list.textContent = "";
    for (const e of events) list.insertBefore(eventItem(e), list.firstChild);
  }
  function table(spec) {
    if (spec.pre) {
      const box = el("div");
      box.appendChild(el("h3", spec.caption));
      box.appendChild(el("pre", spec.pre));
      return box;
    }
    const t = el("table", null, { class: "units" });
    t.appendChild(el("caption", spec.caption));
    const head = el("tr");
    for (const c of spec.columns) head.appendChild(el("th", c, { scope: "col" }));
    const thead = el("thead"); thead.appendChild(head); t.appendChild(thead);
    const tb = el("tbody");
    for (const row of spec.rows) {
      const tr = el("tr");
      row.forEach((cell, i) => tr.appendChild(el(i === 0 ? "th" : "td", cell, i === 0 ? { scope: "row" } : {})));
      if (spec.columns.includes("yours") && row[spec.columns.indexOf("yours")] === "yes") tr.className = "mine";
      tb.appendChild(tr);
    }
    t.appendChild(tb);
    return t;
  }

  // each table folds under its caption: folded on a player's page (the orders come first), open elsewhere;
  // a table opened or folded stays so when the state is drawn again
  const folded = {};
  function foldable(spec) {
    const box = el("details", null, { class: "fold", open: !(spec.caption in folded ? folded[spec.caption] : role === "player") });
    const yours = spec.columns && spec.columns.includes("yours")
      ? spec.rows.filter((r) => r[spec.columns.indexOf("yours")] === "yes").map((r) => r[0]) : [];
    box.appendChild(el("summary", spec.caption + (yours.length ? " - yours: " + yours.join(", ") : "")));
    const inner = table(spec);
    if (inner.tagName === "TABLE") {  // the summary names it: no second caption
      inner.removeChild(inner.querySelector("caption"));
      inner.setAttribute("aria-label", spec.caption);
    } else if (inner.querySelector("h3")) inner.removeChild(inner.querySelector("h3"));
    box.appendChild(inner);
    box.addEventListener("toggle", () => { folded[spec.caption] = !box.open; });
    return box;
  }

  function draw(s) {
    const over = s.status === "over" || s.status === "ended";
    $("turn").textContent = s.ready ? "Turn " + s.turn : (s.dice === "manual" ? "Waiting for the referee's dice" : "Setting up");
    $("phase").textContent = s.phase ? "- " + s.phase : "";
    const words = { lobby: "waiting to start", playing: s.paused ? "paused" : "playing", over: "game over", ended: "ended by the host" };
    $("state").textContent = "(" + (words[s.status] || s.status) + ")";
    const owing = s.seats.filter((x) => x.owes);
    $("waiting").textContent = s.status === "playing" && owing.length
      ? "Waiting for: " + owing.map((x) => x.seat + (x.player ? " (" + x.player + ")" : x.bot ? " (bot)" : "")).join(", ")
      : "";
    deadline = s.timer && s.timer.left !== null ? Date.now() + s.timer.left * 1000 : null;
    tick();
    // a preview's picture stays while the game has not changed since it was asked for (a state sent again:
    // a player joined, the live odds came)
    if (shown && shown.step !== s.step) { shown = null; delete $("svg").dataset.preview; }
    if (s.scene !== undefined && ensureTable(s)) {
      tableView.draw(s.scene, s.sides);
      // the pointer's box and the preview drawn stay while their decision is owed (others play on meanwhile)
    } else if (s.svg !== undefined) showSvg(shown ? shown.svg : s.svg, s.marks);
    const tables = $("tables");
    tables.textContent = "";
    for (const spec of s.tables || []) tables.appendChild(foldable(spec));
    const figs = $("figures");
    figs.textContent = "";
    for (const [label, value] of s.figures || []) { figs.appendChild(el("dt", label)); figs.appendChild(el("dd", value)); }
    drawEvents(s.events || []);
    if (window.grognardOdds) window.grognardOdds.draw(s.odds, s.sides, role);  // static/odds.js
    const debrief = $("debrief");
    debrief.hidden = !over;
    if (over) {
      const r = s.result;
      $("result").textContent = r ? (r.outcome === "win" ? r.winner + " win" : r.outcome) + " on turn " + r.turn + ": " + r.reason
        : "The host ended the game on turn " + s.turn + ".";
      if (!debriefAsked) { debriefAsked = true; loadDebrief(); }
      const sum = $("summary"); sum.textContent = "";
      for (const [label, value] of s.summary || []) {
        const tr = el("tr"); tr.appendChild(el("th", label, { scope: "row" })); tr.appendChild(el("td", value)); sum.appendChild(tr);
      }
    }
    if (role === "projector") drawJoinInfo(s);
    if (role === "player") drawPlayer(s);
    if (role === "host") drawHost(s);
  }

  function showSvg(markup, marks) {
    const box = $("svg");
    box.innerHTML = markup;  // made by the server's render code, every text in it escaped there
    const svg = box.querySelector("svg");
    if (!svg) return;
    svg.setAttribute("role", "img"); svg.setAttribute("aria-labelledby", "board-h");
    svg.removeAttribute("width"); svg.removeAttribute("height");
    const unit = parseFloat(svg.dataset.unit || "1") || 1;  // a wide beach's marks are drawn larger: so are the rings
    for (const m of marks || []) {  // the seat's own units, ringed
      const ring = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      for (const [k, v] of [["cx", m.x], ["cy", m.y], ["r", m.r * unit], ["fill", "none"], ["stroke", "#0072B2"], ["stroke-width", 4 * unit], ["class", "mine"]]) ring.setAttribute(k, String(v));
      const title = document.createElementNS("http://www.w3.org/2000/svg", "title");
      title.textContent = m.label;
      ring.appendChild(title);
      svg.appendChild(ring);
    }
  }

  let shown = null;  // the preview drawn in the picture: {svg, step}

  let debriefAsked = false;
  async function loadDebrief() {
    const box = $("debrief-extra");
    box.textContent = "";
    box.appendChild(el("p", "Playing the same beach 400 times with bots, to compare..."));
    try {
      const r = await fetch("/api/rooms/" + code + "/debrief");
      const d = await r.json();
      box.textContent = "";
      if (!r.ok) { box.appendChild(el("p", d.message)); return; }
      for (const line of d.lines) box.appendChild(el("p", line));
      for (const plot of d.plots) {
        const fig = el("figure");
        fig.appendChild(el("img", null, { src: plot.url, alt: plot.alt, class: "plot" }));
        fig.appendChild(el("figcaption", plot.alt));
        box.appendChild(fig);
      }
    } catch (err) { box.textContent = "The debrief could not be made: " + err.message; }
  }

  function tick() {
    const clock = $("clock");
    if (!clock) return;
    if (deadline === null) { clock.textContent = ""; return; }
    const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
    clock.textContent = left + " s left in this phase";
  }
  setInterval(tick, 1000);

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
  if (role === "projector") {
    const toggle = () => { joinChoice = $("join-info").hidden; setJoinInfo(joinChoice); };
    $("join-toggle").addEventListener("click", toggle);
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.altKey || e.metaKey || e.target.closest("input, select, textarea")) return;
      if (e.key === "j" || e.key === "J") { e.preventDefault(); toggle(); }
      else if (e.key === "Escape" && !$("join-info").hidden) { joinChoice = false; setJoinInfo(false); }
    });
  }

  // ---------------------------------------------------------------- player
  function drawPlayer(s) {
    const you = s.you || {};
    $("you").textContent = (you.name || "") + (you.seats && you.seats.length ? ": you play " + you.seats.join(", ") : ": the host has not given you a seat yet");
    // what the player owes now, and what the box says when that is nothing: both drawn from every state
    // (the game paused, ended or moved on while the decisions stayed the same empty list)
    const decisions = s.decisions || [];
    const now = decisions.map((d) => JSON.stringify(d));
    const idle = $("idle");
    idle.textContent = decisions.length ? "" : idleText(s);
    idle.hidden = decisions.length > 0;
    // a line about an order (sent, done, refused) is news until a question it was not about arrives, its own
    // question is asked again (the next turn), or the game stops (paused, over; the host's take-back pauses it)
    const keys = decisions.map(keyOf);
    const stale = s.status !== "playing" || s.paused || keys.some((k) => !drawnKeys.includes(k)) || askedAgain(s);
    if (stale && $("message").dataset.about === "order") { say(""); answered = null; }
    // "Sent: ..." (an order that waited for the connection) stays until the next order or the game stops
    if (lastSent.length && s.status !== "playing") { lastSent = []; showOutbox(); }
    drawnKeys = keys;
    if (now.length === drawn.length && now.every((d, i) => d === drawn[i])) return;  // the forms keep what is typed in them
    drawn = now;
    const box = $("decisions");
    previewHome();  // out of the forms before they go
    box.textContent = "";
    pickers = {};
    shownDecisions = decisions.map((d) => ({ id: d.id, seat: d.seat, prompt: d.prompt, unit: d.unit || null, controls: d.controls || [], choices: d.choices || [] }));
    if (tipFor && !keys.includes(tipFor)) clearTip();
    if (picked) {  // the picked man stays picked while his decision is owed and he may still act alone
      const d = shownDecisions.find((x) => keyOf(x) === picked.key);
      const c = d && soloControls(d).find((x) => x.unit === picked.id && x.verb === picked.c.verb);
      if (c) { picked.c = c; tableView.pick({ id: picked.id, x: c.from[0], y: c.from[1] }); } else unpick();
    }
    $("preview").textContent = "";
    $("svg").classList.remove("picking");
    if (decisions.length > 1) {  // which one to give now: a button each (or tap its unit on the picture)
      const bar = el("div", null, { class: "picker", role: "group", "aria-labelledby": "picker-h" });
      const anyUnit = decisions.some((d) => d.unit);
      bar.appendChild(el("p", decisions.length + " orders to give. Pick one" + (anyUnit ? " here or tap it on the table" : "") + ":", { id: "picker-h" }));
      decisions.forEach((d, k) => {
        const tab = el("button", d.unit ? d.unit.label || d.unit.id : d.prompt, { type: "button", id: "d" + k + "-tab", "aria-pressed": "false" });
        tab.addEventListener("click", () => choose(d.id));
        bar.appendChild(tab);
      });
      box.appendChild(bar);
    }
    decisions.forEach((d, k) => box.appendChild(decisionForm(d, k)));
    choose(shownId);
  }

  function askedAgain(s) {
    return !!(answered && answered.step !== undefined && answered.step !== null && s.step >= answered.step
      && (s.decisions || []).some((d) => keyOf(d) === answered.key));
  }

  function idleText(s) {
    if (s.status === "lobby") return "The game has not started.";
    if (s.status === "over") return "The game is over.";
    if (s.status === "ended") return "The host ended the game.";
    if (s.paused) return "The game is paused.";
    const waiting = s.seats.filter((x) => x.owes).map((x) => x.seat);
    if (!waiting.length) return "Nothing to decide now.";
    return "Waiting for: " + waiting.slice(0, 8).join(", ") + (waiting.length > 8 ? " and " + (waiting.length - 8) + " more" : "");
  }

  function decisionForm(d, k) {
    const wrap = el("section", null, { class: "decision", "aria-labelledby": "d" + k + "-h" });
    wrap.appendChild(el("h3", d.seat + ": " + d.prompt, { id: "d" + k + "-h" }));
    for (const line of d.situation.slice(1)) wrap.appendChild(el("p", line, { class: "situation" }));
    // the menu
    const menu = el("fieldset");
    // the same odds on every choice (a firer's dice that do not depend on its target): said once, above
    const odds = d.choices.map((c) => c.odds).filter((o) => o);
    const same = odds.length > 1 && odds.length >= d.choices.length - 1 && odds.every((o) => o === odds[0]);
    menu.appendChild(el("legend", same ? "Choose an order" : "Choose an order (odds shown beside each)"));
    if (same) menu.appendChild(el("p", "Odds of each: " + odds[0], { class: "odds" }));
    d.choices.forEach((c, i) => {
      const id = "d" + k + "c" + i;
      const p = el("p", null, { class: "choice" });
      const input = el("input", null, { type: "radio", name: "d" + k, id, value: c.text });
      if (i === 0) input.checked = true;
      p.appendChild(input);
      const label = el("label", c.label || c.text, { for: id });
      if (c.note && !(c.label || "").toLowerCase().includes(c.note.toLowerCase())) label.appendChild(el("span", " - " + c.note, { class: "note" }));
      if (c.odds && !same) label.appendChild(el("span", " - odds: " + c.odds, { class: "odds" }));
      p.appendChild(label);
      menu.appendChild(p);
    });
    const menuButton = el("button", "Commit the chosen order", { type: "button" });
    menuButton.addEventListener("click", () => {
      const chosen = menu.querySelector("input:checked");
      if (chosen) act(chosen.value, d);
    });
    menu.appendChild(menuButton);
    wrap.appendChild(menu);
    // the forms: typed numbers
    d.forms.forEach((f, j) => {
      const form = el("form", null, { class: "order-form", "aria-label": f.title });
      const fs = el("fieldset");
      fs.appendChild(el("legend", f.title));
      const inputs = {};
      for (const field of f.fields) {
        const id = "d" + k + "f" + j + field.name;
        const p = el("p");
        p.appendChild(el("label", field.label + (field.disabled ? " (" + field.disabled + ")" : ""), { for: id }));
        let input;
        if (field.options) {  // a choice among names (the unit attacked)
          input = el("select", null, { id, name: field.name, disabled: !!field.disabled });
          for (const o of field.options) input.appendChild(el("option", o, { value: o, selected: o === field.value }));
        } else {
          input = el("input", null, {
            id, name: field.name, type: "number", min: field.min, max: field.max, step: field.step,
            value: field.value, inputmode: field.step < 1 ? "decimal" : "numeric", disabled: !!field.disabled,
          });
        }
        inputs[field.name] = input;
        p.appendChild(input);
        fs.appendChild(p);
      }
      if (f.pick && !pickers[k]) pickers[k] = ((px, py, ask) => {  // a point on the table (inches) or the picture
        for (const axis of ["x", "y"]) {
          const v = axis === "x" ? px : py;
          inputs[axis].value = String(Math.round((f.pick === true ? v : (v - f.pick[axis].origin) / f.pick[axis].scale) * 100) / 100);
        }
        if (ask) preview(text(), form);
        return text();
      });
      const text = () => f.template.replace(/\{(\w+)\}/g, (_, name) => (inputs[name].value || "0").trim());
      const check = el("button", "Preview: " + f.verb, { type: "button", title: "the odds and the path, nothing given" });
      check.addEventListener("click", () => preview(text(), form));
      const commit = el("button", "Commit: " + f.verb, { type: "submit" });
      const row = el("p", null, { class: "row" });
      row.appendChild(check);
      row.appendChild(commit);
      fs.appendChild(row);
      form.appendChild(fs);
      form.addEventListener("submit", (e) => { e.preventDefault(); act(text(), d); });
      wrap.appendChild(form);
    });
    // the face's orders that need no point or number (climb a ladder, open a door, stay or retreat): buttons
    const plain = (d.controls || []).filter((c) => c.kind === "choice" && c.template && !/\{\w+\}/.test(c.template));
    if (plain.length) {
      const row = el("p", null, { class: "row choices", role: "group", "aria-label": "orders on the table" });
      for (const c of plain) {
        const b = el("button", c.title || c.template, { type: "button", "data-order": c.template });
        b.addEventListener("click", () => act(c.template, d));
        row.appendChild(b);
      }
      wrap.appendChild(row);
    }
    // a typed order
    const typed = el("form", null, { class: "order-form" });
    const tid = "d" + k + "typed";
    const p = el("p");
    // the grammar of this decision's own orders, and an example from its menu (never another side's orders)
    const grammar = (d.usage || []).join("; ") + (d.example ? "; for example: " + d.example : "");
    const label = el("label", "Or type an order ", { for: tid });
    if (grammar) label.appendChild(el("span", "(" + grammar + ")", { class: "hint" }));
    p.appendChild(label);
    typed.appendChild(p);
    const row = el("p", null, { class: "row" });
    const input = el("input", null, { id: tid, name: "order", autocomplete: "off", maxlength: 200 });
    row.appendChild(input);
    const check = el("button", "Preview", { type: "button", title: "the typed order's odds, nothing given" });
    check.addEventListener("click", () => preview(input.value, typed));
    row.appendChild(check);
    row.appendChild(el("button", "Commit", { type: "submit" }));
    typed.appendChild(row);
    typed.addEventListener("submit", (e) => { e.preventDefault(); act(input.value, d); });
    wrap.appendChild(typed);
    return wrap;
  }

  function act(text, d) {
    if (!text.trim()) return;
    answered = { key: keyOf(d), step: null };
    const order = { client: clientId(), action: text.trim(), seat: d.seat, waited: false };
    outbox.push(order);
    lastSent = [];
    if (online()) say("Sending: " + order.action, null, "order");
    sendOrder(order);
    saveOutbox();
    showOutbox();
  }
  // the preview's answer is shown just below the form that asked for it (many aircraft: many forms)
  const previewBox = $("preview");
  const previewParent = previewBox && previewBox.parentNode;
  function previewHome() { if (previewParent && previewBox.parentNode !== previewParent) previewParent.appendChild(previewBox); }
  function preview(text, form) {
    if (!text.trim()) return;
    asked = null;  // asked from a form: said below it (and drawn on the table), not beside the pointer
    if (form && form.isConnected) form.after(previewBox); else previewHome();
    send({ type: "preview", action: text.trim(), n: ++seq });
  }
  function showPreview(m) {
    if (asked && m.n !== undefined && m.n < asked.n) return;  // an answer overtaken by a later ask on the way
    if (asked) tableAnswer(m);
    else if (tableView) { tableView.tip(0, 0, null); tableView.preview(m.legal && m.drawn ? Object.assign({ ok: true }, m.drawn) : null); }
    if (tableView) tableView.element.dataset.preview = m.legal ? m.action : "";
    const box = $("preview");
    box.textContent = "";
    if (shown) { shown = null; delete $("svg").dataset.preview; if (last && last.svg !== undefined) showSvg(last.svg, last.marks); }
    box.appendChild(el("p", m.action + (m.legal ? " - allowed" : " - not allowed: " + m.problem), { class: m.legal ? "ok" : "problem" }));
    if (m.legal) {
      if (m.note) box.appendChild(el("p", m.note));
      box.appendChild(el("p", "Exact odds: " + m.odds, { class: "odds" }));
      if (m.svg) {  // the picture with the order drawn in, until the next state or "back"
        shown = { svg: m.svg, step: last && last.step };
        showSvg(m.svg, last && last.marks);
        $("svg").dataset.preview = m.action;
        const back = el("button", "Back to the table as it is", { type: "button" });
        back.addEventListener("click", () => { shown = null; if (last && last.svg !== undefined) showSvg(last.svg, last.marks); delete $("svg").dataset.preview; box.removeChild(back); });
        box.appendChild(el("p", "The picture shows this order drawn in (dashed: its path and the 4-inch rings of the guns it would meet); it is not given until you commit."));
        box.appendChild(back);
      }
    }
  }

  // ---------------------------------------------------------------- host
  function hostSend(message) { return send(message); }
  if (role === "host") {
    $("start").addEventListener("click", () => hostSend({ type: "start" }));
    $("pause").addEventListener("click", () => hostSend({ type: "pause", paused: !(last && last.paused) }));
    $("undo").addEventListener("click", () => hostSend({ type: "undo" }));
    $("dice-mode").addEventListener("click", () => hostSend({ type: "dice_mode", mode: last && last.dice === "manual" ? "seeded" : "manual" }));
    $("end").addEventListener("click", () => { if (confirm("End the game now?")) hostSend({ type: "end" }); });
    $("lock").addEventListener("click", () => hostSend({ type: "lock", locked: !(last && last.locked) }));
    $("select-unseated").addEventListener("click", () => {
      for (const p of (last && last.host ? last.host.players : [])) if (!p.seats.length) chosen.add(p.id);
      if (last) drawHost(last);
    });
    $("remove-chosen").addEventListener("click", () => {
      const players = (last && last.host ? last.host.players : []).filter((p) => chosen.has(p.id));
      if (!players.length) { say("Tick the players to remove first.", "error"); return; }
      const names = players.map((p) => p.name);
      const list = names.slice(0, 12).join(", ") + (names.length > 12 ? " and " + (names.length - 12) + " more" : "");
      if (!confirm("Remove " + names.length + (names.length === 1 ? " player" : " players") + " (" + list + ")? Their pages close and their seats are freed.")) return;
      hostSend({ type: "remove_many", players: players.map((p) => p.id) });
      chosen.clear();
    });
    $("delete").addEventListener("click", async () => {
      if (!confirm("Delete this game and its record for good?")) return;
      const r = await fetch("/api/rooms/" + code, { method: "DELETE", headers: { "X-Host-Token": token } });
      const a = await r.json();
      if (r.ok) { store.del("grognard:host:" + code); location.href = "/"; } else say(a.message, "error");
    });
    $("record").addEventListener("click", async (e) => {
      e.preventDefault();
      const r = await fetch("/api/rooms/" + code + "/record", { headers: { "X-Host-Token": token } });
      if (!r.ok) { say((await r.json()).message, "error"); return; }
      const url = URL.createObjectURL(await r.blob());
      const a = el("a", null, { href: url, download: "grognard-" + code + ".jsonl" });
      document.body.appendChild(a); a.click(); a.remove();
    });
    $("settings").addEventListener("submit", (e) => {
      e.preventDefault();
      const f = e.target;
      const bot_names = {};
      for (const sel of $("bot-names").querySelectorAll("select")) bot_names[sel.name] = sel.value;
      hostSend({ type: "settings", fill_bots: f.fill_bots.checked, timer: parseInt(f.timer.value || "0", 10), on_timeout: f.on_timeout.value, bot_names });
    });
    $("dice-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = $("dice-values");
      if (!input.value.trim()) return;
      hostSend({ type: "dice", values: input.value.trim() });
      input.value = "";
    });
  }

  let settingsDrawn = false;
  const chosen = new Set();  // the players ticked on the host page for "Remove the ticked players"
  function drawHost(s) {
    const h = s.host;
    $("lock").textContent = s.locked ? "Unlock the room (let new players join)" : "Lock the room (no new players)";
    $("lock").setAttribute("aria-pressed", s.locked ? "true" : "false");
    $("lock-note").textContent = s.locked ? "The room is locked: nobody new can join. Players who joined already play on." : "";
    for (const id of Array.from(chosen)) if (!h.players.some((p) => p.id === id)) chosen.delete(id);
    $("join-url").textContent = (h.join_url || location.origin) + "/play/" + code;
    if (h.projector_url) $("projector-link").setAttribute("href", h.projector_url);
    $("start").disabled = s.status !== "lobby" || !s.ready;
    $("pause").disabled = s.status !== "playing";
    $("pause").textContent = s.paused ? "Resume" : "Pause";
    $("undo").disabled = !h.steps;
    $("dice-mode").textContent = s.dice === "manual" ? "Referee mode is on: let the computer roll again" : "Referee mode: type the table's dice";
    $("dice-mode").disabled = !s.ready;
    $("end").disabled = s.status === "over" || s.status === "ended";
    $("delete").disabled = !(s.status === "over" || s.status === "ended");
    $("record").hidden = !(s.status === "over" || s.status === "ended");
    $("record").setAttribute("href", "#");
    if (!settingsDrawn) {
      settingsDrawn = true;
      const f = $("settings");
      f.fill_bots.checked = h.fill_bots;
      f.timer.value = s.timer.seconds;
      f.on_timeout.value = s.timer.on_timeout;
      const box = $("bot-names");
      for (const side of h.sides) {
        const id = "bot-" + side;
        const p = el("p");
        p.appendChild(el("label", "bot for the " + side + " side", { for: id }));
        const sel = el("select", null, { id, name: side });
        for (const b of h.bots) { const o = el("option", b, { value: b }); if (b === h.bot_names[side]) o.selected = true; sel.appendChild(o); }
        p.appendChild(sel);
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
    for (const seat of s.seats) {
      const tr = el("tr");
      tr.appendChild(el("th", seat.seat, { scope: "row" }));
      tr.appendChild(el("td", seat.side));
      const ptd = el("td");
      const pid = "seat-player-" + seat.seat.replace(/\W+/g, "-");
      const psel = el("select", null, { id: pid, "aria-label": "player of " + seat.seat });
      psel.appendChild(el("option", "(free)", { value: "" }));
      for (const p of h.players) {
        const o = el("option", p.name, { value: p.id });
        if (p.id === seat.player_id) o.selected = true;
        psel.appendChild(o);
      }
      psel.addEventListener("change", () => hostSend({ type: "assign", seat: seat.seat, player: psel.value || null }));
      ptd.appendChild(psel);
      tr.appendChild(ptd);
      const btd = el("td");
      const bid = "seat-bot-" + seat.seat.replace(/\W+/g, "-");
      const bsel = el("select", null, { id: bid, "aria-label": "bot for " + seat.seat });
      bsel.appendChild(el("option", seat.player_id ? "(a person)" : "(default)", { value: "" }));
      for (const b of h.bots) {
        const o = el("option", b, { value: b });
        if (!seat.player_id && seat.bot === b) o.selected = true;
        bsel.appendChild(o);
      }
      bsel.addEventListener("change", () => hostSend({ type: "bot", seat: seat.seat, bot: bsel.value || null }));
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
      rbtn.addEventListener("click", () => { if (rin.value.trim()) hostSend({ type: "rename", player: p.id, name: rin.value }); });
      rtd.appendChild(rin); rtd.appendChild(rbtn);
      tr.appendChild(rtd);
      const xtd = el("td");
      const xbtn = el("button", "Remove " + p.name, { type: "button" });
      xbtn.addEventListener("click", () => {
        if (confirm("Remove " + p.name + (p.seats.length ? " (" + p.seats.join(", ") + ")" : "") + "? Their page closes and their seat is freed.")) hostSend({ type: "remove", player: p.id });
      });
      xtd.appendChild(xbtn);
      tr.appendChild(xtd);
      prow.appendChild(tr);
    }
    drawChosen();
    if (focused && $(focused)) $(focused).focus();
  }
  function drawChosen() {
    const n = chosen.size;
    $("remove-chosen").textContent = "Remove the ticked players" + (n ? " (" + n + ")" : "");
    $("remove-chosen").disabled = !n;
    const unseated = last && last.host ? last.host.players.filter((p) => !p.seats.length).length : 0;
    $("select-unseated").textContent = "Tick the players without a seat (" + unseated + ")";
    $("select-unseated").disabled = !unseated;
  }

  if (role === "player") showOutbox();
  connect();
})();
