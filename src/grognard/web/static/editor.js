// the table editor (/editor): a scenario's data drawn on the game's own table (the server's Editor.scene through
// table.js), checked by the server after each edit (debounced), its problems listed and marked where they lie;
// every edit undone and redone; the draft kept by the server for this browser. No rule set is named here: what
// may be drawn comes from the palette (/api/editor/NAME).
import { $, el, say, store, randomId } from "./page.js";
import { geometryOf, centre, hitAt, moveEntry, turnEntry, nearestOnOutline, overlay } from "./editor_draw.js";
import { drawForm, drawPicked, getPath, setPath } from "./editor_form.js";
import { wireTrials } from "./trials.js";

const ruleset = document.querySelector("main").dataset.ruleset;
const api = (path) => "/api/editor/" + encodeURIComponent(ruleset) + (path || "");
const MAX_FILE = 300 * 1024;
let P = null, data = null, table = null, over = null;
let past = [], future = [];
let tool = "pick", picked = null, drawing = null, cursor = null, problems = [], grab = null;

// the number naming this browser's draft on the server (kept here, in local storage: no cookie)
const browser = store.get("grognard-editor") || (store.set("grognard-editor", randomId()), store.get("grognard-editor")) || randomId();
async function call(path, body) {
  const headers = { "X-Editor": browser };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(api(path), body === undefined ? { headers } : { method: "POST", headers, body: JSON.stringify(body) });
  const type = r.headers.get("content-type") || "";
  const out = type.includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error((out && out.message) || "refused (" + r.status + ")");
  return out;
}
const step = () => Number($("ed-snap").value) || 0.5;
const snap = (v) => { const s = Number($("ed-snap").value); return s ? Math.round(v / s) * s : Math.round(v * 100) / 100; };
const snapP = (p) => [snap(p[0]), snap(p[1])];
const entryOf = (pk) => pk && (data[pk.list] || [])[pk.index];

// ---------------------------------------------------------------- edits, undo, redo, the check
function edit(fn, words) {
  const before = JSON.stringify(data);
  fn(data);
  if (JSON.stringify(data) === before) return;
  past.push(before); if (past.length > 300) past.shift();
  future = [];
  changed(words);
}
function undoRedo(from, to, words) {
  if (!from.length) return;
  to.push(JSON.stringify(data));
  data = JSON.parse(from.pop());
  if (picked && !entryOf(picked)) picked = null;
  changed(words);
}
function changed(words) {
  // "Table editor — My table" (it read "Table editor My table", the two run together)
  $("ed-title").textContent = typeof data.title === "string" && data.title ? "\u2014 " + data.title : "";
  drawForm($("ed-form"), P.form, data, edit);
  showPicked();
  drawOver();
  $("ed-undo").disabled = !past.length; $("ed-redo").disabled = !future.length;
  if (words) $("ed-status").textContent = words + "; checking...";
  schedule();
}
let timer = 0, asked = 0;
function schedule() { clearTimeout(timer); timer = setTimeout(check, 250); }
async function check() {
  const n = ++asked;
  try {
    const r = await call("/check", { data: data });
    if (n !== asked) return;
    problems = r.problems;
    table.draw(r.scene, P.sides);
    document.querySelector("main").dataset.checked = String(n);
    showProblems();
    drawOver();
  } catch (e) { if (n === asked) say(String(e.message || e), "error"); }
}
function showProblems() {
  const list = $("ed-problems");
  list.textContent = "";
  problems.forEach((p, k) => {
    const li = el("li");
    const b = el("button", p.text, { type: "button", class: "ed-problem-item", "data-field": p.field, "data-rule": p.rule });
    b.addEventListener("click", () => pickField(p.field));
    li.appendChild(b);
    list.appendChild(li);
  });
  $("ed-count").textContent = problems.length ? "(" + problems.length + ")" : "";
  if (!problems.length) list.appendChild(el("li", "none: the rules find nothing wrong with this table", { class: "ok ed-none" }));
  const sound = !problems.length;
  document.querySelector("main").dataset.sound = String(sound);
  for (const id of ["ed-play", "ed-test", "ed-balance"]) $(id).disabled = !sound;
  $("ed-play-note").hidden = sound;  // why Play is off: said while it is, not beside a table that can be played
  $("ed-status").textContent = sound ? "checked: no problems, it can be played" : "checked: " + problems.length + " problem" + (problems.length > 1 ? "s" : "") + " (kept as a draft)";
}
function pickField(field) {  // a problem's entry picked ("units[1].figures[2].at": unit 1's third man)
  const m = /^(\w+)\[(\d+)\](?:\.figures\[(\d+)\])?/.exec(field || "");
  if (!m || !(data[m[1]] || [])[Number(m[2])]) return;
  picked = { list: m[1], index: Number(m[2]) };
  if (m[3] !== undefined) picked.fig = Number(m[3]);
  showPicked(); drawOver();
}

// ---------------------------------------------------------------- the picked entry and the overlay
function pickedPoints() {
  const e = entryOf(picked);
  if (!e) return null;
  if (picked.opening) { const o = e[picked.opening[0]][picked.opening[1]]; return o ? { points: [o.at], single: true } : null; }
  if (picked.fig !== undefined) { const f = e.figures[picked.fig]; return f ? { points: [f.at], single: true } : null; }
  const g = geometryOf(e);
  return g ? { points: g.points, closed: g.key === "shape", corner: picked.corner, single: g.key === "at" } : null;
}
function drawOver() {
  if (!over) return;
  const pp = picked ? pickedPoints() : null;
  over.draw({ picked: pp, drawing: drawing, cursor: tool !== "pick" ? cursor : null, problems: problems });
}
function showPicked() { drawPicked($("ed-picked"), { data, palette: P, picked, edit, act }); }

// ---------------------------------------------------------------- new entries
function freeId(list, stem) {
  const taken = new Set((data[list] || []).map((e) => String(e && e.id).toUpperCase()));
  for (let k = 1; ; k++) if (!taken.has((stem + k).toUpperCase())) return stem + k;
}
function freeUnit() {
  const taken = new Set();
  for (const m of [P.men.list, ...P.machines.map((x) => x.list)]) for (const e of data[m] || []) if (e && e.id) taken.add(String(e.id).toUpperCase());
  for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") if (!taken.has(c)) return c;
  for (let k = 1; ; k++) if (!taken.has("U" + k)) return "U" + k;
}
function addEntry(list, entry, words) {
  edit((d) => { (d[list] = d[list] || []).push(entry); }, words);
  picked = { list: list, index: data[list].length - 1 };
  showPicked(); drawOver();
}
function men(at, n, side, type, weapon, gap) {
  return Array.from({ length: n }, (_, k) => ({ type: type, weapon: weapon, at: [Math.round((at[0] + k * gap) * 100) / 100, at[1]] }));
}
function place(at) {  // a tool that puts something at a point
  const side = $("ed-men-side").value;
  if (tool === "men") {
    const n = Math.max(1, Math.min(P.men.max, Number($("ed-men-count").value) || 1));
    addEntry(P.men.list, { id: freeUnit(), side: side, name: "", enters: 0, figures: men(at, n, side, $("ed-men-type").value, $("ed-men-weapon").value, Math.max(1.5, step())) }, "placed " + n + " men");
    return;
  }
  const machine = P.machines.find((m) => "machine:" + m.list === tool);
  if (machine) {
    const crew = freeUnit(), id = freeId(machine.list, machine.list === "vehicles" ? "V" : "G");
    const entry = { id: id, [machine.key]: machine.choices[0], side: side, at: at, heading: side === P.sides[0] ? 90 : 270, crew: machine.list === "vehicles" ? [crew] : crew };
    if (machine.list !== "vehicles") delete entry.side;
    const crewAt = machine.list === "vehicles" ? [at, at] : [[at[0] - 1.5, at[1] - 1.5], [at[0] + 1.5, at[1] - 1.5]];
    edit((d) => {
      (d[P.men.list] = d[P.men.list] || []).push({ id: crew, side: side, name: machine.label + " crew", enters: 0, figures: crewAt.map((p) => ({ type: "crew", weapon: "rifle", at: p })) });
      (d[machine.list] = d[machine.list] || []).push(entry);
    }, "placed a " + machine.label + " and its crew");
    picked = { list: machine.list, index: data[machine.list].length - 1 };
    showPicked(); drawOver();
    return;
  }
  const kind = P.kinds.find((k) => k.kind === tool);
  if (kind && kind.geometry === "at") addEntry("terrain", Object.assign({}, kind.defaults, { id: freeId("terrain", kind.kind.slice(0, 2).toUpperCase()), at: at }), "placed a " + kind.label);
}
function opening(at) {  // a door or window on the picked entry's wall, where the pointer is nearest it
  const e = entryOf(picked), g = geometryOf(e), key = tool.split(":")[1];
  if (!g || g.points.length < 2) return;
  const near = nearestOnOutline(at, g.points, g.key === "shape");
  const o = { at: [Math.round(near.at[0] * 100) / 100, Math.round(near.at[1] * 100) / 100] };
  if (key === "doors") o.id = freeOpening(e);
  const index = picked.index, list = picked.list;
  edit((d) => { const x = d[list][index]; (x[key] = x[key] || []).push(o); }, "added a " + key.replace(/s$/, ""));
  picked = { list: list, index: index, opening: [key, data[list][index][key].length - 1] };
  say("");
  setTool("pick");
}
function freeOpening(e) {
  const taken = new Set((e.doors || []).map((d) => d.id));
  for (let k = 1; ; k++) { const id = (e.id || "D") + "d" + k; if (!taken.has(id)) return id; }
}
function finish() {  // the line or outline being drawn becomes an entry
  if (!drawing) return;
  const pts = drawing.points, kind = drawing.kind;
  drawing = null;
  if (tool === "objective") {  // an objective drawn is one to take (the palette's "taken": the list of those)
    if (pts.length < 3) return drawOver();
    const id = freeId(P.objective.list, "obj"), list = P.objective.list;
    edit((d) => {
      (d[list] = d[list] || []).push({ id: id, name: "", shape: pts });
      if (P.objective.taken) { const taken = getPath(d, P.objective.taken); if (Array.isArray(taken)) taken.push(id); else setPath(d, P.objective.taken, [id]); }
    }, "drew an objective");
    picked = { list: list, index: data[list].length - 1 };
    showPicked();
  }
  else if (kind && pts.length >= (kind.geometry === "shape" ? 3 : 2)) {
    addEntry("terrain", Object.assign({}, kind.defaults, { id: freeId("terrain", kind.kind.slice(0, 2).toUpperCase()), [kind.geometry]: pts }), "drew a " + kind.label);
  }
  drawOver();
}
const shapeTool = () => tool === "objective" || (P.kinds.find((k) => k.kind === tool) || {}).geometry === "shape";
const lineTool = () => (P.kinds.find((k) => k.kind === tool) || {}).geometry === "line";
function addPoint(p) {
  const kind = P.kinds.find((k) => k.kind === tool) || null;
  if (!drawing) drawing = { kind: kind, points: [], closed: shapeTool() };
  const pts = drawing.points;
  if (pts.length >= 3 && shapeTool() && Math.hypot(pts[0][0] - p[0], pts[0][1] - p[1]) < 0.6) return finish();
  if (pts.length >= 2 && lineTool() && Math.hypot(pts[pts.length - 1][0] - p[0], pts[pts.length - 1][1] - p[1]) < 0.3) return finish();
  pts.push(p);
  drawOver();
}

// ---------------------------------------------------------------- what the buttons and keys do to the picked entry
function act(what, arg) {
  if (what.startsWith("opening:")) { setTool(what); say("Tap the wall where the " + what.split(":")[1].replace(/s$/, "") + " goes.", "ok"); return; }
  if (!picked) return;
  const pk = picked;
  if (what === "turn") edit((d) => turnEntry(d[pk.list][pk.index], arg), "turned");
  else if (what === "move") edit((d) => {
    const e = d[pk.list][pk.index];
    if (pk.opening) { const o = e[pk.opening[0]][pk.opening[1]].at; o[0] += arg[0]; o[1] += arg[1]; }
    else if (pk.fig !== undefined) { const a = e.figures[pk.fig].at; a[0] = Math.round((a[0] + arg[0]) * 100) / 100; a[1] = Math.round((a[1] + arg[1]) * 100) / 100; }
    else if (pk.corner !== undefined && pk.corner !== null) { const g = geometryOf(e), c = g.points[pk.corner]; c[0] = Math.round((c[0] + arg[0]) * 100) / 100; c[1] = Math.round((c[1] + arg[1]) * 100) / 100; }
    else moveEntry(e, arg[0], arg[1]);
  }, "moved");
  else if (what === "add-corner") edit((d) => { const g = geometryOf(d[pk.list][pk.index]), k = pk.corner, n = g.points.length, a = g.points[k], b = g.points[(k + 1) % n]; g.points.splice(k + 1, 0, [snap((a[0] + b[0]) / 2), snap((a[1] + b[1]) / 2)]); }, "added a corner");
  else if (what === "remove-corner") { edit((d) => { const g = geometryOf(d[pk.list][pk.index]); if (g.points.length > (g.key === "shape" ? 3 : 2)) g.points.splice(pk.corner, 1); }, "removed a corner"); picked.corner = null; }
  else if (what === "split") edit((d) => {  // two sections, each half of the building along its longer side
    const e = d[pk.list][pk.index], [a, b, c, q] = e.shape;
    const long = Math.hypot(b[0] - a[0], b[1] - a[1]) >= Math.hypot(c[0] - b[0], c[1] - b[1]);
    const mid = (u, v) => [Math.round(((u[0] + v[0]) / 2) * 100) / 100, Math.round(((u[1] + v[1]) / 2) * 100) / 100];
    const halves = long ? [[a, mid(a, b), mid(q, c), q], [mid(a, b), b, c, mid(q, c)]] : [[a, b, mid(b, c), mid(a, q)], [mid(a, q), mid(b, c), c, q]];
    e.sections = halves.map((h, k) => ({ id: (e.id || "B") + "." + "ab"[k], shape: h.map((p) => p.slice()), storeys: [{}] }));
  }, "split in two sections");
  else if (what === "add-man") edit((d) => { const f = d[pk.list][pk.index].figures, last = f[f.length - 1]; f.push(Object.assign({}, last, { at: [last.at[0] + Math.max(1.5, step()), last.at[1]] })); }, "added a man");
  else if (what === "delete") {
    edit((d) => {
      const e = d[pk.list][pk.index];
      if (pk.opening) e[pk.opening[0]].splice(pk.opening[1], 1);
      else if (pk.fig !== undefined && e.figures.length > 1) e.figures.splice(pk.fig, 1);
      else d[pk.list].splice(pk.index, 1);
    }, "deleted");
    picked = null;
  }
  showPicked(); drawOver();
}
function everything() {  // every entry, in order, for the N key
  const out = [];
  for (const list of ["terrain", P.objective.list, P.men.list, ...P.machines.map((m) => m.list)]) (data[list] || []).forEach((_, i) => out.push({ list: list, index: i }));
  return out;
}

// ---------------------------------------------------------------- the pointer (mouse, pen, a finger)
function onPointer(type, at, _hit, e) {
  if (type === "cancel") { grab = null; if (drawing) drawing.hover = null; drawOver(); return true; }
  if (!at) return false;
  const p = snapP([at.x, at.y]);
  if (tool !== "pick") {
    cursor = p;
    if (type === "down") { grab = { from: p, moved: false }; if (tool.startsWith("opening:")) { opening([at.x, at.y]); grab = null; } return true; }
    if (!grab) return true;
    if (type === "move") {
      if (Math.hypot(p[0] - grab.from[0], p[1] - grab.from[1]) >= 1 && (!drawing || !drawing.points.length) && (shapeTool() || lineTool())) grab.moved = true;
      if (grab.moved) {
        const [a, b] = [grab.from, p];
        drawing = { kind: P.kinds.find((k) => k.kind === tool) || null, closed: shapeTool(), points: shapeTool() ? [a, [b[0], a[1]], b, [a[0], b[1]]] : [a, b], dragged: true };
      } else if (drawing) drawing.hover = p;
      drawOver();
      return true;
    }
    if (type === "up") {
      const g = grab; grab = null;
      if (g.moved && drawing && drawing.dragged) return finish(), true;
      if (shapeTool() || lineTool()) addPoint(g.from); else place(g.from);
      return true;
    }
    return true;
  }
  if (type === "down") {
    const corner = e && e.target && e.target.getAttribute && e.target.getAttribute("data-corner");
    if (corner !== null && corner !== undefined && picked) {
      if (!(picked.fig !== undefined || picked.opening)) picked.corner = Number(corner);
      grab = { from: p, before: JSON.stringify(data), corner: true, last: p };
      showPicked(); drawOver();
      return true;
    }
    const hit = hitAt(data, P, [at.x, at.y], 12 / table.perInch());
    if (!hit) { if (picked) { picked = null; showPicked(); drawOver(); } return false; }
    picked = hit;
    grab = { from: p, before: JSON.stringify(data), last: p };
    showPicked(); drawOver();
    return true;
  }
  if (!grab || !picked) return true;
  if (type === "move" || type === "up") {
    const dx = p[0] - grab.last[0], dy = p[1] - grab.last[1];
    if (dx || dy) {
      const e2 = entryOf(picked);
      if (picked.opening) { const o = e2[picked.opening[0]][picked.opening[1]].at; o[0] += dx; o[1] += dy; }
      else if (picked.fig !== undefined && grab.corner) { const a = e2.figures[picked.fig].at; a[0] += dx; a[1] += dy; }
      else if (grab.corner && picked.corner !== undefined && picked.corner !== null) { const c = geometryOf(e2).points[picked.corner]; c[0] = snap(c[0] + dx); c[1] = snap(c[1] + dy); }
      else moveEntry(e2, dx, dy);
      if (picked.fig !== undefined && !grab.corner) delete picked.fig;
      grab.last = p;
      drawOver();
    }
    if (type === "up") {
      const before = grab.before; grab = null;
      if (before !== JSON.stringify(data)) { past.push(before); future = []; changed("moved"); }
    }
  }
  return true;
}

// ---------------------------------------------------------------- keys (every gesture has one)
function onKey(e) {
  const typing = /^(INPUT|SELECT|TEXTAREA)$/.test((e.target && e.target.tagName) || "");
  if ((e.ctrlKey || e.metaKey) && !typing && (e.key === "z" || e.key === "Z" || e.key === "y")) {
    if (e.key === "y" || e.shiftKey) undoRedo(future, past, "redone"); else undoRedo(past, future, "undone");
    e.preventDefault(); return;
  }
  if (!e.target || !e.target.closest || !e.target.closest(".ed-board")) return;
  const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
  let used = true;
  if (tool !== "pick") {
    const box = table.box();
    if (!cursor) cursor = snapP([box.x + box.w / 2, -(box.y + box.h / 2)]);
    if (arrows) cursor = [cursor[0] + arrows[0] * step(), cursor[1] + arrows[1] * step()];
    else if (e.key === " ") { if (tool.startsWith("opening:")) opening(cursor); else if (shapeTool() || lineTool()) addPoint(cursor.slice()); else place(cursor.slice()); }
    else if (e.key === "Enter") { if (drawing && drawing.points.length >= 2) finish(); else if (shapeTool() || lineTool()) addPoint(cursor.slice()); else place(cursor.slice()); }
    else if (e.key === "Escape") { drawing = null; setTool("pick"); }
    else used = false;
    drawOver();
  } else if (arrows && picked) act("move", [arrows[0] * step(), arrows[1] * step()]);
  else if (e.key === "r" || e.key === "R") act("turn", e.shiftKey ? -15 : 15);
  else if ((e.key === "Delete" || e.key === "Backspace") && picked) act(picked.corner !== undefined && picked.corner !== null ? "remove-corner" : "delete");
  else if ((e.key === "[" || e.key === "]") && picked) {
    const pp = pickedPoints(), n = pp ? pp.points.length : 0;
    if (n > 1) { const k = picked.corner === undefined || picked.corner === null ? (e.key === "]" ? -1 : n) : picked.corner; picked.corner = (k + (e.key === "]" ? 1 : -1) + n) % n; }
    showPicked(); drawOver();
  } else if ((e.key === "n" || e.key === "N") && !e.ctrlKey) {
    const all = everything();
    if (!all.length) { used = false; } else {
      const k = picked ? all.findIndex((x) => x.list === picked.list && x.index === picked.index) : -1;
      picked = all[(k + (e.shiftKey ? -1 : 1) + all.length) % all.length];
      showPicked(); drawOver();
    }
  } else if (e.key === "Escape") { picked = null; showPicked(); drawOver(); }
  else used = false;
  if (used) { e.preventDefault(); e.stopPropagation(); }
}

// ---------------------------------------------------------------- tools, files, start
function setTool(t) {
  tool = t;
  drawing = null; grab = null;
  for (const b of document.querySelectorAll("#ed-palette button")) b.setAttribute("aria-checked", String(b.dataset.tool === t));
  document.querySelector("main").dataset.tool = t;
  drawOver();
}
function drawPalette() {
  const box = $("ed-palette");
  const add = (t, label, group) => {
    const b = el("button", label, { type: "button", role: "radio", "data-tool": t, "aria-checked": String(t === tool), class: "ed-tool" });
    b.addEventListener("click", () => setTool(t));
    group.appendChild(b);
  };
  const group = (name) => { const g = el("div", null, { class: "ed-group", role: "group", "aria-label": name }); g.appendChild(el("span", name, { class: "ed-group-name" })); box.appendChild(g); return g; };
  const first = group("pick");
  add("pick", "pick, move", first);
  add("men", "men", first);
  for (const m of P.machines) add("machine:" + m.list, m.label, first);
  add("objective", "objective", first);
  const groups = {};
  for (const k of P.kinds) add(k.kind, k.label, groups[k.group] || (groups[k.group] = group(k.group)));
  const fill = (id, values) => { for (const v of values) $(id).appendChild(el("option", v, { value: v })); };
  fill("ed-men-side", P.sides); fill("ed-men-type", P.men.types); fill("ed-men-weapon", P.men.weapons);
}
function replace(next, words) { edit((d) => { for (const k of Object.keys(d)) delete d[k]; Object.assign(d, JSON.parse(JSON.stringify(next))); }, words); picked = null; showPicked(); }
async function files(shipped) {
  for (const [n, t] of shipped) $("ed-shipped").appendChild(el("option", t || n, { value: n }));
  $("ed-new").addEventListener("click", () => replace(blankData, "a new table"));
  $("ed-open-shipped").addEventListener("click", async () => {
    try { replace((await call("/shipped/" + encodeURIComponent($("ed-shipped").value))).data, "opened " + $("ed-shipped").value); say(""); }
    catch (e) { say(String(e.message), "error"); }
  });
  $("ed-file").addEventListener("change", async () => {
    const f = $("ed-file").files[0];
    $("ed-file").value = "";
    if (!f) return;
    if (f.size > MAX_FILE) { say("error: " + f.name + ": " + f.size + " bytes; a scenario file has at most " + MAX_FILE + " (nothing opened)", "error"); return; }
    try { replace((await call("/open", { text: await f.text() })).data, "opened " + f.name); say(""); }
    catch (e) { say("error: " + f.name + ": " + String(e.message), "error"); }
  });
  $("ed-download").addEventListener("click", async () => {
    try {
      const text = await call("/file", { data: data, keep: false });
      const a = el("a", null, { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })), download: (String(data.name || "table").replace(/[^\w-]/g, "_") || "table") + (P.extension || ".txt") });
      document.body.appendChild(a); a.click(); a.remove();
    } catch (e) { say(String(e.message), "error"); }
  });
}
let blankData = null;
async function start() {
  const s = await call("");
  P = s.palette; blankData = s.blank;
  data = s.draft && typeof s.draft === "object" ? s.draft : JSON.parse(JSON.stringify(s.blank));
  table = window.GrognardTable.create($("svg"), { onPointer: onPointer, sides: P.sides, labelledby: "board-h" });
  over = overlay(table.element, () => table.perInch());
  table.element.addEventListener("wheel", () => requestAnimationFrame(drawOver));
  document.querySelector(".ed-board").addEventListener("keydown", onKey, true);
  document.addEventListener("keydown", (e) => { if (!e.target || !e.target.closest || !e.target.closest(".ed-board")) onKey(e); });
  $("ed-undo").addEventListener("click", () => undoRedo(past, future, "undone"));
  $("ed-redo").addEventListener("click", () => undoRedo(future, past, "redone"));
  drawPalette();
  await files(s.shipped);
  // for the buttons another part of the page wires (Play, Test it, Balance it) and for tests: the table's data,
  // its problems, its file's text, and where a table point is on the screen
  window.grognardEditor = { data: () => data, problems: () => problems, file: () => call("/file", { data: data, keep: false }), ruleset: ruleset, screen: (x, y) => table.screen(x, y), checked: () => asked };
  // Play, Test it, Balance it: the file as it stands, played or tried on the server (static/trials.js)
  const fileName = () => (String(data.name || "table").replace(/[^\w-]/g, "_") || "table") + (P.extension || ".txt");
  wireTrials({
    ruleset: () => ruleset, source: async () => ({ name: fileName(), text: await call("/file", { data: data, keep: false }) }),
    play: $("ed-play"), test: $("ed-test"), balance: $("ed-balance"), games: $("ed-games"), box: $("ed-run"),
  });
  changed(s.draft ? "your draft" : "a new table");
}
start().catch((e) => say(String(e.message || e), "error"));
