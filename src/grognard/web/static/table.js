// grognard's table: a face's scene (table inches, y up) drawn as SVG in the browser, with zoom and pan
// (wheel, pinch, buttons, keys) and the pointer told in inches. No build step; every text from the
// server is written with textContent. The scene's shape keys are in docs/FACE-CONTRACT.md.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  // Okabe-Ito, colour-blind safe, by the side's index in the rule set's sides; a marker shape as well
  const SIDE_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#F0E442", "#0072B2"];
  const node = (tag, attrs, text) => {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) n.setAttribute(k, String(v));
    if (text !== undefined && text !== null) n.textContent = String(text);
    return n;
  };
  const fix = (v) => Math.round(v * 1000) / 1000;

  // a marker's outline around (x, -y) of half-size r, in SVG units (y already flipped)
  function marker(kind, x, y, r, attrs) {
    if (kind === "man") {  // a standing man, r his half-height: a head over shoulders and a body
      const h = 0.3 * r, hy = y - 0.66 * r, f = (v) => fix(v);
      const d = "M" + f(x - 0.55 * r) + " " + f(y + r) + " L" + f(x + 0.55 * r) + " " + f(y + r) + " L" + f(x + 0.55 * r) + " " + f(y - 0.1 * r) +
        " Q" + f(x + 0.55 * r) + " " + f(y - 0.32 * r) + " " + f(x + 0.25 * r) + " " + f(y - 0.32 * r) + " L" + f(x - 0.25 * r) + " " + f(y - 0.32 * r) +
        " Q" + f(x - 0.55 * r) + " " + f(y - 0.32 * r) + " " + f(x - 0.55 * r) + " " + f(y - 0.1 * r) + " Z M" + f(x - h) + " " + f(hy) +
        " A" + f(h) + " " + f(h) + " 0 1 0 " + f(x + h) + " " + f(hy) + " A" + f(h) + " " + f(h) + " 0 1 0 " + f(x - h) + " " + f(hy) + " Z";
      return node("path", Object.assign({ d: d }, attrs));
    }
    if (kind === "square") return node("rect", Object.assign({ x: fix(x - r), y: fix(y - r), width: fix(2 * r), height: fix(2 * r) }, attrs));
    if (kind === "triangle") {
      const p = [[x, y - 1.15 * r], [x + r, y + 0.75 * r], [x - r, y + 0.75 * r]];
      return node("polygon", Object.assign({ points: p.map((q) => fix(q[0]) + "," + fix(q[1])).join(" ") }, attrs));
    }
    if (kind === "diamond") {
      const p = [[x, y - 1.2 * r], [x + 1.2 * r, y], [x, y + 1.2 * r], [x - 1.2 * r, y]];
      return node("polygon", Object.assign({ points: p.map((q) => fix(q[0]) + "," + fix(q[1])).join(" ") }, attrs));
    }
    return node("circle", Object.assign({ cx: fix(x), cy: fix(y), r: fix(r) }, attrs));
  }

  // a man's glyph on his round base (a figure's glyph): an SVG path in a box of -1..1 about the base's centre, y down,
  // filled or stroked; the same table as core.face.GLYPHS (tests/test_skirmish_pictures.py compares them)
  const GLYPHS = {"rifle": {"d": "M-0.72 0.62 L0.72 -0.62 M-0.72 0.62 L-0.4 0.74", "fill": false}, "smg": {"d": "M-0.55 0.45 L0.55 -0.45 M0 0 L0.32 0.34", "fill": false}, "pistol": {"d": "M-0.5 -0.3 H0.55 M-0.3 -0.3 L-0.45 0.45", "fill": false}, "mg": {"d": "M-0.78 -0.28 H0.8 M0.1 -0.28 L-0.35 0.65 M0.1 -0.28 L0.55 0.65", "fill": false}, "mortar": {"d": "M-0.7 0.62 H0.7 M-0.22 0.62 L0.35 -0.72 M0.3 0.62 L0.08 -0.1", "fill": false}, "bazooka": {"d": "M-0.85 -0.17 H0.5 L0.85 -0.34 V0.34 L0.5 0.17 H-0.85 Z", "fill": true}, "flame_thrower": {"d": "M0.05 0.8 C-0.65 0.55 -0.45 -0.15 -0.05 -0.8 C0 -0.35 0.55 -0.15 0.45 0.35 C0.4 0.62 0.25 0.78 0.05 0.8 Z", "fill": true}, "crew": {"d": "M-0.6 0 A0.6 0.6 0 1 0 0.6 0 A0.6 0.6 0 1 0 -0.6 0 M-0.6 0 H0.6 M0 -0.6 V0.6", "fill": false}, "officer": {"d": "M0 -0.76 L0.2 -0.22 L0.78 -0.19 L0.32 0.17 L0.48 0.72 L0 0.4 L-0.48 0.72 L-0.32 0.17 L-0.78 -0.19 L-0.2 -0.22 Z", "fill": true}, "cavalry": {"d": "M-0.5 0.65 L-0.55 0 A0.55 0.55 0 0 1 0.55 0 L0.5 0.65", "fill": false}, "engineer": {"d": "M0 -0.8 V0.15 M-0.35 0.15 H0.35 L0.25 0.72 H-0.25 Z", "fill": false}};
  // a man: a round base of its true size (never under 5 pixels across) in the side's colour, its rim thick for a
  // side whose marker is not the circle, the glyph on it (its id, a tag, is a word the placement put under or beside it)
  function base(s, style, small) {
    const g = [], r = Math.max(s.r, 2.5 * small), x = s.x, y = -s.y;
    const rimmed = s.marker && s.marker !== "circle";
    g.push(node("circle", Object.assign({ class: rimmed ? "base rimmed" : "base", cx: fix(x), cy: fix(y), r: fix(r) }, style)));
    const glyph = GLYPHS[s.glyph];
    if (glyph) g.push(node("path", { class: glyph.fill ? "glyph-mark filled" : "glyph-mark", d: glyph.d, transform: "translate(" + fix(x) + " " + fix(y) + ") scale(" + fix(r * 0.8) + ")" }));
    return { parts: g, r: r };
  }

  // the terrain's textures, in table inches (woods' trees, a hill's contours, water's ripples, the railway's
  // sleepers, a road's verge, wire's barbs), so no two kinds of ground look alike even in grey; coiled wire on a yellow
  // card (rings of wire, filled, not stroked, so as fine on paper as on screen, overlapping as a spiral of wire does)
  // a roof's rows of tiles (a taller building's crossed and darker), a wall's stones, a road's gravel, a bridge's
  // planks, a castle court's flagstones; w: the marks' stroke in inches (0.13 without it)
  const PATTERNS = {
    wood: { size: 2, bg: "#7fb069", marks: [["circle", { cx: 0.5, cy: 0.5, r: 0.42 }], ["circle", { cx: 1.5, cy: 1.5, r: 0.42 }]], ink: "#2f6b22" },
    hill: { size: 1.2, bg: "#e3cf9c", marks: [["path", { d: "M0 1.2 L1.2 0" }]], ink: "#8c6d1f" },
    water: { size: 1.6, bg: "#9ccbea", marks: [["path", { d: "M0 0.8 Q0.4 0.4 0.8 0.8 T1.6 0.8" }]], ink: "#0b5f94" },
    rail: { size: 1, bg: "#c9c2b4", marks: [["path", { d: "M0.5 0 L0.5 1" }]], ink: "#4d4d4d" },
    obstacle: { size: 1, bg: "#b3b3b3", marks: [["circle", { cx: 0.5, cy: 0.5, r: 0.18 }]], ink: "#4d4d4d" },
    coil: { size: 0.5, bg: "#e8c95a", ink: "#262626", marks: [
      ["path", { d: "M0.55 0.25 A0.3 0.3 0 1 0 -0.05 0.25 A0.3 0.3 0 1 0 0.55 0.25 Z M0.5 0.25 A0.25 0.25 0 1 0 0 0.25 A0.25 0.25 0 1 0 0.5 0.25 Z", fill: "#262626", stroke: "none", "fill-rule": "evenodd" }],
      ["path", { d: "M0.3 0 A0.3 0.3 0 1 0 -0.3 0 A0.3 0.3 0 1 0 0.3 0 Z M0.25 0 A0.25 0.25 0 1 0 -0.25 0 A0.25 0.25 0 1 0 0.25 0 Z", fill: "#262626", stroke: "none", "fill-rule": "evenodd" }],
      ["path", { d: "M0.8 0 A0.3 0.3 0 1 0 0.2 0 A0.3 0.3 0 1 0 0.8 0 Z M0.75 0 A0.25 0.25 0 1 0 0.25 0 A0.25 0.25 0 1 0 0.75 0 Z", fill: "#262626", stroke: "none", "fill-rule": "evenodd" }],
      ["path", { d: "M0.3 0.5 A0.3 0.3 0 1 0 -0.3 0.5 A0.3 0.3 0 1 0 0.3 0.5 Z M0.25 0.5 A0.25 0.25 0 1 0 -0.25 0.5 A0.25 0.25 0 1 0 0.25 0.5 Z", fill: "#262626", stroke: "none", "fill-rule": "evenodd" }],
      ["path", { d: "M0.8 0.5 A0.3 0.3 0 1 0 0.2 0.5 A0.3 0.3 0 1 0 0.8 0.5 Z M0.75 0.5 A0.25 0.25 0 1 0 0.25 0.5 A0.25 0.25 0 1 0 0.75 0.5 Z", fill: "#262626", stroke: "none", "fill-rule": "evenodd" }]] },
    building: { size: 0.7, bg: "#e0b28f", marks: [["path", { d: "M0 0.35 H0.7" }]], ink: "#7a4a2a", w: 0.09 },
    tall: { size: 0.7, bg: "#b9805a", marks: [["path", { d: "M0 0.35 H0.7 M0.35 0 V0.35" }]], ink: "#4a2a14", w: 0.09 },
    wall: { size: 0.45, bg: "#8a8a8a", marks: [["path", { d: "M0.03 0 V0.45" }]], ink: "#2e2e2e", w: 0.07 },
    road: { size: 0.8, bg: "#d8d2c4", marks: [["circle", { cx: 0.2, cy: 0.2, r: 0.05 }], ["circle", { cx: 0.6, cy: 0.55, r: 0.04 }]], ink: "#8f8570" },
    bridge: { size: 0.5, bg: "#b08a5a", marks: [["path", { d: "M0 0.25 H0.5" }]], ink: "#3f2a12", w: 0.1 },
    court: { size: 1.2, bg: "#dcd6c8", marks: [["path", { d: "M0 0.03 H1.2 M0.03 0 V1.2" }]], ink: "#9a9280", w: 0.06 },
  };
  function patterns(svg) {
    if (document.getElementById("gt-wood")) return;  // one set a page
    const defs = node("defs", {});
    for (const [name, p] of Object.entries(PATTERNS)) {
      const pat = node("pattern", { id: "gt-" + name, patternUnits: "userSpaceOnUse", width: p.size, height: p.size });
      pat.appendChild(node("rect", { x: 0, y: 0, width: p.size, height: p.size, fill: p.bg, stroke: "none" }));
      for (const [tag, attrs] of p.marks) {
        pat.appendChild(node(tag, Object.assign({ fill: tag === "circle" ? p.ink : "none", stroke: p.ink, "stroke-width": p.w || 0.13, "vector-effect": "none" }, attrs)));
      }
      defs.appendChild(pat);
    }
    svg.insertBefore(defs, svg.firstChild);
  }
  // the key under the table: a swatch drawn with the table's own classes and a name, for each look it has
  // a man's swatch in the key (an item with a glyph or a marker): his base, its rim, his glyph, in a 3 x 2 box
  function keyMan(item, colour) {
    const g = node("g", { class: "t-figure" }), fill = (item.side && colour(item.side)) || "#e6e6e6";
    const rimmed = item.marker && item.marker !== "circle";
    g.appendChild(node("circle", { class: rimmed ? "base rimmed" : "base", cx: 1.5, cy: 1, r: 0.9, fill: fill }));
    const glyph = GLYPHS[item.glyph];
    if (glyph) g.appendChild(node("path", { class: glyph.fill ? "glyph-mark filled" : "glyph-mark", d: glyph.d, transform: "translate(1.5 1) scale(0.72)" }));
    return g;
  }
  function drawKey(keyBox, key, colour) {
    keyBox.textContent = "";
    keyBox.hidden = !(key && key.length);
    if (keyBox.hidden) return;
    const head = document.createElement("span");
    head.className = "key-head"; head.textContent = "Key:";
    keyBox.appendChild(head);
    for (const item of key) {
      const li = document.createElement("span");
      li.className = "key-item";
      li.dataset.cls = item.cls;
      const sw = node("svg", { class: "key-swatch", viewBox: "0 0 3 2", width: 36, height: 24, "aria-hidden": "true" });
      const g = item.glyph || item.marker ? keyMan(item, colour) : node("g", { class: "t-" + item.cls + (item.state ? " s-" + item.state : "") });
      if (item.glyph || item.marker) { /* drawn */ }
      else if (item.cls === "wire") g.appendChild(node("polyline", { points: "0.2,1 2.8,1" }));
      else g.appendChild(node(item.cls === "ground" ? "rect" : "polygon", item.cls === "ground"
        ? { x: 0.1, y: 0.1, width: 2.8, height: 1.8 } : { points: "0.1,0.1 2.9,0.1 2.9,1.9 0.1,1.9" }));
      sw.appendChild(g);
      li.appendChild(sw);
      const words = document.createElement("span");
      words.textContent = item.name;
      li.appendChild(words);
      keyBox.appendChild(li);
    }
  }

  function create(box, options) {
    const opts = options || {};
    const svg = node("svg", { class: "table", role: "img", "aria-labelledby": opts.labelledby || "board-h", tabindex: 0, focusable: "true" });
    const desc = node("desc", {}, "The table. Zoom with the wheel, a pinch or the + and - keys; move it with the arrow keys or a drag where nothing is to be picked; 0 shows the whole table.");
    svg.appendChild(desc);
    const layers = node("g", { class: "layers" });
    const over = node("g", { class: "preview-layer" });
    const hand = node("g", { class: "drag-layer" });  // what the pointer carries: a picked man, a drag's ghost
    svg.appendChild(layers); svg.appendChild(over); svg.appendChild(hand);
    const frame = document.createElement("div");
    frame.className = "table-frame";
    frame.appendChild(svg);
    const tools = document.createElement("div");
    tools.className = "table-tools";
    tools.setAttribute("role", "group");
    tools.setAttribute("aria-label", "zoom and pan the table");
    const button = (text, title, fn) => {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = text; b.title = title; b.setAttribute("aria-label", title);
      b.addEventListener("click", fn);
      tools.appendChild(b);
      return b;
    };
    const tip = document.createElement("div");
    tip.className = "table-tip"; tip.hidden = true; tip.setAttribute("role", "status"); tip.setAttribute("aria-live", "polite");
    frame.appendChild(tip);
    const keyBox = document.createElement("div");
    keyBox.className = "table-key"; keyBox.hidden = true;
    keyBox.setAttribute("role", "group"); keyBox.setAttribute("aria-label", "the table's key: what each kind of ground looks like");
    // the tools and the key beside the table (a table about as deep as wide: the screen's height is what
    // limits it, so they take a column of the width to spare) or above it (a long table: data-shape "wide")
    const side = document.createElement("div");
    side.className = "table-side";
    side.appendChild(tools);
    side.appendChild(keyBox);
    box.textContent = "";
    box.appendChild(side);
    box.appendChild(frame);
    patterns(svg);

    let layersRef = layers;
    let focused = false;  // the first sight of the viewer's own units was given
    let scene = null;
    let whole = null;   // the whole table's box in SVG units {x, y, w, h}
    let shown = null;   // the part in sight
    let sides = opts.sides || [];
    let unit = 1;       // text and mark size, inches
    const api = {};

    // screen pixels per inch at the zoom shown: the page's own drawings (previews, rings) are never drawn smaller
    // than a few pixels (the scene's words and marks are drawn at their size)
    let drawnAt = 0;
    function perInch() {
      if (!shown) return 1;
      const w = svg.clientWidth || 800, h = svg.clientHeight || 500;
      return Math.min(w / shown.w, h / shown.h);
    }
    let redraw = 0;
    function setBox(b) {
      shown = b;
      svg.setAttribute("viewBox", [b.x, b.y, b.w, b.h].map(fix).join(" "));
      svg.dataset.zoom = whole ? String(fix(whole.w / b.w)) : "1";
      const k = perInch();
      if (scene && drawnAt && Math.abs(k / drawnAt - 1) > 0.15 && !redraw) {
        redraw = requestAnimationFrame(() => { redraw = 0; if (scene) paint(); });
      }
    }
    function fit() { if (whole) setBox(Object.assign({}, whole)); }
    function zoomAt(factor, sx, sy) {  // factor > 1: closer; (sx, sy): the SVG point kept still
      if (!shown) return;
      const limit = whole.w / 40;  // at most 40 times closer
      let w = shown.w / factor;
      if (w < limit) w = limit;
      if (w > whole.w * 1.5) w = whole.w * 1.5;
      const f = w / shown.w;
      const cx = sx === undefined ? shown.x + shown.w / 2 : sx;
      const cy = sy === undefined ? shown.y + shown.h / 2 : sy;
      setBox({ x: cx - (cx - shown.x) * f, y: cy - (cy - shown.y) * f, w: w, h: shown.h * f });
    }
    function panBy(dx, dy) { if (shown) setBox({ x: shown.x + dx, y: shown.y + dy, w: shown.w, h: shown.h }); }
    button("+", "zoom in", () => zoomAt(1.5));
    button("\u2212", "zoom out", () => zoomAt(1 / 1.5));
    button("\u2190", "move the view left", () => panBy(-shown.w / 6, 0));
    button("\u2192", "move the view right", () => panBy(shown.w / 6, 0));
    button("\u2191", "move the view up", () => panBy(0, -shown.h / 6));
    button("\u2193", "move the view down", () => panBy(0, shown.h / 6));
    button("whole table", "show the whole table", fit);
    // the ruler: anyone may drag it across the table to measure, in inches (nothing is sent)
    let ruling = false, rule = null;
    const ruler = node("g", { class: "ruler" });
    const rulerButton = button("ruler", "ruler: drag across the table to measure, in inches", () => {
      ruling = !ruling;
      rulerButton.setAttribute("aria-pressed", String(ruling));
      svg.classList.toggle("ruling", ruling);
      if (!ruling) { ruler.textContent = ""; rule = null; }
    });
    rulerButton.setAttribute("aria-pressed", "false");
    svg.appendChild(ruler);
    function drawRule(a, b) {
      ruler.textContent = "";
      const d = Math.hypot(b.x - a.x, b.y - a.y);
      for (const cls of ["ruler-line-under", "ruler-line"]) ruler.appendChild(node("line", { class: cls, x1: fix(a.x), y1: fix(-a.y), x2: fix(b.x), y2: fix(-b.y) }));
      const size = Math.max(unit, 14 * least);
      ruler.appendChild(node("text", { class: "ruler-label", x: fix(b.x), y: fix(-b.y - size), "text-anchor": "middle", "font-size": fix(size) }, d.toFixed(1) + '"'));
      svg.dataset.measured = d.toFixed(2);
    }

    // screen <-> table inches
    function svgPoint(clientX, clientY) {
      const p = svg.createSVGPoint(); p.x = clientX; p.y = clientY;
      const m = svg.getScreenCTM();
      return m ? p.matrixTransform(m.inverse()) : null;
    }
    api.inches = (clientX, clientY) => { const p = svgPoint(clientX, clientY); return p ? { x: p.x, y: -p.y } : null; };
    api.screen = (x, y) => {  // the client (page) point of table point (x, y)
      const p = svg.createSVGPoint(); p.x = x; p.y = -y;
      const q = p.matrixTransform(svg.getScreenCTM());
      return [q.x, q.y];
    };
    api.zoom = () => (whole && shown ? whole.w / shown.w : 1);
    api.perInch = () => perInch();
    api.element = svg;

    function classOf(s) {
      let c = "t-" + (s.cls || s.kind);
      if (s.state) c += " s-" + s.state;
      if (s.cls === "ring") c += " mine";
      if (s.id || s.of) c += " unit";
      return c;
    }
    function colour(side) {
      const k = sides.indexOf(side);
      return k >= 0 ? SIDE_COLOURS[k % SIDE_COLOURS.length] : null;
    }
    let least = 0.1;  // inches: the size of 1 screen pixel at the zoom drawn
    // pixels: the least the page's own words and rings are drawn (a preview's, a drag's, the viewer's rings; never
    // the scene's words and marks, drawn at their size where the placement put them)
    const minText = opts.minText || 12, minMark = opts.minMark || 9;
    // a shape of the scene, drawn as the scene says: its words where the scene placed them (core/placement.py),
    // at size * unit, and its marks at their size; nothing here moves or enlarges them (docs/FACE-CONTRACT.md)
    function shapeNode(s) {
      const g = node("g", { class: classOf(s), "data-id": s.id, "data-of": s.of, "data-unit": s.unit });
      const fill = colour(s.side);
      const style = fill ? { fill: fill } : {};
      let main = null;
      if (s.kind === "rect") {
        main = node("rect", Object.assign({ x: fix(s.x), y: fix(-(s.y + s.h)), width: fix(s.w), height: fix(s.h), rx: s.rx, ry: s.rx }, style));
      } else if (s.kind === "circle") {
        const r = s.cls === "ring" ? Math.max(s.r, (minMark + 5) * least) : s.r;
        main = node("circle", Object.assign({ cx: fix(s.x), cy: fix(-s.y), r: fix(r) }, style));
      } else if (s.kind === "polygon" || s.kind === "polyline") {
        main = node(s.kind, Object.assign({ points: s.points.map((p) => fix(p[0]) + "," + fix(-p[1])).join(" ") }, style));
      } else if (s.kind === "figure" && s.glyph) {  // his id is a word of its own, placed under or beside him
        for (const part of base(s, style, least).parts) g.appendChild(part);
      } else if (s.kind === "figure") {
        // drawn at its size, a unit's as a man of a group's (the placement measured it so: docs/FACE-CONTRACT.md)
        main = marker(s.marker || "circle", s.x, -s.y, s.r, style);
      } else if (s.kind === "text") {
        if (s.leader) {
          const [a, b] = s.leader;
          g.appendChild(node("line", { class: "leader", x1: fix(a[0]), y1: fix(-a[1]), x2: fix(b[0]), y2: fix(-b[1]) }));
        }
        main = node("text", { class: s.word, x: fix(s.x), y: fix(-s.y), "text-anchor": s.anchor || "middle", "font-size": fix(unit * (s.size || 1)),
          transform: s.rotate ? "rotate(" + s.rotate + " " + fix(s.x) + " " + fix(-s.y) + ")" : undefined }, s.text);
      }
      if (main) g.appendChild(main);
      if (s.title) g.appendChild(node("title", {}, s.title));
      // a polygon's side marker (0.4 unit), a heading's line
      if (s.kind === "polygon" && s.marker && s.x !== undefined) {
        g.appendChild(marker(s.marker, s.x, -s.y, unit * 0.4, Object.assign({ class: "glyph" }, style)));
      }
      if (s.heading !== undefined && s.x !== undefined) {
        const a = (s.heading * Math.PI) / 180, len = (s.r || unit) + unit * 1.6;
        g.appendChild(node("line", { class: "heading", x1: fix(s.x), y1: fix(-s.y), x2: fix(s.x + Math.sin(a) * len), y2: fix(-(s.y + Math.cos(a) * len)) }));
      }
      return g;
    }

    api.draw = (next, sideNames) => {
      // a state whose table did not change (a patch that left the scene alone keeps its object: the live odds
      // came, a player joined, an order was taken and sealed) is not drawn again: on a pupil's Chromebook a
      // whole table drawn anew is the page's heaviest work
      if (next === scene && (!sideNames || sideNames === sides)) return;
      if (sideNames) sides = sideNames;
      const first = !scene || scene.width !== next.width || scene.height !== next.height || scene.x0 !== next.x0 || scene.y0 !== next.y0;
      scene = next;
      unit = next.unit || Math.sqrt(next.width * next.height) / 50;
      svg.style.setProperty("--unit", String(unit));
      const pad = unit * 1.2;  // the whole table as large as it fits, a margin for the words at its edges
      whole = { x: next.x0 - pad, y: -(next.y0 + next.height) - pad, w: next.width + 2 * pad, h: next.height + 2 * pad };
      svg.dataset.unit = String(fix(unit));
      // a very long table (a wide beach) is shown at most twice as wide as high: the whole table fits with
      // room above and below, and a player's first sight is the full depth of it around the own units
      const aspect = Math.min(whole.w / whole.h, opts.maxAspect || 2);
      svg.style.aspectRatio = String(fix(aspect));
      box.dataset.shape = aspect > 1.3 ? "wide" : "tall";
      // a long table (a whole beach: the projector's and the replay's maxAspect let it be) is best with
      // the page's side column below it, not beside it (style.css: data-long)
      box.dataset.long = String(aspect > 2.5);
      if (first) fit();
      if (!focused) {
        const rings = [].concat(...(next.layers || []).map((l) => l.shapes || [])).filter((s) => s.cls === "ring");
        if (rings.length) focused = true;
        if (opts.focusMine && rings.length && whole.w / whole.h > 2) {
          const cx = rings.reduce((t, s) => t + s.x, 0) / rings.length;
          const w = whole.h * 2;
          const x = Math.min(Math.max(cx - w / 2, whole.x), whole.x + whole.w - w);
          setBox({ x: x, y: whole.y, w: w, h: whole.h });
        }
      }
      drawKey(keyBox, next.key, colour);
      paint();
    };
    // each layer drawn, by name: what it was drawn from (its shapes, the zoom, the unit and the sides' colours)
    // and its group; a layer a new state left as it was (the ground, the buildings, most men) keeps its group, and
    // only the layers that changed are made anew: on a pupil's Chromebook the whole table was made again each state
    let drawnLayers = new Map();
    function paint() {
      drawnAt = perInch();
      least = 1 / drawnAt;
      const fresh = node("g", { class: "layers" });
      const kept = new Map();
      for (const layer of scene.layers || []) {
        const key = JSON.stringify([drawnAt, unit, sides, layer.shapes || []]);
        const was = drawnLayers.get(layer.name);
        let g = was && was.key === key ? was.g : null;
        if (!g) {
          g = node("g", { class: "layer layer-" + layer.name });
          for (const s of layer.shapes || []) g.appendChild(shapeNode(s));
        }
        kept.set(layer.name, { key: key, g: g });
        fresh.appendChild(g);
      }
      drawnLayers = kept;
      layersRef.replaceWith(fresh);
      layersRef = fresh;
    }
    // whether words beside point x (inches) run to its right: they would not fit in sight to its left (an
    // estimate of their length at font size ``size``), and there is more room to its right
    function rightward(x, words, size) {
      const r = svg.getBoundingClientRect(), a = svgPoint(r.left, r.top), b = svgPoint(r.right, r.top);
      if (!a || !b || !r.width) return !!whole && x - whole.x < whole.w / 4;
      const long = 0.6 * size * String(words).length + 1.2 * size;
      return x - a.x < long && b.x - x > x - a.x;
    }
    // the preview drawn over the table: {path, stop, target, rings: [{x, y, r, title}], ok}
    api.preview = (drawn) => {
      over.textContent = "";
      if (!drawn) return;
      for (const ring of drawn.rings || []) {
        // a man under a wedge or template (ring.id): ringed boldly, never smaller than a marker
        const r = ring.id ? Math.max(ring.r, (minMark + 4) * least) : ring.r;
        const c = node("circle", { class: ring.id ? "p-ring under" + (ring.own ? " own" : "") : "p-ring", cx: fix(ring.x), cy: fix(-ring.y), r: fix(r), "data-under": ring.id });
        if (ring.title) c.appendChild(node("title", {}, ring.title));
        over.appendChild(c);
      }
      // what an order meets: other men's paths (trails), lines of fire, wedges and templates (shapes)
      const pts = (list) => list.map((p) => fix(p[0]) + "," + fix(-p[1])).join(" ");
      for (const trail of drawn.trails || []) over.appendChild(node("polyline", { class: "p-trail", points: pts(trail) }));
      for (const shape of drawn.shapes || []) {
        const g = node("polygon", { class: "p-shape", points: pts(shape.points || []) });
        if (shape.title) g.appendChild(node("title", {}, shape.title));
        over.appendChild(g);
      }
      for (const line of drawn.lines || []) {
        const l = node("line", { class: line.blocked ? "p-line blocked" : "p-line", x1: fix(line.from[0]), y1: fix(-line.from[1]), x2: fix(line.to[0]), y2: fix(-line.to[1]) });
        if (line.title) l.appendChild(node("title", {}, line.title));
        over.appendChild(l);
      }
      if (drawn.path && drawn.path.length) {
        over.appendChild(node("polyline", { class: drawn.ok === false ? "p-path refused" : "p-path", points: drawn.path.map((p) => fix(p[0]) + "," + fix(-p[1])).join(" ") }));
        const end = drawn.path[drawn.path.length - 1];
        over.appendChild(node("circle", { class: "p-end", cx: fix(end[0]), cy: fix(-end[1]), r: fix(Math.max(unit * 0.4, 5 * least)) }));
        const size = Math.max(unit, minText * least);
        const words = drawn.ok === false ? "not allowed" : drawn.length !== undefined && drawn.length !== null
          ? drawn.length.toFixed(1) + '" walked, costs ' + Number(drawn.cost).toFixed(1) + '"' + (drawn.left !== undefined && drawn.left !== null ? ", " + Number(drawn.left).toFixed(1) + '" left' : "")
          : "preview (not given)";
        const left = rightward(end[0], words, size);
        over.appendChild(node("text", { class: "p-label", x: fix(end[0] + (left ? 0.6 : -0.6) * size), y: fix(-end[1] - 1.0 * size), "text-anchor": left ? "start" : "end", "font-size": fix(size) }, words));
      }
      if (drawn.stop) {
        over.appendChild(node("circle", { class: "p-stop", cx: fix(drawn.stop[0]), cy: fix(-drawn.stop[1]), r: fix(Math.max(unit * 0.5, 6 * least)) }));
        if (drawn.target) {
          const size = Math.max(unit, minText * least);
          over.appendChild(node("text", { class: "p-label", x: fix(drawn.stop[0]), y: fix(-drawn.stop[1] + 1.6 * size), "text-anchor": "middle", "font-size": fix(size) }, "attacks " + drawn.target));
        }
      }
    };
    // what the pointer carries (inches): a man picked to act alone (a ring), a drag's ghost from where he
    // stands to the pointer with its straight length; snapBack() sends a refused ghost home and drops it
    let ghost = null;
    api.pick = (man) => {
      for (const old of hand.querySelectorAll(".d-picked")) old.remove();
      if (!man) return;
      const ring = node("circle", { class: "d-picked", cx: fix(man.x), cy: fix(-man.y), r: fix(Math.max(0.9, (minMark + 6) * least)), "data-picked": man.id });
      ring.appendChild(node("title", {}, man.id + " is picked: he acts alone"));
      hand.insertBefore(ring, hand.firstChild);
    };
    api.drag = (from, to, words) => {
      if (ghost) { ghost.remove(); ghost = null; }
      if (!from || !to) return;
      ghost = node("g", { class: "d-ghost", "data-from": fix(from.x) + "," + fix(from.y) });
      ghost.appendChild(node("line", { class: "d-line", x1: fix(from.x), y1: fix(-from.y), x2: fix(to.x), y2: fix(-to.y) }));
      const man = node("g", { class: "d-man" });
      man.appendChild(node("circle", { cx: fix(to.x), cy: fix(-to.y), r: fix(Math.max(0.5, minMark * least)) }));
      const size = Math.max(unit, minText * least);
      const label = words || Math.hypot(to.x - from.x, to.y - from.y).toFixed(1) + '"';
      const left = rightward(to.x, label, size);
      man.appendChild(node("text", { class: "d-label", x: fix(to.x + (left ? 0.8 : -0.8) * size), y: fix(-to.y + 1.6 * size), "text-anchor": left ? "start" : "end", "font-size": fix(size) }, label));
      ghost.appendChild(man);
      hand.appendChild(ghost);
      svg.dataset.dragging = Math.hypot(to.x - from.x, to.y - from.y).toFixed(2);
    };
    api.snapBack = () => {
      delete svg.dataset.dragging;
      if (!ghost) return;
      const g = ghost, from = g.getAttribute("data-from").split(",").map(Number), c = g.querySelector(".d-man circle");
      ghost = null;
      const line = g.querySelector(".d-line");
      if (line) line.remove();
      const dx = from[0] - Number(c.getAttribute("cx")), dy = -from[1] - Number(c.getAttribute("cy"));
      const man = g.querySelector(".d-man");
      man.style.transition = "transform 0.3s ease-in";
      requestAnimationFrame(() => { man.style.transform = "translate(" + fix(dx) + "px," + fix(dy) + "px)"; });
      setTimeout(() => g.remove(), 380);
    };
    // the handle that turns a wedge or template (inches): a line from what it turns about (cx, cy) and a knob
    // at (x, y) that a pointer or a finger drags round; null takes it away
    let knob = null;
    api.handle = (h) => {
      if (knob) { knob.remove(); knob = null; }
      if (!h) { delete svg.dataset.handle; return; }
      knob = node("g", { class: "rotate-handle" });
      knob.appendChild(node("line", { class: "d-turn-line", x1: fix(h.cx), y1: fix(-h.cy), x2: fix(h.x), y2: fix(-h.y) }));
      const r = Math.max(0.45, 12 * least), size = Math.max(unit * 0.9, 15 * least);
      const c = node("circle", { class: "d-turn", cx: fix(h.x), cy: fix(-h.y), r: fix(r) });
      c.appendChild(node("title", {}, "drag round to turn it"));
      knob.appendChild(c);
      knob.appendChild(node("text", { class: "d-turn-glyph", x: fix(h.x), y: fix(-h.y + 0.36 * size), "text-anchor": "middle", "font-size": fix(size) }, "\u21bb"));
      hand.appendChild(knob);
      svg.dataset.handle = fix(h.x) + "," + fix(h.y);
    };
    api.dropGhost = () => { delete svg.dataset.dragging; if (ghost) { ghost.remove(); ghost = null; } };

    // a few lines and buttons beside the pointer (client point), or nothing
    // away (inches, optional): what the order starts from (the unit, the firer): the box goes to the side of the
    // pointer away from it, so that the path or the line of fire between them stays in sight
    api.tip = (clientX, clientY, fill, away) => {
      tip.textContent = "";
      if (!fill) { tip.hidden = true; return; }
      fill(tip);
      tip.hidden = false;
      const r = frame.getBoundingClientRect();
      const w = tip.offsetWidth, h = tip.offsetHeight;
      const from = away ? api.screen(away.x, away.y) : null;
      const x = clientX - r.left, y = clientY - r.top;
      const right = x + 16, leftward = x - w - 16, below = y + 16, above = y - h - 44;  // above: clear of the path's words
      let left = from && from[0] > clientX + 8 && leftward >= 0 ? leftward : right;
      let top = from && from[1] > clientY + 8 && above >= 0 ? above : below;
      if (left + w > r.width) left = Math.max(0, leftward);
      if (top + h > r.height) top = Math.max(0, above);
      tip.style.left = left + "px"; tip.style.top = top + "px";
    };
    api.tipElement = tip;

    // pointers: one finger or the mouse goes to the page (opts.onPointer says whether it took it: a pick);
    // not taken, it pans. Two fingers pinch and pan. The wheel zooms about the pointer.
    const pointers = new Map();
    let pinch = null, panning = null, taken = null;
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const p = svgPoint(e.clientX, e.clientY);
      zoomAt(Math.pow(1.0015, -e.deltaY), p.x, p.y);
    }, { passive: false });
    const hitOf = (e) => {
      const g = e.target && e.target.closest ? e.target.closest("[data-id],[data-of]") : null;  // a mark, or its words
      return g ? g.getAttribute("data-id") || g.getAttribute("data-of") : null;
    };
    svg.addEventListener("pointerdown", (e) => {
      if (e.pointerType === "mouse" && e.button !== 0) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      svg.setPointerCapture(e.pointerId);
      e.preventDefault();
      if (pointers.size === 2) {  // a pinch: whatever the first finger began is dropped
        if (taken && opts.onPointer) opts.onPointer("cancel", null, null, e);
        taken = null; panning = null;
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a.x - b.x, a.y - b.y), mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
        return;
      }
      const at = api.inches(e.clientX, e.clientY);
      if (ruling && at) { rule = { id: e.pointerId, from: at }; drawRule(at, at); return; }
      if (opts.onPointer && opts.onPointer("down", at, hitOf(e), e)) { taken = e.pointerId; return; }
      panning = { id: e.pointerId, x: e.clientX, y: e.clientY };
    });
    svg.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a.x - b.x, a.y - b.y), mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
        const m = svg.getScreenCTM();
        const k = m ? 1 / m.a : 1;  // SVG units per pixel
        panBy(-(mx - pinch.mx) * k, -(my - pinch.my) * k);
        const p = svgPoint(mx, my);
        if (pinch.d > 0 && d > 0) zoomAt(d / pinch.d, p.x, p.y);
        pinch = { d: d, mx: mx, my: my };
        return;
      }
      if (rule && rule.id === e.pointerId) { const at = api.inches(e.clientX, e.clientY); if (at) drawRule(rule.from, at); return; }
      if (taken === e.pointerId && opts.onPointer) { opts.onPointer("move", api.inches(e.clientX, e.clientY), hitOf(e), e); return; }
      if (panning && panning.id === e.pointerId) {
        const m = svg.getScreenCTM();
        const k = m ? 1 / m.a : 1;
        panBy(-(e.clientX - panning.x) * k, -(e.clientY - panning.y) * k);
        panning.x = e.clientX; panning.y = e.clientY;
      }
    });
    const up = (e, cancelled) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (rule && rule.id === e.pointerId) { rule = null; return; }
      if (taken === e.pointerId && opts.onPointer) opts.onPointer(cancelled ? "cancel" : "up", api.inches(e.clientX, e.clientY), hitOf(e), e);
      if (taken === e.pointerId) taken = null;
      if (panning && panning.id === e.pointerId) panning = null;
    };
    svg.addEventListener("pointerup", (e) => up(e, false));
    svg.addEventListener("pointercancel", (e) => up(e, true));
    svg.addEventListener("keydown", (e) => {
      if (!shown) return;
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
      if (step) { panBy((step[0] * shown.w) / 8, (step[1] * shown.h) / 8); e.preventDefault(); return; }
      if (e.key === "+" || e.key === "=") { zoomAt(1.25); e.preventDefault(); }
      else if (e.key === "-" || e.key === "_") { zoomAt(0.8); e.preventDefault(); }
      else if (e.key === "0") { fit(); e.preventDefault(); }
      else if (e.key === "Escape" && opts.onPointer) opts.onPointer("cancel", null, null, e);
    });
    // the table's size changes (the window, the side panel folded away): its marks and words drawn again
    if (window.ResizeObserver) new ResizeObserver(() => { if (scene && drawnAt && Math.abs(perInch() / drawnAt - 1) > 0.02) paint(); }).observe(svg);
    else window.addEventListener("resize", () => { if (scene) paint(); });
    api.fit = fit;
    api.zoomBy = (f) => zoomAt(f);
    api.box = () => (shown ? Object.assign({}, shown) : null);
    return api;
  }

  window.GrognardTable = { create: create, colours: SIDE_COLOURS };
})();
