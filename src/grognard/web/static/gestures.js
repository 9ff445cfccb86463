// grognard room pages: the player's hands on the table (a rule set with a face, drawn by static/table.js).
import { $, el, whyWords } from "./page.js";
import { role, keyOf, S } from "./state.js";
import { send, act } from "./connection.js";
import { choose } from "./orders.js";

// A tap on a unit owing an order picks its decision; a tap on a target (a pick-target control) asks the
// preview of that order, or offers the menu's orders on it; a tap or a drag elsewhere fills the shown
// decision's point (pick-point, drag-path) and asks the preview while pointing. The answer is shown beside
// the pointer with a Commit button; nothing is given until then. A drag where nothing is picked pans.
let gesture = null;  // what the pointer on the table is doing: {kind, ...}
let lastAsk = 0;
export function ensureTable(s) {
  if (S.tableView || !$("svg") || !window.GrognardTable) return S.tableView;
  S.tableView = window.GrognardTable.create($("svg"), {
    sides: s.sides || [], onPointer: onTable, focusMine: role === "player",
    minText: role === "projector" ? 16 : 13, minMark: role === "projector" ? 12 : 9,
    maxAspect: role === "projector" ? 100 : 2,  // the projector: the whole table across the screen
  });
  window.grognardTable = S.tableView;  // for the tests: tableView.screen(x, y) is where an inch point is
  return S.tableView;
}
function shownDecision() { return S.shownDecisions.find((d) => d.id === S.shownId) || null; }
export function clearTip() {
  S.asked = null; S.tipFor = null; handle = null;
  if (S.tableView) { S.tableView.preview(null); S.tableView.tip(0, 0, null); S.tableView.dropGhost(); S.tableView.handle(null); }
}
function unitNear(at, hit) {  // another decision's unit under the pointer (its ring), if any
  let best = null;
  for (const d of S.shownDecisions) {
    if (!d.unit || d.id === S.shownId) continue;
    const far = Math.hypot(at.x - d.unit.x, at.y - d.unit.y);
    if ((hit === d.unit.id || far <= d.unit.r) && (!best || far < best.far)) best = { id: d.id, far };
  }
  return best && best.id;
}
function unitOf(hit) {  // the unit of the mark under the pointer (a man's: the scene's "unit"), or null
  if (!hit || !S.tableView) return null;
  const g = S.tableView.element.querySelector('[data-id="' + CSS.escape(hit) + '"]');
  return (g && g.getAttribute("data-unit")) || null;
}
function about(d, hit) {  // whether the mark under the pointer is decision d's own: its unit, or one of its men
  if (!d || !hit) return false;
  if (d.unit && (d.unit.id === hit || d.unit.id === unitOf(hit))) return true;
  return (d.controls || []).some((c) => c.unit === hit && (c.from || c.kind === "choice"));
}
function manOwner(hit) {  // the decision owed about the man under the pointer: his own, else his unit's
  if (!hit) return null;
  const own = S.shownDecisions.find((d) => d.unit && d.unit.id === hit);
  if (own) return own.id;
  const unit = unitOf(hit);
  const his = unit && S.shownDecisions.find((d) => d.unit && d.unit.id === unit);
  return his ? his.id : null;
}
function teammateOf(hit) {  // the seat of the player's side that commands the unit (or man) under the pointer, not theirs
  if (!hit || !S.last) return null;
  const unit = hit.split(".")[0];
  const seats = S.last.seats || [];
  const sides = new Set(seats.filter((x) => x.yours).map((x) => x.side));
  const owner = seats.find((x) => !x.yours && sides.has(x.side) && x.commands && x.commands.split(", ").includes(unit));
  return owner ? owner.seat : null;
}
function askAt(text, d, e, at, via, grab) {  // grab: the man a unit's drag holds it by (grabbed)
  if (!text || !text.trim()) return;
  S.tipFor = keyOf(d);
  S.asked = { text: text.trim(), d: d, x: e.clientX, y: e.clientY, at: at, via: via || null, grab: grab || null, n: ++S.seq };
  send({ type: "preview", action: text.trim(), n: S.asked.n });
}
// One man acting alone (a man's own move, his ladder, a gunner's wedge) or a template laid: the shown
// decision's controls that carry a place ("from"). A tap on such a man picks him (ringed); then a drag, or
// a tap where he goes, sets his point. A drag from a man not picked is his unit's path on a move (as
// before), his wedge's aim on fire. A burst's template is laid by a press anywhere, dragged, and turned
// by the buttons beside the pointer.
const turned = {};  // a template's turn (degrees) by "seat|id|unit", kept while its decision is owed
const placing = (c) => c.kind === "drag-path" || c.kind === "pick-point" || c.kind === "template";
export function soloControls(d) {
  return (d.controls || []).filter((c) => c.from && placing(c) && !(d.unit && c.unit === d.unit.id));
}
function placeControl(d) {  // the decision's own point to lay (a burst's template)
  return (d.controls || []).find((c) => c.kind === "template" && c.from && d.unit && c.unit === d.unit.id) || null;
}
function manAt(d, at, hit) {  // the man of the shown decision who may act alone under the pointer
  const px = S.tableView.perInch();
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
  if (g.c.kind === "drag-path") S.tableView.drag({ x: g.from[0], y: g.from[1] }, at);
  const now = Date.now();
  if (final || now - lastAsk > 300) { lastAsk = now; askAt(fillOrder(g.c, vals), g.d, e, at, { c: g.c, d: g.d, from: g.from }); }
}
export function unpick() { S.picked = null; if (S.tableView) S.tableView.pick(null); }
function pickMan(d, id, e) {
  const mine = soloControls(d).filter((c) => c.unit === id);
  if (!mine.length) return;
  S.picked = { key: keyOf(d), id: id, c: mine[0] };
  S.tableView.preview(null);
  S.tableView.pick({ id: id, x: mine[0].from[0], y: mine[0].from[1] });
  S.tipFor = keyOf(d);
  const say = () => S.tableView.tip(e.clientX, e.clientY, (tip) => {
    tip.appendChild(el("p", id + " is picked: he acts alone", { class: "tip-head" }));
    tip.appendChild(el("p", S.picked.c.title));
    for (const c of mine.length > 1 ? mine : []) {  // his other ways: a ladder, a move
      const b = el("button", c.verb, { type: "button", class: "tip-mode", "aria-pressed": String(c === S.picked.c) });
      b.addEventListener("click", () => { S.picked.c = c; say(); });
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
  S.tableView.preview(null);
  S.tipFor = keyOf(d);
  S.tableView.tip(e.clientX, e.clientY, (tip) => {
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
  S.tableView.preview(null);
  S.tipFor = keyOf(d);
  S.tableView.tip(e.clientX, e.clientY, (tip) => {
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
// a tap on a bot's piece (its mark, or one of its men): the reason of its latest order, beside the pointer
function whyTap(phase, hit, e) {
  if (phase !== "down" || !hit || !S.last || !S.last.whys) return false;
  const why = S.last.whys[hit] || S.last.whys[hit.split(".")[0]];
  if (!why) return false;
  gesture = { kind: "chosen" };
  S.tableView.tip(e.clientX, e.clientY, (tip) => {
    tip.appendChild(el("p", "why " + (why.piece || hit) + " did this", { class: "tip-head" }));
    tip.appendChild(whyWords(why));
    tip.appendChild(tipCancel());
  });
  return true;
}
function onTable(phase, at, hit, e) {
  if (role !== "player") return whyTap(phase, hit, e);
  if (phase === "cancel") { gesture = null; S.tableView.dropGhost(); clearTip(); return false; }
  if (phase === "down") {
    gesture = null;
    if (!at) return false;
    if (onHandle(at, e)) {  // the turning handle of the wedge or template shown: dragged round
      gesture = { kind: "turn", a: handle.a, x: e.clientX, y: e.clientY, moved: false };
      return true;
    }
    // a man under the pointer is his own unit's, whatever ring he stands in: a man of the unit shown stays
    // its; one of another unit owing an order chooses that unit, and a drag goes on with it (its path from
    // him, his wedge). Off any man, a press in another unit's ring chooses that unit.
    const d = shownDecision();
    const target = !!d && (d.controls || []).some((c) => c.kind === "pick-target" && hit && (c.targets || []).includes(hit));
    if (!about(d, hit) && !target) {
      const owner = manOwner(hit);
      if (owner && owner !== S.shownId) { clearTip(); unpick(); choose(owner); return pressed(shownDecision(), at, hit, e, true); }
      const other = !unitOf(hit) && !(d && manAt(d, at, hit)) && unitNear(at, hit);
      if (other) { clearTip(); unpick(); choose(other); gesture = { kind: "chosen" }; return true; }
    }
    return pressed(d, at, hit, e, false);
  }
  if (!gesture) return false;
  if (phase === "move" && at && gesture.x !== undefined) return dragged(at, e);
  if (phase === "up") return released(at, e);
  return true;
}
// a press on the table with decision d shown (chosen: d was chosen by this press, on one of its men)
function pressed(d, at, hit, e, chosen) {
  if (!d) return whyTap("down", hit, e);
  const k = S.shownDecisions.indexOf(d);
  const target = (d.controls || []).find((c) => c.kind === "pick-target" && hit && (c.targets || []).includes(hit));
  const man = manAt(d, at, hit);
  const start = { x: e.clientX, y: e.clientY, moved: false };
  if (S.picked && S.picked.key === keyOf(d) && !(man && man !== S.picked.id) && !target) {
    // the picked man's point: a drag from him or a press elsewhere (a tap on him again lets him go)
    gesture = Object.assign({ kind: "solo", c: S.picked.c, d: d, from: S.picked.c.from, onMan: man === S.picked.id }, start);
    return true;
  }
  if (target) { gesture = { kind: "target", c: target, id: hit, d: d }; return true; }
  const mate = teammateOf(hit);
  if (mate && !man) {  // a friend's unit: his to order, not a place for the shown decision's point
    gesture = { kind: "chosen" };
    S.tableView.tip(e.clientX, e.clientY, (tip) => {
      tip.appendChild(el("p", "unit " + hit.split(".")[0] + " is commanded by " + mate + ": only that seat orders it", { class: "tip-head" }));
    });
    return true;
  }
  // on the unit itself: a drag from it is its path; a tap on it says what a tap elsewhere does
  // (within its ring, or 14 px of it when the table is shown small; not its name, which is beside it)
  const px = S.tableView.perInch();
  const own = !!(d.unit && Math.hypot(at.x - d.unit.x, at.y - d.unit.y) * px <= Math.max(d.unit.r * px, 14));
  if (man) { gesture = Object.assign({ kind: "candidate", man: man, k: k, d: d, chosen: chosen }, start); return true; }
  const lay = placeControl(d);
  if (lay && !own) { gesture = Object.assign({ kind: "solo", c: lay, d: d, from: lay.from, onMan: false }, start); return true; }
  if (S.pickers[k]) {
    gesture = Object.assign({ kind: "point", k: k, d: d, own: own, grab: grabbed(d, null) }, start);
    if (!own) S.pickers[k](at.x, at.y);
    return true;
  }
  if (own) { gesture = { kind: "own", d: d }; return true; }
  return whyTap("down", hit, e);
}
// A unit's drag is held by one of its men: the man pressed on, else its first man (whose point the order
// names): he ends where the pointer does, the others keep their places about him, and the tape runs from
// him and reads his path's cost once the preview comes ({id, from: [x, y], by: [dx, dy] from the first man})
function grabbed(d, man) {
  const move = (d.controls || []).find((c) => c.kind === "drag-path" && d.unit && c.unit === d.unit.id);
  const f = move && (move.fields || []);
  const x = f && f.find((q) => q.name === "x"), y = f && f.find((q) => q.name === "y");
  if (!x || !y) return null;
  const lead = [Number(x.value), Number(y.value)];
  const men = soloControls(d).filter((c) => c.kind === "drag-path");
  const his = men.find((c) => c.unit === man) || men.find((c) => Math.hypot(c.from[0] - lead[0], c.from[1] - lead[1]) < 0.01);
  if (!his) return null;
  return { id: his.unit, from: his.from, by: [his.from[0] - lead[0], his.from[1] - lead[1]] };
}
const heldAt = (g, at) => (g.grab ? { x: at.x - g.grab.by[0], y: at.y - g.grab.by[1] } : at);  // the first man's point
function tapeWords(grab, dr) {  // what the grabbed man's path costs, from the preview's answer
  const mine = grab && dr && (dr.moves || []).find((w) => w.id === grab.id);
  if (!mine || mine.length === undefined || mine.length === null) return null;
  return grab.id + ": " + Number(mine.length).toFixed(1) + '" walked, costs ' + Number(mine.cost).toFixed(1) + '", ' + Number(mine.left).toFixed(1) + '" left';
}
function dragged(at, e) {
  if (!gesture.moved && Math.hypot(e.clientX - gesture.x, e.clientY - gesture.y) < 6) return true;
  if (gesture.kind === "candidate") {  // a drag from a man not picked: his unit's path, or his wedge's aim
    const c = soloControls(gesture.d).find((x) => x.unit === gesture.man);
    const g = gesture;
    if (S.pickers[g.k] && !(c && c.kind === "template")) gesture = { kind: "point", k: g.k, d: g.d, own: true, x: g.x, y: g.y, grab: grabbed(g.d, g.man) };
    else if (c) gesture = { kind: "solo", c: c, d: g.d, from: c.from, x: g.x, y: g.y };
    else { gesture = { kind: "chosen" }; return true; }
  }
  gesture.moved = true;
  if (gesture.kind === "turn") { turnTo(gesture.a, at, false); return true; }
  if (gesture.kind === "solo") { place(gesture, at, e, false); return true; }
  if (gesture.kind === "point") {
    const p = heldAt(gesture, at);
    const text = S.pickers[gesture.k](p.x, p.y);
    gesture.at = at;
    const from = gesture.grab ? { x: gesture.grab.from[0], y: gesture.grab.from[1] } : gesture.d.unit;
    if (from) S.tableView.drag(from, at, gesture.tape || null);
    const now = Date.now();
    if (now - lastAsk > 300) { lastAsk = now; askAt(text, gesture.d, e, at, null, gesture.grab); }
  }
  return true;
}
function released(at, e) {
  const g = gesture; gesture = null;
  if (g.kind === "turn") { if (g.moved && at) turnTo(g.a, at, true); return true; }
  if (g.kind === "candidate") {  // a tap on a man: he is picked (a tap that chose his unit: no more)
    if (!g.chosen) pickMan(g.d, g.man, e);
    return true;
  }
  if (g.kind === "solo") {
    if (!g.moved && g.onMan) { unpick(); clearTip(); return true; }
    if (at) place(g, at, e, true);
    return true;
  }
  if ((g.kind === "point" && g.own && !g.moved) || g.kind === "own") hint(g.d, e);
  else if (g.kind === "point" && at) { const p = heldAt(g, at); askAt(S.pickers[g.k](p.x, p.y), g.d, e, at, null, g.grab); }
  if (g.kind === "target") {
    if (g.c.offer) offer(g.c, g.id, g.d, e);
    else askAt(g.c.template.replace("{target}", g.id), g.d, e, null);
  }
  return true;
}
// A wedge (aimed at a point, about its gunner) or a burst's template (about its centre) shown beside the
// pointer is turned by a drag of its handle round it, by the buttons in the pointer's box or by the [ and ]
// keys (15 degrees a press, counter-clockwise for [ as the rules count); each turn asks the preview again, so
// the men ringed under it and their odds follow.
let handle = null;  // the handle drawn: {x, y, cx, cy (inches), a (the ask it turns)}
const turnable = (c) => c.kind === "template" && !!c.from;
const within180 = (t) => { t = ((t % 360) + 360) % 360; return t > 180 ? t - 360 : t; };
function handleOf(a, drawn) {  // where the handle of a's wedge or template is, and what it turns about
  if (angled(a.via.c)) {  // a template: beyond its far edge, on the line of its turn from its centre
    let reach = 0;
    for (const s of drawn.shapes || []) for (const p of s.points || []) reach = Math.max(reach, Math.hypot(p[0] - a.at.x, p[1] - a.at.y));
    const r = reach + Math.max(0.8, 22 / S.tableView.perInch());
    const t = (turnOf(a.via.d, a.via.c) * Math.PI) / 180;
    return { x: a.at.x + r * Math.cos(t), y: a.at.y + r * Math.sin(t), cx: a.at.x, cy: a.at.y };
  }
  // a wedge: beyond its aim point (not on the man aimed at), turning about the gunner
  const from = a.via.from, r = Math.hypot(a.at.x - from[0], a.at.y - from[1]) || 1;
  const k = 1 + Math.max(1.0, 26 / S.tableView.perInch()) / r;
  return { x: from[0] + (a.at.x - from[0]) * k, y: from[1] + (a.at.y - from[1]) * k, cx: from[0], cy: from[1] };
}
function onHandle(at, e) {  // the pointer is on the handle (16 px of it; a finger 24)
  if (!handle || S.asked !== handle.a) return false;
  const far = Math.hypot(at.x - handle.x, at.y - handle.y) * S.tableView.perInch();
  return far <= (e.pointerType === "touch" ? 24 : 16);
}
function turnAt(a, t, final) {  // a's wedge or template turned to heading t (degrees counter-clockwise from east)
  const rad = (t * Math.PI) / 180;
  let at = a.at;
  if (angled(a.via.c)) turned[keyOf(a.via.d) + "|" + a.via.c.unit] = within180(t);
  else {  // the wedge's aim point goes round the gunner at the same range
    const from = a.via.from, r = Math.hypot(a.at.x - from[0], a.at.y - from[1]);
    at = { x: Math.round((from[0] + r * Math.cos(rad)) * 10) / 10, y: Math.round((from[1] + r * Math.sin(rad)) * 10) / 10 };
  }
  if (handle && handle.a === a) {  // the handle goes round at once; the preview follows when it comes
    const r = Math.hypot(handle.x - handle.cx, handle.y - handle.cy);
    handle = Object.assign({}, handle, { x: handle.cx + r * Math.cos(rad), y: handle.cy + r * Math.sin(rad) });
    S.tableView.handle(handle);
  }
  place(a.via, at, { clientX: a.x, clientY: a.y }, final);
  if (handle && S.asked && S.asked !== a && handle.a === a) handle.a = S.asked;
}
function headingOf(a) {  // a's wedge's or template's heading now (degrees counter-clockwise from east)
  if (angled(a.via.c)) return turnOf(a.via.d, a.via.c);
  return (Math.atan2(a.at.y - a.via.from[1], a.at.x - a.via.from[0]) * 180) / Math.PI;
}
function turnTo(a, at, final) {  // the handle dragged to at: a template by 5 degrees (its field's step), a wedge by 1
  const c = handle ? { x: handle.cx, y: handle.cy } : a.at;
  const step = angled(a.via.c) ? 5 : 1;
  const t = Math.round((Math.atan2(at.y - c.y, at.x - c.x) * 180) / Math.PI / step) * step;
  if (!final && Math.abs(within180(t - headingOf(a))) < step / 2) return;
  turnAt(a, t, final);
}
function turnBy(a, by) {  // turned by ``by`` degrees and asked again
  turnAt(a, headingOf(a) + by, true);
}
// the [ and ] keys turn a wedge or template shown beside the pointer, as its buttons do
document.addEventListener("keydown", (e) => {
  const a = S.asked;
  if (!a || !a.via || !a.at || !turnable(a.via.c) || (e.key !== "[" && e.key !== "]")) return;
  if (e.target && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
  e.preventDefault();
  turnBy(a, e.key === "[" ? 15 : -15);
});
function heldPath(dr, id) {  // a unit's preview drawn from the man its drag held: his path first, the others' as trails
  const mine = (dr.moves || []).find((w) => w.id === id);
  if (!mine || !mine.path) return dr;
  const trails = (dr.moves || []).filter((w) => w !== mine && w.path).map((w) => w.path);
  return Object.assign({}, dr, { path: mine.path, length: mine.length, cost: mine.cost, left: mine.left, trails: trails });
}
export function tableAnswer(m) {  // a preview asked from the table: drawn on it, and said beside the pointer
  if (!S.tableView || !S.asked) return;
  const a = S.asked;
  const d = S.shownDecisions.find((x) => x === a.d) || a.d;
  const from = a.via ? { x: a.via.from[0], y: a.via.from[1] } : a.grab ? { x: a.grab.from[0], y: a.grab.from[1] } : d.unit;
  const pointed = a.via && a.via.c.kind === "pick-point" && a.at && from;  // a ladder's top: the line to it
  const drawn = m.drawn && a.grab ? heldPath(m.drawn, a.grab.id) : m.drawn;
  if (m.legal && gesture && gesture.kind === "point" && gesture.grab && a.grab && gesture.at) {  // the tape reads the cost
    gesture.tape = tapeWords(a.grab, m.drawn);
    S.tableView.drag(from, gesture.at, gesture.tape);
  }
  if (m.legal && pointed && !(drawn && drawn.path)) S.tableView.preview(Object.assign({ ok: true, path: [[from.x, from.y], [a.at.x, a.at.y]] }, drawn || {}));
  else if (m.legal && drawn) S.tableView.preview(Object.assign({ ok: true }, drawn));
  else if (!m.legal && a.at && from) S.tableView.preview({ ok: false, path: [[from.x, from.y], [a.at.x, a.at.y]] });
  else S.tableView.preview(null);
  if (!gesture) { if (m.legal) S.tableView.dropGhost(); else S.tableView.snapBack(); }  // a refused path snaps back
  handle = m.legal && a.via && a.at && turnable(a.via.c) && m.drawn ? Object.assign(handleOf(a, m.drawn), { a: a }) : null;
  S.tableView.handle(handle);
  S.tableView.tip(a.x, a.y, (tip) => {
    tip.appendChild(el("p", m.legal ? m.action : "Not allowed: " + m.problem, { class: m.legal ? "ok tip-head" : "problem tip-head" }));
    if (m.legal) {
      const dr = drawn || {};
      if (dr.length !== undefined && dr.length !== null && (a.via || a.grab)) {
        const whose = a.grab ? a.grab.id + "'s path " : "Path ";
        tip.appendChild(el("p", whose + Number(dr.length).toFixed(1) + '", costs ' + Number(dr.cost).toFixed(1) + '" of his move, ' + Number(dr.left).toFixed(1) + '" left', { class: "tip-path" }));
      }
      if (m.note) tip.appendChild(el("p", m.note));
      if (dr.lands) tip.appendChild(el("p", "Exact: " + dr.lands, { class: "odds" }));
      if (dr.shapes) {  // a wedge or template: each man under it and his exact chance of dying of it
        const list = dr.odds || [];
        const own = list.filter((o) => o.own);  // it fires on friend and foe: one's own men said first
        if (own.length) tip.appendChild(el("p", "Your own " + (own.length === 1 ? "man is" : own.length + " men are") + " under it: " + own.map((o) => o.id + " (" + o.words + ")").join("; "), { class: "problem tip-own" }));
        tip.appendChild(el("p", list.length ? "Under it (exact chance of death):" : "Nobody under it.", { class: "tip-under-head" }));
        for (const o of list.slice(0, 10)) tip.appendChild(el("p", o.id + (o.own ? " (yours)" : "") + ": " + o.words, { class: "odds tip-under" + (o.own ? " own" : ""), "data-id": o.id }));
        if (list.length > 10) tip.appendChild(el("p", "and " + (list.length - 10) + " more (ringed on the table)"));
      }
      tip.appendChild(el("p", "Exact odds: " + m.odds, { class: "odds" }));
      if (a.via && a.at && turnable(a.via.c)) {  // turn it, 15 degrees a press (or drag its handle round)
        const what = angled(a.via.c) ? "template" : "wedge";
        tip.appendChild(el("p", "Drag the \u21bb handle round to turn the " + what + ", or:", { class: "hint tip-turn-hint" }));
        const row = el("p", null, { class: "tip-turn", role: "group", "aria-label": "turn the " + what });
        for (const [words, by] of [["\u27f2 left 15\u00b0 [", 15], ["] right 15\u00b0 \u27f3", -15]]) {
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
  }, from || null);
}

