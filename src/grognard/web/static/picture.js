// grognard room pages: the server-made picture of a rule set without a face (static/table.js draws the
// others), with the seat's own units ringed, and the pointer on it
import { $ } from "./page.js";
import { role, S } from "./state.js";
import { choose } from "./orders.js";


// a click on the picture, or a drag across it, fills the point of the shown decision's move form
// (the typed fields are always there too: dragging is never the only way); the preview is asked on
// release. A tap on another unit that owes an order picks that unit's decision instead.
export function pictureHands() {
  const svgBox = $("svg");
  if (!svgBox || role !== "player") return;  // the server picture of a rule set without a face
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
    const k = S.shownDecisions.findIndex((d) => d.id === S.shownId);
    if (!at || k < 0 || !S.pickers[k]) return false;
    S.pickers[k](at.x, at.y, ask);
    return true;
  };
  const unitAt = (e) => {  // the nearest other unit owing an order within its ring, if any
    const at = where(e);
    if (!at) return null;
    let best = null;
    for (const d of S.shownDecisions) {
      if (!d.unit || d.id === S.shownId) continue;
      const far = Math.hypot(at.x - d.unit.x, at.y - d.unit.y);
      if (far <= d.unit.r && (!best || far < best.far)) best = { id: d.id, far };
    }
    return best && best.id;
  };
  svgBox.addEventListener("pointerdown", (e) => {
    if (S.tableView || e.button !== 0) return;
    const other = unitAt(e);
    if (other) { choose(other); e.preventDefault(); return; }
    if (!pick(e, false)) return;
    dragging = true;
    svgBox.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  svgBox.addEventListener("pointermove", (e) => { if (dragging && !S.tableView) pick(e, false); });
  svgBox.addEventListener("pointerup", (e) => { if (dragging) { dragging = false; pick(e, true); } });
  svgBox.addEventListener("pointercancel", () => { dragging = false; });
}
export function showSvg(markup, marks) {
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
