// the table editor's hands: what is under the pointer, moving, turning and reshaping an entry of the data, and
// the editor's own drawings over the table (what is picked, its corners, a line or outline being drawn, the
// problems' marks). The entries are the scenario's data as the palette describes it (no rule set named here).
const NS = "http://www.w3.org/2000/svg";
const fix = (v) => Math.round(v * 100) / 100;
export const node = (tag, attrs, text) => {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) n.setAttribute(k, String(v));
  if (text !== undefined && text !== null) n.textContent = String(text);
  return n;
};
const isPoint = (p) => Array.isArray(p) && p.length === 2 && p.every((c) => typeof c === "number" && isFinite(c));

// the geometry of an entry: {key: "shape"|"line"|"at", points: [[x, y], ...]}, or null
export function geometryOf(entry) {
  if (!entry || typeof entry !== "object") return null;
  for (const key of ["shape", "line"]) if (Array.isArray(entry[key]) && entry[key].every(isPoint)) return { key: key, points: entry[key] };
  if (isPoint(entry.at)) return { key: "at", points: [entry.at] };
  if (Array.isArray(entry.figures)) {
    const pts = entry.figures.filter((f) => f && isPoint(f.at)).map((f) => f.at);
    if (pts.length) return { key: "figures", points: pts };
  }
  return null;
}
export function centre(points) {
  if (!points.length) return [0, 0];
  const n = points.length;
  return [points.reduce((t, p) => t + p[0], 0) / n, points.reduce((t, p) => t + p[1], 0) / n];
}
function segDist(p, a, b) {
  const dx = b[0] - a[0], dy = b[1] - a[1], l = dx * dx + dy * dy;
  const t = l ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}
export function nearestOnOutline(p, pts, closed) {  // the point of an outline or line nearest p
  let best = null;
  const n = pts.length, m = closed ? n : n - 1;
  for (let k = 0; k < m; k++) {
    const a = pts[k], b = pts[(k + 1) % n], dx = b[0] - a[0], dy = b[1] - a[1], l = dx * dx + dy * dy;
    const t = l ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l)) : 0;
    const q = [a[0] + t * dx, a[1] + t * dy], d = Math.hypot(p[0] - q[0], p[1] - q[1]);
    if (!best || d < best.d) best = { d: d, at: q };
  }
  return best;
}
function inside(p, pts) {
  let c = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i], b = pts[j];
    if ((a[1] > p[1]) !== (b[1] > p[1]) && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) c = !c;
  }
  return c;
}

// what lies at p (inches): {list, index, fig?, corner?, opening?}: men first, then what stands at a point,
// doors and windows, lines, then areas (the smallest area under the pointer)
export function hitAt(data, palette, p, reach) {
  const r = Math.max(reach, 0.5);
  const units = data[palette.men.list] || [];
  for (let i = units.length - 1; i >= 0; i--) {
    const figs = (units[i] && units[i][palette.men.points]) || [];
    for (let f = 0; f < figs.length; f++) if (figs[f] && isPoint(figs[f].at) && Math.hypot(figs[f].at[0] - p[0], figs[f].at[1] - p[1]) <= r) return { list: palette.men.list, index: i, fig: f };
  }
  for (const m of palette.machines) {
    const items = data[m.list] || [];
    for (let i = items.length - 1; i >= 0; i--) if (items[i] && isPoint(items[i].at) && Math.hypot(items[i].at[0] - p[0], items[i].at[1] - p[1]) <= Math.max(r, 1.5)) return { list: m.list, index: i };
  }
  let area = null;
  for (const list of ["terrain", palette.objective.list]) {
    const items = data[list] || [];
    for (let i = items.length - 1; i >= 0; i--) {
      const e = items[i];
      for (const key of ["doors", "windows"]) {
        for (let k = 0; k < ((e && e[key]) || []).length; k++) {
          const o = e[key][k];
          if (o && isPoint(o.at) && Math.hypot(o.at[0] - p[0], o.at[1] - p[1]) <= Math.max(r, (o.width || 1) / 2)) return { list: list, index: i, opening: [key, k] };
        }
      }
      const g = geometryOf(e);
      if (!g) continue;
      if (g.key === "at" && Math.hypot(g.points[0][0] - p[0], g.points[0][1] - p[1]) <= Math.max(r, 1)) return { list: list, index: i };
      if (g.key === "line") {
        for (let k = 0; k + 1 < g.points.length; k++) if (segDist(p, g.points[k], g.points[k + 1]) <= Math.max(r, (e.width || 1) / 2)) return { list: list, index: i };
      }
      if (g.key === "shape" && g.points.length >= 3 && inside(p, g.points)) {
        const xs = g.points.map((q) => q[0]), ys = g.points.map((q) => q[1]);
        const size = (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
        if (!area || size < area.size) area = { list: list, index: i, size: size };
      }
    }
  }
  return area ? { list: area.list, index: area.index } : null;
}

// every point an entry has (its geometry, its men, its doors and windows, its sections' outlines), to move or
// turn together
function allPoints(entry) {
  const out = [];
  const g = geometryOf(entry);
  if (g && g.key !== "figures") out.push(...g.points);
  for (const f of entry.figures || []) if (f && isPoint(f.at)) out.push(f.at);
  for (const key of ["doors", "windows"]) for (const o of entry[key] || []) if (o && isPoint(o.at)) out.push(o.at);
  for (const s of entry.sections || []) for (const key of ["shape", "line"]) if (Array.isArray(s[key])) out.push(...s[key].filter(isPoint));
  return out;
}
const round2 = (v) => Math.round(v * 100) / 100;
export function moveEntry(entry, dx, dy) {
  for (const p of allPoints(entry)) { p[0] = round2(p[0] + dx); p[1] = round2(p[1] + dy); }
}
export function turnEntry(entry, degrees) {  // about its centre; a machine's heading turns with it
  if (typeof entry.heading === "number") { entry.heading = ((entry.heading + degrees) % 360 + 360) % 360; return; }
  const g = geometryOf(entry);
  if (!g) return;
  const [cx, cy] = centre(g.points);
  const a = (degrees * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  for (const p of allPoints(entry)) {
    const x = p[0] - cx, y = p[1] - cy;
    p[0] = round2(cx + x * c - y * s); p[1] = round2(cy + x * s + y * c);
  }
}

// the editor's drawings over the table: the picked entry's outline and corners, the outline being drawn, the
// keyboard's cross, the problems' numbered marks
export function overlay(svg, perInch) {
  const g = node("g", { class: "ed-over" });
  svg.appendChild(g);
  const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;  // a finger: larger handles
  const px = (n) => (coarse ? 1.6 : 1) * n / Math.max(perInch(), 0.01);
  return {
    draw(state) {
      g.textContent = "";
      const { picked, drawing, cursor, problems } = state;
      if (picked) {
        const pts = picked.points || [];
        if (pts.length > 1) g.appendChild(node(picked.closed ? "polygon" : "polyline", { class: "ed-picked", points: pts.map((p) => fix(p[0]) + "," + fix(-p[1])).join(" "), "stroke-width": fix(px(3)) }));
        pts.forEach((p, k) => {
          const c = node("circle", { class: "ed-corner" + (k === picked.corner ? " on" : ""), cx: fix(p[0]), cy: fix(-p[1]), r: fix(px(k === picked.corner ? 9 : 7)), "data-corner": k, "stroke-width": fix(px(2)) });
          c.appendChild(node("title", {}, picked.single ? "drag to move it" : "corner " + (k + 1) + ": drag to reshape"));
          g.appendChild(c);
        });
      }
      if (drawing && drawing.points.length) {
        const pts = drawing.points.concat(drawing.hover ? [drawing.hover] : []);
        g.appendChild(node(drawing.closed && pts.length > 2 ? "polygon" : "polyline", { class: "ed-drawing", points: pts.map((p) => fix(p[0]) + "," + fix(-p[1])).join(" "), "stroke-width": fix(px(3)) }));
        for (const p of drawing.points) g.appendChild(node("circle", { class: "ed-corner", cx: fix(p[0]), cy: fix(-p[1]), r: fix(px(5)) }));
      }
      if (cursor) {
        const s = px(12);
        g.appendChild(node("path", { class: "ed-cursor", d: `M${fix(cursor[0] - s)} ${fix(-cursor[1])} H${fix(cursor[0] + s)} M${fix(cursor[0])} ${fix(-cursor[1] - s)} V${fix(-cursor[1] + s)}`, "stroke-width": fix(px(2)) }));
      }
      (problems || []).forEach((pr, k) => {
        if (!pr.at) return;
        const m = node("g", { class: "ed-problem", "data-problem": k });
        m.appendChild(node("circle", { cx: fix(pr.at[0]), cy: fix(-pr.at[1]), r: fix(px(11)), "stroke-width": fix(px(3)) }));
        m.appendChild(node("text", { x: fix(pr.at[0]), y: fix(-pr.at[1] + px(5)), "font-size": fix(px(14)), "text-anchor": "middle" }, k + 1));
        m.appendChild(node("title", {}, pr.text));
        g.appendChild(m);
      });
    },
  };
}
