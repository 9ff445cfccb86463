// the table editor's forms: the scenario's fields (the palette's "form": a path into the data, a type) and the
// panel of what is picked (its id and the fields of its kind). Every change goes through edit(), so it can be
// undone. Every text is written with textContent or as an input's value.
import { el } from "./page.js";

export const getPath = (data, path) => path.reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), data);
export function setPath(data, path, value) {
  let v = data;
  for (let k = 0; k < path.length - 1; k++) {
    if (v[path[k]] === undefined || v[path[k]] === null || typeof v[path[k]] !== "object") v[path[k]] = typeof path[k + 1] === "number" ? [] : {};
    v = v[path[k]];
  }
  v[path[path.length - 1]] = value;
}

const clone = (v) => JSON.parse(JSON.stringify(v === undefined ? null : v));

// a list of records (a scenario's plans, a plan's groups): each a fieldset of its fields, a button to remove
// it, one to add another; any change gives the whole list again
function records(field, value, onChange, id) {
  const list = Array.isArray(value) ? value : [];
  const box = el("div", null, { class: "ed-records", id: id });
  list.forEach((rec, k) => {
    const set = el("fieldset", null, { class: "ed-record" });
    set.appendChild(el("legend", field.item + " " + (k + 1)));
    for (const f of field.fields) {
      const sub = input(f, rec && rec[f.key], (v) => {
        const next = clone(list);
        if (v === null || v === "") delete next[k][f.key]; else next[k][f.key] = v;
        onChange(next);
      }, id + "-" + k + "-" + f.key);
      set.appendChild(row(f.label, sub));
    }
    const remove = el("button", "Remove this " + field.item, { type: "button", id: id + "-" + k + "-remove" });
    remove.addEventListener("click", () => { const next = clone(list); next.splice(k, 1); onChange(next); });
    set.appendChild(remove);
    box.appendChild(set);
  });
  const add = el("button", "Add a " + field.item, { type: "button", id: id + "-add" });
  add.addEventListener("click", () => onChange(clone(list).concat([clone(field.defaults)])));
  box.appendChild(add);
  return box;
}

function input(field, value, onChange, id) {
  if (field.type === "records") return records(field, value, onChange, id);
  let box;
  if (field.type === "choice") {
    box = el("select", null, { id: id });
    for (const c of field.choices) box.appendChild(el("option", c, { value: c, selected: String(value) === c }));
  } else if (field.type === "bool") {
    box = el("input", null, { id: id, type: "checkbox", checked: value !== false });
  } else if (field.type === "textarea") {
    box = el("textarea", null, { id: id, rows: 3, maxlength: field.max || 4000 });
    box.value = value === undefined || value === null ? "" : String(value);
  } else {
    const numeric = field.type === "number" || field.type === "int";
    box = el("input", null, {
      id: id, type: numeric ? "number" : "text", min: field.min, max: field.max && numeric ? field.max : null,
      step: field.type === "int" ? 1 : field.step || "any", maxlength: numeric ? null : field.max || 80,
    });
    box.value = value === undefined || value === null ? "" : Array.isArray(value) ? value.join(", ") : String(value);
  }
  box.addEventListener("change", () => {
    let v = box.value;
    if (field.type === "bool") v = box.checked;
    else if (field.type === "number") v = v === "" ? null : Number(v);
    else if (field.type === "int") v = v === "" ? null : Math.round(Number(v));
    else if (field.type === "ids") v = v.split(",").map((s) => s.trim()).filter(Boolean);
    onChange(v);
  });
  return box;
}

const geometryPoints = (e) => (Array.isArray(e.shape) ? e.shape.length : 0);

function row(label, box) {
  const p = el("p", null, { class: "ed-field" });
  p.appendChild(el("label", label, { for: box.id }));
  p.appendChild(box);
  return p;
}

// the scenario's own fields
export function drawForm(form, fields, data, edit) {
  form.textContent = "";
  fields.forEach((field, k) => {
    const box = input(field, getPath(data, field.path), (v) => edit((d) => setPath(d, field.path, v), field.label), "ed-f-" + k);
    form.appendChild(row(field.label, box));
  });
}

// the picked entry's panel: what it is, its id, its kind's fields; for men, the unit's side, name, when it
// enters, and the kind and weapon of the man picked (or all the unit's men); the buttons that act on it
export function drawPicked(box, ctx) {
  const { data, palette, picked, edit, act } = ctx;
  box.textContent = "";
  if (!picked) {
    box.appendChild(el("p", "Nothing picked: tap something on the table, or press N on the table.", { class: "hint" }));
    return;
  }
  const entry = (data[picked.list] || [])[picked.index];
  if (!entry) return;
  const change = (key, words) => (v) => edit((d) => { const e = d[picked.list][picked.index]; if (v === null || v === "") delete e[key]; else e[key] = v; }, words);
  const kind = palette.kinds.find((k) => k.kind === entry.kind);
  const machine = palette.machines.find((m) => m.list === picked.list);
  let what = kind ? kind.label : machine ? machine.label : picked.list === palette.men.list ? "unit of men" : "objective";
  if (picked.fig !== undefined && picked.fig !== null) what = "man " + (entry.id || "?") + "." + (picked.fig + 1) + " of a unit";
  if (picked.opening) what = picked.opening[0].replace(/s$/, "") + " " + (picked.opening[1] + 1) + " of " + (entry.id || "a " + entry.kind);
  box.appendChild(el("p", what, { class: "ed-what" }));
  box.appendChild(row("id", input({ type: "text", max: 24 }, entry.id, change("id", "id"), "ed-p-id")));
  for (const field of (kind && kind.fields) || []) {
    box.appendChild(row(field.label, input(field, entry[field.key] === undefined && field.type === "bool" ? true : entry[field.key], change(field.key, field.label), "ed-p-" + field.key)));
  }
  if (machine) {
    box.appendChild(row(machine.label, input({ type: "choice", choices: machine.choices }, entry[machine.key], change(machine.key, machine.label), "ed-p-kind")));
    box.appendChild(row("side", input({ type: "choice", choices: palette.sides }, entry.side, change("side", "side"), "ed-p-side")));
    box.appendChild(row("heading (degrees)", input({ type: "number", min: 0, max: 359, step: 15 }, entry.heading, change("heading", "heading"), "ed-p-heading")));
  }
  parts(box, ctx, entry, kind);
  if (picked.list === palette.men.list) {
    box.appendChild(row("side", input({ type: "choice", choices: palette.sides }, entry.side, change("side", "side"), "ed-p-side")));
    box.appendChild(row("name", input({ type: "text", max: 60 }, entry.name, change("name", "name"), "ed-p-name")));
    box.appendChild(row("enters on move (0: on the table)", input({ type: "int", min: 0, max: 100 }, entry.enters || 0, change("enters", "enters"), "ed-p-enters")));
    const figs = entry.figures || [];
    const one = picked.fig !== undefined && picked.fig !== null ? [picked.fig] : figs.map((_, k) => k);
    const first = figs[one[0]] || {};
    const men = (key) => (v) => edit((d) => { for (const k of one) d[picked.list][picked.index].figures[k][key] = v; }, key);
    const whose = one.length > 1 ? " (all its men)" : "";
    box.appendChild(row("kind" + whose, input({ type: "choice", choices: palette.men.types }, first.type || palette.men.types[0], men("type"), "ed-p-type")));
    box.appendChild(row("weapon" + whose, input({ type: "choice", choices: palette.men.weapons }, first.weapon || palette.men.weapons[0], men("weapon"), "ed-p-weapon")));
  }
  const buttons = el("p", null, { class: "ed-row" });
  const button = (text, fn, id) => { const b = el("button", text, { type: "button", id: id }); b.addEventListener("click", fn); buttons.appendChild(b); };
  if (kind && kind.sections && geometryPoints(entry) === 4 && !(entry.sections && entry.sections.length > 1)) button("Split in two sections", () => act("split"), "ed-split");
  for (const key of (kind && kind.openings) || []) button("Add a " + key.replace(/s$/, ""), () => act("opening:" + key), "ed-add-" + key);
  if (picked.list === palette.men.list && picked.fig === undefined) button("Add a man", () => act("add-man"), "ed-add-man");
  button("Turn \u21ba", () => act("turn", 15), "ed-turn-left");
  button("Turn \u21bb", () => act("turn", -15), "ed-turn-right");
  if (picked.corner !== undefined && picked.corner !== null) {
    button("Add a corner after it", () => act("add-corner"), "ed-add-corner");
    button("Remove this corner", () => act("remove-corner"), "ed-remove-corner");
  }
  button("Delete", () => act("delete"), "ed-delete");
  box.appendChild(buttons);
}

// the parts of a scenario that hang on the picked entry: a railway's train, a building's storeys (one roof), a
// unit's drop by air or its ride in a vehicle
function parts(box, ctx, entry, kind) {
  const { data, palette, picked, edit } = ctx;
  if (entry.kind === "railway") {  // the train runs along this railway, coming on at its first point
    const train = data.train && (!data.train.railway || data.train.railway === entry.id) ? data.train.enters || 1 : null;
    box.appendChild(row("the train comes on at move (empty: no train)", input({ type: "int", min: 1, max: 100 }, train, (v) => edit((d) => {
      if (v) d.train = { railway: d[picked.list][picked.index].id, enters: v }; else delete d.train;
    }, "the train"), "ed-p-train")));
  }
  if (kind && kind.sections && !(entry.sections && entry.sections.length > 1)) {  // one roof: its storeys and points
    const sec = (entry.sections && entry.sections[0]) || { storeys: [{}] };
    const setStoreys = (n, points) => edit((d) => {
      const e = d[picked.list][picked.index];
      const id = (e.sections && e.sections[0] && e.sections[0].id) || (e.id || "B") + ".a";
      e.sections = [{ id: id, storeys: Array.from({ length: n }, () => (points ? { points: points } : {})) }];
    }, "storeys");
    const points = (sec.storeys[0] || {}).points || null;
    box.appendChild(row("storeys", input({ type: "choice", choices: ["1", "2"] }, String(sec.storeys.length), (v) => setStoreys(Number(v), points), "ed-p-storeys")));
    box.appendChild(row("points a storey (empty: the tables')", input({ type: "int", min: 1, max: 1000 }, points, (v) => setStoreys(sec.storeys.length, v), "ed-p-points")));
  }
  if (kind && kind.sections && entry.sections && entry.sections.length > 1) {  // each roof: its storeys and points
    entry.sections.forEach((sec, k) => {
      const points = ((sec.storeys || [])[0] || {}).points || null, n = (sec.storeys || [{}]).length;
      const set = (count, p) => edit((d) => { d[picked.list][picked.index].sections[k].storeys = Array.from({ length: count }, () => (p ? { points: p } : {})); }, "storeys");
      box.appendChild(row("section " + sec.id + ": storeys", input({ type: "choice", choices: ["1", "2"] }, String(n), (v) => set(Number(v), points), "ed-p-storeys-" + k)));
      box.appendChild(row("points a storey", input({ type: "int", min: 1, max: 1000 }, points, (v) => set(n, v), "ed-p-points-" + k)));
    });
  }
  if (picked.list === palette.men.list && picked.fig === undefined) {  // by air, or aboard a vehicle
    const dropped = (data.drops || []).find((x) => x.unit === entry.id);
    box.appendChild(row("dropped by air on move (empty: not)", input({ type: "int", min: 1, max: 100 }, dropped ? dropped.move : null, (v) => edit((d) => {
      d.drops = (d.drops || []).filter((x) => x.unit !== entry.id);
      if (v) d.drops.push({ unit: entry.id, move: v });
      if (!d.drops.length) delete d.drops;
    }, "drop"), "ed-p-drop")));
    const vehicles = (data.vehicles || []).filter((v) => v && v.id);
    if (vehicles.length) {
      const rides = vehicles.find((v) => (v.passengers || []).includes(entry.id));
      box.appendChild(row("rides in", input({ type: "choice", choices: ["(none)", ...vehicles.map((v) => v.id)] }, rides ? rides.id : "(none)", (v) => edit((d) => {
        for (const x of d.vehicles || []) if (x.passengers) { x.passengers = x.passengers.filter((u) => u !== entry.id); if (!x.passengers.length) delete x.passengers; }
        const x = (d.vehicles || []).find((y) => y.id === v);
        if (!x) return;
        (x.passengers = x.passengers || []).push(entry.id);
        for (const f of d[picked.list][picked.index].figures) f.at = [x.at[0], x.at[1]];  // aboard: at the vehicle
      }, "aboard"), "ed-p-rides")));
    }
  }
}
