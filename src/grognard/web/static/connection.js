// grognard room pages: the connection (a WebSocket, reconnected), the state it brings (whole or patched) and
// the outbox of orders, which keeps every order until the server answers it
import { $, el, say, store, post, randomId } from "./page.js";
import { role, code, keyOf, S } from "./state.js";
import { draw } from "./app.js";
import { addEvents } from "./panels.js";
import { askedAgain, sayAskedAgain, showPreview } from "./orders.js";
import { sayDone } from "./host.js";

let ws = null;
let retry = 500;
let resyncing = false;  // asked for the whole state; patches until it comes are dropped
window.grognardState = () => S.last;  // what the page holds (read by the tests)
// what the message line said of the last order given ("Done: ...", "Refused: ...") and the record's step
// that gave it, kept: the line itself is cleared at once when the order's own question is asked again (the
// next turn), so a reader of the line alone can miss it (read by the tests)
let said = [];
let saidStep = null;
window.grognardSaid = () => ({ lines: said.slice(), step: saidStep });
function sayOfOrder(text, kind) { said.push(text); say(text, kind, "order"); }

export function send(message) {
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
function saveOutbox() {
  if (outbox.length) store.set(outboxKey, JSON.stringify({ token: S.token, orders: outbox }));
  else store.del(outboxKey);
}
function online() { return !!(ws && ws.readyState === WebSocket.OPEN && ws.greeted); }
function sendOrder(order) {
  if (!online()) { order.waited = true; return; }
  ws.send(JSON.stringify({ type: "act", action: order.action, seat: order.seat, client: order.client, n: ++S.seq }));
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
  if (order.waited) { order.turn = S.last ? S.last.turn : undefined; lastSent.push(order); }
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
export function showOutbox() {
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
  if (role === "player" && !S.token) { showJoin(true); return; }
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  // the page's token shown at the handshake too: the server never counts it with others' idle sockets
  const protocols = S.token && /^[A-Za-z0-9_-]{16,64}$/.test(S.token) ? ["grognard", "grognard.t." + S.token] : [];
  ws = new WebSocket(scheme + location.host + "/ws/" + code, protocols);
  ws.onopen = () => {
    retry = 500;
    resyncing = false;
    ws.send(JSON.stringify({ type: "hello", role, token: S.token || undefined }));
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
        store.del("grognard:player:" + code); S.token = null; showJoin(true);
      }
      return;
    }
    $("turn").textContent = "Reconnecting...";
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  };
}
function showJoin(show) {
  const panel = $("join-panel");
  if (panel) panel.hidden = !show;
  if (show) $("turn").textContent = "Join to play";
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
  if (!S.last || S.last.version !== p.base) return null;
  const s = changed(S.last, { set: p.set, unset: p.unset, change: p.change });
  s.type = "state";
  return s;
}

function receive(m) {
  if (m.type === "state") { S.last = m; resyncing = false; draw(m); }
  else if (m.type === "patch") {
    const s = merged(m);
    if (s) { S.last = s; draw(s); } else if (!resyncing) { resyncing = send({ type: "resync" }); }
  }
  else if (m.type === "events") { addEvents(m.events); }
  else if (m.type === "refused") {
    if (m.client && m.code === "rate") { setTimeout(flushOutbox, 2000); return; }  // kept: sent again soon
    if (m.client) orderAnswered(m.client);
    if (m.n) sayOfOrder("Refused: " + m.message, "error"); else say("Refused: " + m.message, "error");
  } else if (m.type === "ack") {
    if (m.client) orderAnswered(m.client);
    if (m.action) {
      if (S.answered) S.answered.step = m.step;
      saidStep = m.step;
      // the state after it may have come first, asking the same question again (the next turn): said so
      if (!(S.last && S.answered && askedAgain(S.last))) sayOfOrder("Done: " + m.action, "ok");
      else { said.push("Done: " + m.action); sayAskedAgain(S.last); }
    }
    else if (m.dice) sayDone("dice", "Dice entered: " + m.dice.join(" "));
    else if (m.op) sayDone(m.op);  // host.js: said briefly, then cleared
  } else if (m.type === "preview") { showPreview(m); }
  else if (m.type === "bye") { say(m.message, "error"); }
}

// the page's token: the host's (from the link that made the game), a player's (from joining), the
// projector's (from the host page's link); then the outbox kept by a reload, and the connection
export function start() {
  if (role === "host") {
    if (location.hash.length > 1) {
      store.set("grognard:host:" + code, location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
    }
    S.token = store.get("grognard:host:" + code);
    if (!S.token) say("This browser does not hold the host's token for this game.", "error");
  } else if (role === "player") {
    S.token = store.get("grognard:player:" + code);
  } else if (role === "projector") {
    // the host page's projector link carries a token: it lets this page in however many others watch
    if (location.hash.length > 1) {
      store.set("grognard:projector:" + code, location.hash.slice(1));
      history.replaceState(null, "", location.pathname);
    }
    S.token = store.get("grognard:projector:" + code);
  }
  if (role === "player") {
    try {
      const kept = JSON.parse(store.get(outboxKey) || "null");
      if (kept && kept.token === S.token && Array.isArray(kept.orders)) outbox = kept.orders;
    } catch (e) { /* a damaged outbox: nothing to resend */ }
    $("player-join").addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const joined = await post("/api/rooms/" + code + "/join", { name: e.target.name.value, side: e.target.side.value || null });
        S.token = joined.token;
        store.set("grognard:player:" + code, S.token);
        showJoin(false);
        say("");
        connect();
      } catch (err) { say(err.message, "error"); }
    });
  }
  // a Chromebook waking from sleep: reconnect at once
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && !ws) connect();
  });
  if (role === "player") showOutbox();
  connect();
}

// give an order: kept in the outbox (and localStorage) until the server answers it
export function act(text, d) {
  if (!text.trim()) return;
  S.answered = { key: keyOf(d), step: null, action: text.trim(), turn: S.last ? S.last.turn : undefined };
  const order = { client: randomId(), action: text.trim(), seat: d.seat, waited: false };
  outbox.push(order);
  lastSent = [];
  said = [];
  saidStep = null;
  if (online()) say("Sending: " + order.action, null, "order");
  sendOrder(order);
  saveOutbox();
  showOutbox();
}

// "Sent: ..." (an order that waited for the connection) stays until the next order or the game stops
export function forgetSent(s) {
  if (lastSent.length && s.status !== "playing") { lastSent = []; showOutbox(); }
}
