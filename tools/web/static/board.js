// The map as SVG, drawn from the board JSON: areas at their content positions, borders (a border
// that wraps around the map's edge is drawn as two stubs), Gates with their controllers, units
// stacked by owner and kind, tokens. Clicks are reported through the handlers passed in.
import { nameOf } from "./panels.js";
const NS = "http://www.w3.org/2000/svg";
const SCALE = 1200, PAD = 70, R = 56;

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function wrapName(name) {
  if (name.length <= 11) return [name];
  const words = name.split(" ");
  const lines = [];
  for (const w of words) {
    if (lines.length && (lines[lines.length - 1] + " " + w).length <= 11) lines[lines.length - 1] += " " + w;
    else lines.push(w);
  }
  return lines.slice(0, 3);
}

// a marker's text: the content name, cut with an ellipsis only past `most` letters (the whole name
// is on hover and tap)
function shown(name, most = 16) {
  return name.length <= most ? name : name.slice(0, most - 1).trimEnd() + "\u2026";
}

// the name of what is under the pointer or finger, beside it (SVG titles are hover-only, and slow)
function showTip(ev, text) {
  const tip = document.getElementById("unit-tip");
  if (!tip) return;
  tip.textContent = text;
  tip.hidden = false;
  const x = ev.clientX ?? 0, y = ev.clientY ?? 0;
  tip.style.left = `${Math.min(x + 12, window.innerWidth - tip.offsetWidth - 4)}px`;
  tip.style.top = `${Math.max(4, y - tip.offsetHeight - 10)}px`;
  clearTimeout(showTip.t);
  showTip.t = setTimeout(() => { tip.hidden = true; }, 4000);
}
function hideTip() { const tip = document.getElementById("unit-tip"); if (tip) tip.hidden = true; }

export function drawMap(svg, board, ui) {
  const m = board.map;
  const W = m.width * SCALE + 2 * PAD, H = m.height * SCALE + 2 * PAD;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.innerHTML = "";
  const pos = {};
  for (const a of m.areas) pos[a.id] = [PAD + a.x * SCALE, PAD + a.y * SCALE];
  const colour = Object.fromEntries(board.factions.map((f) => [f.id, f.colour]));
  const edges = el("g", { class: "edges" }, svg);
  for (const [a, b, wrap] of m.edges) {
    const [xa, ya] = pos[a], [xb, yb] = pos[b];
    if (wrap) {
      const [l, r] = xa < xb ? [[xa, ya], [xb, yb]] : [[xb, yb], [xa, ya]];
      const mid = (l[1] + r[1]) / 2;
      el("line", { x1: l[0], y1: l[1], x2: 8, y2: mid, class: "edge wrap" }, edges);
      el("line", { x1: r[0], y1: r[1], x2: W - 8, y2: mid, class: "edge wrap" }, edges);
    } else {
      el("line", { x1: xa, y1: ya, x2: xb, y2: yb, class: "edge" }, edges);
    }
  }
  const byArea = {};
  for (const u of board.units) (byArea[u.loc] ||= []).push(u);
  for (const a of m.areas) {
    const [x, y] = pos[a.id];
    const g = el("g", { class: "area" + (a.ocean ? " ocean" : " land"), "data-area": a.id }, svg);
    if (ui.choosable.has(a.id)) g.classList.add("choosable");
    if (ui.selectedArea === a.id) g.classList.add("selected");
    const battle = board.battle && board.battle.area === a.id;
    if (battle) g.classList.add("battle");
    const shape = a.shape
      ? el("polygon", { points: a.shape.map(([px, py]) => `${PAD + px * SCALE},${PAD + py * SCALE}`).join(" "), class: "blob" }, g)
      : el("circle", { cx: x, cy: y, r: R, class: "blob" }, g);
    el("title", {}, shape).textContent = a.name + (a.glyph ? ` (${a.glyph})` : "") + (battle ? ": a battle is on here" : "");
    if (battle) {
      el("circle", { cx: x, cy: y, r: R + 10, class: "battle-ring" }, g);
      const sw = el("text", { x: x + R * 0.72, y: y - R * 0.62, class: "battle-mark" }, g);
      sw.textContent = "\u2694";
    }
    const lines = wrapName(a.name);
    const label = el("text", { x, y: y - R + 22 - (lines.length - 1) * 6, class: "area-name" }, g);
    lines.forEach((line, i) => { const s = el("tspan", { x, dy: i ? 13 : 0 }, label); s.textContent = line; });
    const gate = board.gates[a.id];
    if (gate) {
      const ring = el("circle", { cx: x - R * 0.74, cy: y + R * 0.64, r: 9, class: "gate" + (gate.owner ? "" : " abandoned") }, g);
      if (gate.owner) ring.setAttribute("style", `stroke:${colour[gate.owner] || "#333"}`);
      el("title", {}, ring).textContent = gate.owner ? `Gate controlled by ${nameOf(board, gate.owner)}` : "abandoned Gate";
    }
    const toks = board.tokens.filter((t) => t.loc === a.id);
    toks.forEach((t, i) => {
      const d = el("rect", { x: x + R - 22 - i * 14, y: y - R + 6, width: 11, height: 11, class: "token", transform: `rotate(45 ${x + R - 16 - i * 14} ${y - R + 12})` }, g);
      if (t.owner) d.setAttribute("style", `fill:${colour[t.owner] || "#999"}`);
      el("title", {}, d).textContent = (t.name || t.id) + (t.owner ? ` (${nameOf(board, t.owner)})` : "");
    });
    g.addEventListener("click", (ev) => { ev.stopPropagation(); ui.onArea(a.id); });
    drawUnits(g, byArea[a.id] || [], x, y, colour, gate, ui);
  }
}

function drawUnits(g, units, x, y, colour, gate, ui) {
  const stacks = new Map();
  for (const u of units) {
    const key = `${u.owner}|${u.kind}`;
    if (!stacks.has(key)) stacks.set(key, { owner: u.owner, ownerName: u.owner_name || u.owner, kind: u.kind, name: u.name, cls: u.cls, ids: [] });
    stacks.get(key).ids.push(u.id);
  }
  const goo = (s) => s.cls === "great-old-one";
  const list = [...stacks.values()].sort((p, q) => (goo(q) - goo(p)) || (p.owner < q.owner ? -1 : p.owner > q.owner ? 1 : 0));
  const gap = 3, maxRow = 2 * R + 36;
  const chips = list.map((s) => {
    const ctrl = gate && s.ids.includes(gate.controller);
    const big = goo(s);
    const text = (s.ids.length > 1 ? `${s.ids.length}\u00d7 ` : "") + (big ? "\u2605 " : "") + shown(s.name) + (ctrl ? " \u25C9" : "");
    const h = big ? 24 : 18, size = big ? 13 : 11.5;
    return { s, ctrl, text, big, h, size, w: Math.max(28, size * 0.6 * text.length + (big ? 16 : 10)) };
  });
  const rows = [[]];
  let used = 0;
  for (const c of chips) {
    if (used && used + gap + c.w > maxRow) { rows.push([]); used = 0; }
    rows[rows.length - 1].push(c);
    used += (used ? gap : 0) + c.w;
  }
  let cy = y - 10;
  for (const row of rows) {
    const total = row.reduce((a, c) => a + c.w, 0) + gap * (row.length - 1);
    const rowH = Math.max(...row.map((c) => c.h));
    let cx = x - total / 2;
    for (const { s, ctrl, text, big, h, size, w } of row) {
      const top = cy + (rowH - h) / 2;
      const chip = el("g", { class: "unit" + (big ? " goo" : ""), "data-units": s.ids.join(","), "data-name": s.name, tabindex: 0 }, g);
      if (s.ids.some((id) => ui.choosableUnits.has(id))) chip.classList.add("choosable");
      el("rect", { x: cx, y: top, width: w, height: h, rx: big ? h / 2 : 4, style: `fill:${colour[s.owner] || "#777"}` }, chip);
      const t = el("text", { x: cx + w / 2, y: top + h / 2 + size * 0.36, style: `font-size:${size}px` }, chip);
      t.textContent = text;
      const said = `${s.ownerName}: ${s.ids.length} \u00d7 ${s.name}` + (big ? " (Great Old One)" : "") + (ctrl ? " (one controls the Gate)" : "");
      el("title", {}, chip).textContent = said;
      chip.addEventListener("mouseenter", (ev) => showTip(ev, said));
      chip.addEventListener("mouseleave", hideTip);
      chip.addEventListener("click", (ev) => { ev.stopPropagation(); showTip(ev, said); ui.onUnits(s.ids, g.dataset.area); });
      cx += w + gap;
    }
    cy += rowH + 2;
  }
}
