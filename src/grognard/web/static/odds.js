// grognard: who is winning (issue 20). The server sends each page its estimate in the state (``odds``):
// a player's page its seat's own, others the public one; the projector also the curve so far.
// Drawn as a bar (first side from the left, second from the right, the 95% interval as a bracket) and,
// on the projector, a line over the turns with its interval as a band. Colours: each side's colour on the
// table (table.js, Okabe-Ito, by the side's place in the rule set's sides), each side also named in text and
// the second side hatched, so no colour is needed to read it.
"use strict";
window.grognardOdds = (function () {
  const NS = "http://www.w3.org/2000/svg";
  const pct = (x) => Math.round(100 * x) + "%";
  const svgEl = (tag, attrs, text) => {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);  // a side's name begins a line
  const ival = (s) => pct(s.interval[0]) + " to " + pct(s.interval[1]);
  // the sides' colours on the table, so the bar's allies are the table's allies
  const colours = () => (window.GrognardTable && window.GrognardTable.colours) || ["#E69F00", "#56B4E9"];

  function bar(now, sides) {
    const [a, b] = sides;
    const sa = now.sides[a], sb = now.sides[b];
    const W = 600, H = 64;
    const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "odds-bar", role: "img",
      "aria-label": a + " " + pct(sa.p) + " (95% interval " + ival(sa) + "), " + b + " " + pct(sb.p) + " (" + ival(sb) + ")" });
    const defs = svgEl("defs");
    const pat = svgEl("pattern", { id: "odds-hatch", width: 10, height: 10, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
    const [ca, cb] = colours();
    pat.appendChild(svgEl("rect", { width: 10, height: 10, fill: cb }));
    pat.appendChild(svgEl("line", { x1: 0, y1: 0, x2: 0, y2: 10, stroke: "#fff", "stroke-width": 3, "stroke-opacity": 0.6 }));
    defs.appendChild(pat); svg.appendChild(defs);
    const wa = W * sa.p, wb = W * sb.p;
    svg.appendChild(svgEl("rect", { x: 0, y: 0, width: W, height: H, fill: "#ddd" }));  // no winner
    svg.appendChild(svgEl("rect", { x: 0, y: 0, width: wa, height: H, fill: ca, class: "odds-a" }));
    svg.appendChild(svgEl("rect", { x: W - wb, y: 0, width: wb, height: H, fill: "url(#odds-hatch)", class: "odds-b" }));
    // the first side's 95% interval: a bracket across its end
    const lo = W * sa.interval[0], hi = W * sa.interval[1];
    svg.appendChild(svgEl("path", { d: `M${lo},14 v-10 H${hi} v10 M${lo},${H - 14} v10 H${hi} v-10`, fill: "none", stroke: "#000", "stroke-width": 4 }));
    svg.appendChild(svgEl("line", { x1: W / 2, y1: 0, x2: W / 2, y2: H, stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "4 4" }));
    return svg;
  }

  // drawn at the width of its box (px, screen pixels; 440 when not laid out), one unit a pixel, its words
  // the size of the page's there (font, pixels; 20 when not laid out): as large in a narrow column of the
  // projector as in a wide one
  const lineWidth = (px) => Math.max(280, Math.round(px || 440));
  function line(curve, sides, px, font) {
    const a = sides[0], ca = colours()[0];
    const F = font || 20, k = F / 20;
    const W = lineWidth(px), H = 226 * k, L = 72 * k, R = 16, T = 42 * k, B = 34 * k;
    const xs = curve.map((p) => p.turn + (p.ended ? 0.5 : 0));
    const x0 = Math.min(...xs), x1 = Math.max(x0 + 1, ...xs);
    const X = (t) => L + (W - L - R) * (t - x0) / (x1 - x0), Y = (p) => T + (H - T - B) * (1 - p);
    const svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, class: "odds-line", role: "img",
      "aria-label": possessive(a) + " chance to win, turn by turn: " + curve.map((p, i) => (p.ended ? "end" : "turn " + p.turn) + " " + pct(p.sides[a].p)).join(", ") });
    for (const g of [0, 0.5, 1]) {
      svg.appendChild(svgEl("line", { x1: L, x2: W - R, y1: Y(g), y2: Y(g), stroke: "#999", "stroke-dasharray": g === 0.5 ? "6 4" : "" }));
      svg.appendChild(svgEl("text", { x: L - 6 * k, y: Y(g) + 0.3 * F, "text-anchor": "end", "font-size": F }, pct(g)));
    }
    if (curve.length > 1) {
      const up = curve.map((p, i) => X(xs[i]) + "," + Y(p.sides[a].interval[1]));
      const down = curve.map((p, i) => X(xs[i]) + "," + Y(p.sides[a].interval[0])).reverse();
      svg.appendChild(svgEl("polygon", { points: up.concat(down).join(" "), fill: ca, "fill-opacity": 0.25 }));
    }
    svg.appendChild(svgEl("polyline", { points: curve.map((p, i) => X(xs[i]) + "," + Y(p.sides[a].p)).join(" "), fill: "none", stroke: ca, "stroke-width": 4 }));
    curve.forEach((p, i) => svg.appendChild(svgEl("circle", { cx: X(xs[i]), cy: Y(p.sides[a].p), r: 5, fill: ca, stroke: "#000", "stroke-width": 1 })));
    const step = Math.max(1, Math.ceil((x1 - x0) / Math.max(2, Math.floor((W - L - R) / (2.25 * F)))));  // a number each 2.25 words' heights or more
    for (let t = Math.ceil(x0); t <= x1; t += step) svg.appendChild(svgEl("text", { x: X(t), y: H - 0.4 * F, "text-anchor": "middle", "font-size": F }, String(t)));
    svg.appendChild(svgEl("text", { x: 4, y: 1.1 * F, "font-size": F, "font-weight": "bold" }, cap(a) + ": chance by turn"));
    return svg;
  }

  function draw(odds, sides, role) {
    const box = document.getElementById("odds");
    if (!box) return;
    // no estimate in the state at all: the host has not chosen to show it to this page (or not yet: a turn)
    box.hidden = !(sides && sides.length >= 2) || odds === undefined;
    if (box.hidden) return;
    if (!odds) {  // the first estimate is on its way: its place is kept, so nothing on the page moves when it comes
      const labels = document.getElementById("odds-labels");
      labels.textContent = "";
      const words = document.createElement("span");
      words.textContent = "Working it out\u2026";
      labels.appendChild(words);
      const barBox = document.getElementById("odds-bar");
      barBox.textContent = "";
      barBox.appendChild(svgEl("svg", { viewBox: "0 0 600 64", class: "odds-bar waiting", "aria-hidden": "true" }));
      barBox.firstChild.appendChild(svgEl("rect", { x: 0, y: 0, width: 600, height: 64, fill: "#eee" }));
      const lineBox = document.getElementById("odds-line");
    const banded = lineBox && odds.curve && odds.curve.length > 1;  // the line's band drawn (line() below)
    document.getElementById("odds-note").textContent = "Bots are playing the game out from here to see who wins.";
      return;
    }
    const now = odds.now;
    const [a, b] = sides;
    const sa = now.sides[a], sb = now.sides[b];
    const labels = document.getElementById("odds-labels");
    labels.textContent = "";
    const left = document.createElement("span"); left.className = "odds-side odds-side-a";
    left.textContent = "\u25A0 " + cap(a) + " " + pct(sa.p);
    const right = document.createElement("span"); right.className = "odds-side odds-side-b";
    right.textContent = cap(b) + " " + pct(sb.p) + " \u25A8";
    labels.appendChild(left); labels.appendChild(right);
    const barBox = document.getElementById("odds-bar");
    barBox.textContent = ""; barBox.appendChild(bar(now, sides));
    const lineBox = document.getElementById("odds-line");
    const banded = lineBox && odds.curve && odds.curve.length > 1;  // the line's band drawn (line() below)
    document.getElementById("odds-note").textContent =
      "95% interval" + (banded ? " (the band round the line)" : "") + ": " + cap(a) + " " + ival(sa) + ", " + cap(b) + " " + ival(sb) +
      (now.other > 0 ? "; no winner " + pct(now.other) : "") +
      ". Turn " + now.turn + ", " + now.playouts + " games played out by bots" +
      (odds.own ? " from what your seat can see." : " from what everyone can see.");
    if (lineBox) {
      shownLine = odds.curve && odds.curve.length ? [odds.curve, sides] : null;
      drawLine(lineBox);
      if (!watched && window.ResizeObserver) { watched = new ResizeObserver(() => redrawLine(lineBox)); watched.observe(lineBox); }
    }
  }

  // the line is drawn at its box's width: drawn again when the box is laid out anew (a long table's columns
  // come with the table, after the first estimate; the window resized)
  let shownLine = null, watched = null, drawnKey = null;
  function drawLine(box) {
    const font = parseFloat(getComputedStyle(box).fontSize);
    const key = JSON.stringify([shownLine, lineWidth(box.clientWidth), font]);
    if (key === drawnKey && (box.firstChild || !shownLine)) return;  // the same line: kept (states come often)
    drawnKey = key;
    box.textContent = "";
    if (shownLine) box.appendChild(line(shownLine[0], shownLine[1], box.clientWidth, font));
  }
  function redrawLine(box) {
    const svg = box.querySelector("svg");
    const drawnAt = svg ? parseFloat(svg.getAttribute("viewBox").split(" ")[2]) : 0;
    if (svg && Math.abs(drawnAt - lineWidth(box.clientWidth)) > 2) drawLine(box);
  }
  return { draw: draw };
})();

// a side's name owning something, as core/words.py writes it: "Allies' chance", "Axis's chance"
function possessive(name) {
  return /s$/.test(name) && !/(is|us|ss)$/.test(name) ? name + "'" : name + "'s";
}
