// grognard room pages: a player's orders as forms and buttons (the keyboard's and screen reader's way; the
// table's gestures fill the same forms), and the preview's answer below the form that asked for it
import { $, el, say } from "./page.js";
import { keyOf, S } from "./state.js";
import { send, act, forgetSent } from "./connection.js";
import { clearTip, unpick, soloControls, tableAnswer } from "./gestures.js";
import { showSvg } from "./picture.js";

let drawn = [];  // the decisions the player's forms show, each as its JSON text
let drawnKeys = [];  // and each as "seat|id": the question, whatever its details

// one decision's controls at a time: the others wait behind their buttons (or a tap on their unit)
export function choose(id) {
  if (!S.shownDecisions.some((d) => d.id === id)) id = S.shownDecisions.length ? S.shownDecisions[0].id : null;
  if (id !== S.shownId) { previewHome(); const box = $("preview"); if (box) box.textContent = ""; if (S.picked) unpick(); }
  S.shownId = id;
  S.shownDecisions.forEach((d, k) => {
    const section = $("d" + k + "-h") && $("d" + k + "-h").parentNode;
    if (section) section.hidden = d.id !== id;
    const tab = $("d" + k + "-tab");
    if (tab) tab.setAttribute("aria-pressed", d.id === id ? "true" : "false");
  });
  const k = S.shownDecisions.findIndex((d) => d.id === id);
  if ($("svg")) $("svg").classList.toggle("picking", k >= 0 && !!S.pickers[k]);
  if (S.tableView) S.tableView.element.dataset.shown = id || "";
}
export function drawPlayer(s) {
  const you = s.you || {};
  const held = (s.seats || []).filter((x) => you.seats && you.seats.includes(x.seat) && x.commands);  // each seat's share
  const what = held.length ? ", commanding " + held.map((x) => x.commands).join("; ") : "";
  $("you").textContent = (you.name || "") + (you.seats && you.seats.length ? ": you play " + you.seats.join(", ") + what : ": the host has not given you a seat yet");
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
  const again = askedAgain(s);
  const stale = s.status !== "playing" || s.paused || keys.some((k) => !drawnKeys.includes(k)) || again;
  if (stale && $("message").dataset.about === "order") {
    if (again && s.status === "playing" && !s.paused) sayAskedAgain(s); else { say(""); S.answered = null; }
  }
  forgetSent(s);
  drawnKeys = keys;
  if (now.length === drawn.length && now.every((d, i) => d === drawn[i])) return;  // the forms keep what is typed in them
  drawn = now;
  const box = $("decisions");
  previewHome();  // out of the forms before they go
  box.textContent = "";
  S.pickers = {};
  S.shownDecisions = decisions.map((d) => ({ id: d.id, seat: d.seat, prompt: d.prompt, unit: d.unit || null, controls: d.controls || [], choices: d.choices || [] }));
  if (S.tipFor && !keys.includes(S.tipFor)) clearTip();
  if (S.picked) {  // the picked man stays picked while his decision is owed and he may still act alone
    const d = S.shownDecisions.find((x) => keyOf(x) === S.picked.key);
    const c = d && soloControls(d).find((x) => x.unit === S.picked.id && x.verb === S.picked.c.verb);
    if (c) { S.picked.c = c; S.tableView.pick({ id: S.picked.id, x: c.from[0], y: c.from[1] }); } else unpick();
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
  choose(S.shownId);
}

export function askedAgain(s) {
  return !!(S.answered && S.answered.step !== undefined && S.answered.step !== null && s.step >= S.answered.step
    && (s.decisions || []).some((d) => keyOf(d) === S.answered.key));
}

// the order's own question asked again (the next turn): last turn's "Done" would read as this turn's, so the
// line says the question is new and what was done before it (cleared like any line about an order)
export function sayAskedAgain(s) {
  const a = S.answered;
  S.answered = null;
  if (!a) return;
  const when = a.turn !== undefined && s.turn !== undefined && s.turn !== a.turn ? "Turn " + s.turn + " now" : "Asked again";
  say(when + ": your next order. (Done before: " + a.action + ".)", null, "order");
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
  // the unit's own line above its menu; the rest of the situation (a long list of every target) below
  // it: the menu in sight without scrolling on a Chromebook (a long list pushed it below the fold)
  const [first, ...more] = d.situation.slice(1);
  if (first) wrap.appendChild(el("p", first, { class: "situation" }));
  // the menu
  const menu = el("fieldset");
  // the same odds on every choice (a firer's dice that do not depend on its target): said once, above
  const odds = d.choices.map((c) => c.odds).filter((o) => o);
  const same = odds.length > 1 && odds.length >= d.choices.length - 1 && odds.every((o) => o === odds[0]);
  menu.appendChild(el("legend", same ? "Choose an order" : "Choose an order (odds shown beside each)"));
  if (same) menu.appendChild(el("p", "Odds of each: " + odds[0], { class: "odds" }));
  // a long menu (an aircraft's many moves) scrolls in its own box: the commit button and the forms stay near
  const list = el("div", null, { class: "choice-list" });
  menu.appendChild(list);
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
    list.appendChild(p);
  });
  const menuButton = el("button", "Commit the chosen order", { type: "button" });
  menuButton.addEventListener("click", () => {
    const chosen = menu.querySelector("input:checked");
    if (chosen) act(chosen.value, d);
  });
  menu.appendChild(menuButton);
  wrap.appendChild(menu);
  for (const line of more) wrap.appendChild(el("p", line, { class: "situation" }));
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
    if (f.pick && !S.pickers[k]) S.pickers[k] = ((px, py, ask) => {  // a point on the table (inches) or the picture
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

// the preview's answer is shown just below the form that asked for it (many aircraft: many forms)
const previewBox = $("preview");
const previewParent = previewBox && previewBox.parentNode;
function previewHome() { if (previewParent && previewBox.parentNode !== previewParent) previewParent.appendChild(previewBox); }
function preview(text, form) {
  if (!text.trim()) return;
  S.asked = null;  // asked from a form: said below it (and drawn on the table), not beside the pointer
  if (form && form.isConnected) form.after(previewBox); else previewHome();
  send({ type: "preview", action: text.trim(), n: ++S.seq });
}
export function showPreview(m) {
  if (S.asked && m.n !== undefined && m.n < S.asked.n) return;  // an answer overtaken by a later ask on the way
  if (S.asked) tableAnswer(m);
  else if (S.tableView) { S.tableView.tip(0, 0, null); S.tableView.preview(m.legal && m.drawn ? Object.assign({ ok: true }, m.drawn) : null); }
  if (S.tableView) S.tableView.element.dataset.preview = m.legal ? m.action : "";
  const box = $("preview");
  box.textContent = "";
  if (S.shown) { S.shown = null; delete $("svg").dataset.preview; if (S.last && S.last.svg !== undefined) showSvg(S.last.svg, S.last.marks); }
  box.appendChild(el("p", m.action + (m.legal ? " - allowed" : " - not allowed: " + m.problem), { class: m.legal ? "ok" : "problem" }));
  if (m.legal) {
    if (m.note) box.appendChild(el("p", m.note));
    box.appendChild(el("p", "Exact odds: " + m.odds, { class: "odds" }));
    if (m.svg) {  // the picture with the order drawn in, until the next state or "back"
      S.shown = { svg: m.svg, step: S.last && S.last.step };
      showSvg(m.svg, S.last && S.last.marks);
      $("svg").dataset.preview = m.action;
      const back = el("button", "Back to the table as it is", { type: "button" });
      back.addEventListener("click", () => { S.shown = null; if (S.last && S.last.svg !== undefined) showSvg(S.last.svg, S.last.marks); delete $("svg").dataset.preview; box.removeChild(back); });
      box.appendChild(el("p", "The picture shows this order drawn in (dashed: its path and the 4-inch rings of the guns it would meet); it is not given until you commit."));
      box.appendChild(back);
    }
  }
}
