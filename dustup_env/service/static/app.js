// Dustup in the browser: play the AI through the game server's HTTP API, or replay a saved game.
// No build step: plain JavaScript and SVG. The page only ever shows what the server sends for your side.
"use strict";

const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
const SIDE_COLOURS = ["#0072b2", "#d55e00"];  // colour-blind safe (Okabe-Ito blue and vermillion)
const DYNAMIC_COLOURS = { wreck: "#4a4a4a", soft_wreck: "#7a6a5a" };  // terrain placed during the game
const TERRAIN_COLOURS = {  // every terrain type of the scenario schema
  open: "#d8e3c4", light_scrub: "#b7c98a", rough: "#c8b98c", cultivated: "#e3d98f", slopes: "#d6c9a0",
  road: "#cfc6b0", light_woods: "#8fbf6a", dense_woods: "#4f8a3c", swamp: "#8ea88a", open_water: "#6ea6d6",
  river: "#7db3dd", hill: "#d9c08f", building: "#b6927a", ford: "#a9c9e3",
};
const OBSTACLE_COLOURS = { wall: "#6b5f4b", hedge: "#3d6b2f", fence: "#8a7a5a" };
const CONF_SHORT = { confident: "Cf", steady: "St", shaken: "Sh", broken: "Br", routed: "Rt" };

const state = {
  mode: "play",
  info: null,
  game: null,        // {id, token, side}
  current: null,     // the last GET /games/ID answer
  selected: null,    // a unit uid / marker index clicked, to filter the options
  busy: false,
  replay: null,      // {geometry, frames, result, i, timer}
  lastEvents: 0,
  recent: [],        // the events of the last play: their moves and shots are drawn over the table
};

// ------------------------------------------------------------------------------------------------ HTTP
async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (state.game && path.startsWith("/games/")) headers.Authorization = "Bearer " + state.game.token;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: r.statusText }; }
  if (!r.ok) throw new Error((data && data.error) || ("HTTP " + r.status));
  return data;
}

function setStatus(text) { $("status").textContent = text || ""; }

// ------------------------------------------------------------------------------------------------ drawing
function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function drawBoard(geo, units, markers, objectives, decision, hiddenUnits) {
  const svg = $("board");
  const W = geo.table.width, H = geo.table.height;
  const sy = (y) => H - y; // rules: y north (up); SVG: y down
  svg.setAttribute("viewBox", `-1.5 -1.5 ${W + 3} ${H + 3}`);
  svg.innerHTML = "";
  const defs = el("defs", {}, svg);
  const m = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" }, defs);
  el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#111" }, m);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: "#d8e3c4" }, svg);
  // edges: the sides' home edges
  geo.sides.forEach((s, i) => {
    const pos = { south: [W / 2, H + 1.1], north: [W / 2, -0.4], west: [-0.6, H / 2], east: [W + 0.6, H / 2] }[s.home_edge];
    if (pos) el("text", { x: pos[0], y: pos[1], class: "edge-name", fill: SIDE_COLOURS[i] }, svg, `${s.name} (side ${i}) home edge`);
  });
  el("text", { x: W - 1.4, y: 1.6, class: "compass" }, svg, "N\u2191");
  // terrain, obstacles, objectives
  for (const t of geo.terrain) {
    const pts = t.polygon.map((p) => `${p[0]},${sy(p[1])}`).join(" ");
    const poly = el("polygon", { points: pts, class: "terrain", fill: TERRAIN_COLOURS[t.type] || "#bbb", "fill-opacity": 0.85 }, svg);
    el("title", {}, poly, `${t.name || t.type} (${t.type.replace(/_/g, " ")})`);
    const cx = t.polygon.reduce((a, p) => a + p[0], 0) / t.polygon.length;
    const top = Math.max(...t.polygon.map((p) => p[1]));
    el("text", { x: cx, y: sy(top) + 1.0, class: "terrain-name" }, svg, t.name || t.type.replace(/_/g, " "));
  }
  drawFeatures(svg, geo, sy);  // dynamic terrain, table entities, the latest bursts (as your side knows them)
  for (const o of geo.obstacles) {
    const pts = o.line.map((p) => `${p[0]},${sy(p[1])}`).join(" ");
    const pl = el("polyline", { points: pts, class: "obstacle", stroke: OBSTACLE_COLOURS[o.type] || "#555" }, svg);
    el("title", {}, pl, `${o.name || o.type} (${o.type})`);
  }
  (objectives || geo.objectives).forEach((o) => {
    const [x, y] = o.position;
    const held = o.holder === 0 || o.holder === 1 ? SIDE_COLOURS[o.holder] : "#705c12";
    const c = el("circle", { cx: x, cy: sy(y), r: o.radius || 3, class: "objective", stroke: held }, svg);
    el("title", {}, c, `objective ${o.name}: ${o.vp} VP` + (o.holder >= 0 ? `, held by ${geo.sides[o.holder].name}` : ""));
    el("path", { d: `M ${x} ${sy(y) - 0.7} L ${x + 0.2} ${sy(y) - 0.2} L ${x + 0.7} ${sy(y) - 0.2} L ${x + 0.3} ${sy(y) + 0.1} L ${x + 0.45} ${sy(y) + 0.6} L ${x} ${sy(y) + 0.3} L ${x - 0.45} ${sy(y) + 0.6} L ${x - 0.3} ${sy(y) + 0.1} L ${x - 0.7} ${sy(y) - 0.2} L ${x - 0.2} ${sy(y) - 0.2} Z`, fill: held }, svg);
    el("text", { x: x, y: sy(y) + 1.7, class: "objective-name" }, svg, `${o.name} (${o.vp} VP)`);
  });
  // what the pending decision lets you click
  const byUnit = {}, byTarget = {}, byMarker = {};
  const moves = [];
  if (decision) {
    for (const o of decision.options) {
      if (o.unit !== undefined) (byUnit[o.unit] = byUnit[o.unit] || []).push(o);
      if (o.target !== undefined) (byTarget[o.target] = byTarget[o.target] || []).push(o);
      if (o.marker !== undefined) (byMarker[o.marker] = byMarker[o.marker] || []).push(o);
      if (o.point && movePointShown(o)) moves.push(o);
    }
  }
  // markers (hidden units as your side sees them)
  for (const mk of markers || []) {
    const g = el("g", { class: "marker" + (byMarker[mk.index] ? " clickable" : ""), "data-marker": mk.index }, svg);
    el("rect", { x: mk.x - 0.8, y: sy(mk.y) - 0.8, width: 1.6, height: 1.6, rx: 0.2, fill: SIDE_COLOURS[mk.side] }, g);
    el("text", { x: mk.x, y: sy(mk.y) + 0.45 }, g, mk.unit === undefined ? "?" : (mk.unit < 0 ? "D" : "H"));
    el("title", {}, g, `hidden-unit marker ${mk.index}` + (mk.unit === undefined ? " (it may be a dummy)" : (mk.unit < 0 ? " (your dummy)" : " (your hidden unit)")));
    if (byMarker[mk.index]) g.addEventListener("click", () => chooseFrom(byMarker[mk.index], "marker", mk.index));
  }
  // units
  for (const u of units) {
    if (!u.figures.length || u.inbound || u.merged || offTable(u)) continue;
    if (u.carrier !== undefined && u.carrier >= 0) continue;  // mounted: inside its vehicle (listed in its title)
    if (u.vehicle) { drawVehicle(svg, u, byUnit[u.uid] || byTarget[u.uid], sy); continue; }
    const clickable = byUnit[u.uid] || byTarget[u.uid];
    const g = el("g", { class: "unit" + (clickable ? " clickable" : "") + (state.selected === "u" + u.uid ? " selected" : ""), "data-uid": u.uid, "data-name": u.name }, svg);
    const xs = u.figures.map((f) => f.x), ys = u.figures.map((f) => f.y);
    const x0 = Math.min(...xs) - 0.9, x1 = Math.max(...xs) + 0.9, y0 = Math.min(...ys) - 0.9, y1 = Math.max(...ys) + 0.9;
    el("rect", { x: x0, y: sy(y1), width: x1 - x0, height: y1 - y0, rx: 0.6, class: "unit-hit" }, g);
    for (const b of u.left_behind || []) el("circle", { cx: b.x, cy: sy(b.y), r: 0.35, class: "left-behind" }, svg);
    for (const f of u.figures) {
      const c = el("circle", { cx: f.x, cy: sy(f.y), r: 0.5, fill: SIDE_COLOURS[u.side], class: "fig " + f.status + (f.leader ? " leader" : "") }, g);
      el("title", {}, c, `${u.name}: ${f.weapon.replace(/_/g, " ")}` + (f.leader ? " (leader)" : "") + (f.status !== "ok" ? ` (${f.status})` : ""));
    }
    let top = sy(Math.max(...ys)) - 1.0;  // the name and badges above the figures (below them at the north edge)
    if (top - 1.9 < -1.2) top = sy(Math.min(...ys)) + 2.9;
    el("text", { x: u.x, y: top - 0.9, class: "unit-label", fill: SIDE_COLOURS[u.side], "text-anchor": "middle" }, g, u.name);
    const badges = [];
    if (u.suppression) badges.push("S" + u.suppression);
    badges.push(CONF_SHORT[u.confidence] || u.confidence);
    if (u.activated) badges.push("\u2713");
    if (u.propped) badges.push("P");
    if (u.concealed) badges.push("C");
    if (u.hidden) badges.push("H");
    if (u.panicked) badges.push("!");
    if (u.travel) badges.push("col");
    if (u.heavy_weapon) badges.push(heavyBadge(u.heavy_weapon));
    el("text", { x: u.x, y: top + 0.05, class: "unit-status", "text-anchor": "middle" }, g, badges.join(" "));
    el("title", {}, g, unitTitle(u));
    if (clickable) g.addEventListener("click", () => chooseFrom(clickable, "u", u.uid));
  }
  // move points of the acting unit
  const acting = decision && decision.unit >= 0 ? units.find((u) => u.uid === decision.unit) : null;
  for (const o of moves) {
    const [px, py] = o.point;
    const cx = Math.max(0, Math.min(W, px)), cy = Math.max(0, Math.min(H, py));
    if (acting) el("line", { x1: acting.x, y1: sy(acting.y), x2: cx, y2: sy(cy), class: "moveline" }, svg);
    const move = isMoveOption(o) || o.option[0] === "shift";
    const c = el("circle", { cx: cx, cy: sy(cy), r: 0.45, class: "movept" + (move ? "" : " pointopt"), "data-kind": o.option[0], "data-option": JSON.stringify(o.option) }, svg);
    el("title", {}, c, o.label + (o.odds_text ? `: ${o.odds_text}` : ""));
    c.addEventListener("click", () => play(o.option));
  }
  $("legend").textContent = legendText(geo, hiddenUnits, units);
  featureLegend(geo);
  state.drawn = { geo, units, markers: markers || [], objectives: objectives || geo.objectives, hidden: hiddenUnits || [] };
}

// a vehicle, mech or large creature: a hull to scale (its footprint: length 2r, width 1.3r) turned to its facing,
// with a wedge at the front; badges for damage, immobilised, hatches, passengers and suppression
function drawVehicle(svg, u, clickable, sy) {
  const v = u.vehicle;
  const r = v.footprint || 1.5, w = r * 1.3;
  const g = el("g", { class: "unit vehicle" + (clickable ? " clickable" : "") + (state.selected === "u" + u.uid ? " selected" : "") + (u.in_play ? "" : " out"),
    "data-uid": u.uid, "data-name": u.name, "data-facing": v.facing }, svg);
  if (u.air) {  // an aircraft on the table: its flight state; a dashed ring while it flies (airborne or hovering)
    g.classList.add("aircraft");
    g.setAttribute("data-kind", "aircraft");
    g.setAttribute("data-mode", u.air.mode);
    if (u.air.mode !== "grounded") el("circle", { cx: u.x, cy: sy(u.y), r: r + 0.9, class: "air-ring" }, g);
  }
  const hull = el("g", { transform: `translate(${u.x} ${sy(u.y)}) rotate(${v.facing})` }, g);
  const shape = v.kind === "mech" || v.kind === "large_creature"
    ? el("ellipse", { cx: 0, cy: 0, rx: w / 2, ry: r, class: "hull" + (v.damage ? " damaged" : ""), fill: SIDE_COLOURS[u.side] }, hull)
    : el("rect", { x: -w / 2, y: -r, width: w, height: 2 * r, rx: 0.25, class: "hull" + (v.damage ? " damaged" : ""), fill: SIDE_COLOURS[u.side] }, hull);
  shape.setAttribute("data-kind", v.kind);
  el("path", { d: `M ${-w / 2} ${-r + 0.9} L 0 ${-r - 0.5} L ${w / 2} ${-r + 0.9} Z`, class: "hull-front" }, hull);
  if (v.weapons.length) el("line", { x1: 0, y1: 0, x2: 0, y2: -r - 0.2, class: "gun" }, hull);
  const top = sy(u.y) - r - 1.2;
  el("text", { x: u.x, y: top - 0.9, class: "unit-label", fill: SIDE_COLOURS[u.side], "text-anchor": "middle" }, g, u.name);
  el("text", { x: u.x, y: top + 0.05, class: "unit-status", "text-anchor": "middle" }, g, vehicleBadges(u).join(" "));
  el("title", {}, g, vehicleTitle(u));
  if (clickable) g.addEventListener("click", () => chooseFrom(clickable, "u", u.uid));
}

function vehicleBadges(u) {
  const v = u.vehicle, b = [];
  if (u.air) b.push({ airborne: "A", hovering: "H", grounded: "G" }[u.air.mode] || u.air.mode);
  if (v.damage) b.push("D" + v.damage);
  if (v.immobilised) b.push("Imm");
  if (u.suppression) b.push("S" + u.suppression);
  if (v.hatches) b.push(v.opened_up ? "open" : "closed");
  if (v.passengers && v.passengers.length) b.push("+" + v.passengers.length);
  if (v.towing >= 0) b.push("tow");
  if (u.activated) b.push("\u2713");
  if (u.heavy_weapon) b.push(heavyBadge(u.heavy_weapon));
  if (!u.in_play) b.push("wreck");
  return b;
}

function heavyBadge(h) {
  const st = { "set up": "HW", dismantled: "HW-dism", limbered: "HW-limb" }[h.state] || "HW";
  return st + (h.damage !== "working" ? "-" + h.damage.slice(0, 3) : "") + (h.fired ? "*" : "");
}

function vehicleTitle(u) {
  const v = u.vehicle;
  const compass = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"][Math.round(((v.facing % 360) + 360) % 360 / 22.5) % 16];
  const parts = [`${u.name} (${v.design}, ${v.kind.replace(/_/g, " ")}, size ${v.size}): quality ${u.quality.toUpperCase()}, ${u.confidence}`,
    u.air ? `aircraft (${u.air.type}): ${u.air.mode}` : "",
    `facing ${compass} (${Math.round(v.facing)}\u00b0)`,
    `armour front ${v.armour.front.toUpperCase()}, side ${v.armour.side.toUpperCase()}, rear ${v.armour.rear.toUpperCase()}, top ${v.armour.top.toUpperCase()}`,
    `${v.damage} damage marker(s)` + (v.immobilised ? ", immobilised" : ""), `ECM ${String(v.ecm).toUpperCase()}` + (v.decoy ? `, decoy ${v.decoy.toUpperCase()}` : "") + (v.area_protection ? `, area protection ${v.area_protection.toUpperCase()}` : "")];
  if (u.suppression) parts.push(`${u.suppression} suppression marker(s)`);
  if (v.hatches) parts.push(v.opened_up ? "opened up" : "closed down");
  for (const w of v.weapons) parts.push(`weapon ${w.slot + 1}: ${w.name} (${w.arc.replace(/_/g, " ")})` + (w.fired ? ": fired" : ": ready"));
  if (v.passengers) parts.push(v.passengers.length ? "carries " + v.passengers.map((p) => p.name).join(", ") : (v.transport ? "no passengers" : ""));
  if (u.activated) parts.push("activated this turn");
  if (!u.in_play) parts.push("out of play");
  return parts.filter((x) => x).join("\n");
}

// moves (dashed arrows) and shots (red arrows) of the events just seen, over the table
function drawTrails(events, units, H) {
  const svg = $("board");
  const at = {};
  for (const u of units) at[u.uid] = [u.x, u.y];
  for (const e of events || []) {
    if ((e.type === "Moved" || e.type === "ContactMove" || e.type === "Pursued" || e.type === "AircraftFlew") && e.start && e.end) {
      el("line", { x1: e.start[0], y1: H - e.start[1], x2: e.end[0], y2: H - e.end[1], class: "trail" }, svg);
    } else if ((e.type === "ShotResolved" || e.type === "StrikeResolved") && at[e.unit ?? e.striker] && at[e.target]) {
      const [x1, y1] = at[e.unit ?? e.striker], [x2, y2] = at[e.target];
      const ln = el("line", { x1, y1: H - y1, x2, y2: H - y2, class: "shot" }, svg);
      el("title", {}, ln, e.text);
    }
  }
  finishBoard();
}

// ---- what the table shows beyond the units: dynamic terrain (smoke, fire, rubble, wrecks), table entities (target
// markers real and dummy alike, minefields, buildings, drones) and the latest bursts, each drawn by its kind's style
// (the view's feature_styles); a kind without a style: a dashed outline labelled with the kind
const OFF_TABLE = { loiter: "loiter box", air_inbound: "inbound track", air_base: "returned to base" };
const FALLBACK_STYLE = { fill: null, stroke: "#404040", dash: true, glyph: "none", opacity: 1 };

function offTable(u) { return u.location !== undefined && u.location !== "table"; }

function featureStyle(geo, name, kind) {
  const st = (geo.feature_styles || {})[name];
  return st || { ...FALLBACK_STYLE, label: kind.replace(/_/g, " "), legend: kind.replace(/_/g, " "), name: kind };
}

function shapeEl(parent, f, sy, look, cls) {  // a circle or a polygon (absolute points) in the kind's look
  const attrs = { class: cls, fill: look.fill || "none", "fill-opacity": look.fill ? (look.opacity ?? 1) : 0, stroke: look.stroke || "#404040" };
  if (look.dash) attrs["stroke-dasharray"] = ".5 .3";
  if (f.r !== undefined) return el("circle", { cx: f.x, cy: sy(f.y), r: f.r, ...attrs }, parent);
  return el("polygon", { points: f.points.map((p) => `${p[0]},${sy(p[1])}`).join(" "), ...attrs }, parent);
}

function glyph(parent, kind, x, y, colour) {
  const s = 0.7;
  if (kind === "cross") {
    el("circle", { cx: x, cy: y, r: s, class: "glyph", stroke: colour }, parent);
    el("path", { d: `M ${x - s * 1.5} ${y} L ${x + s * 1.5} ${y} M ${x} ${y - s * 1.5} L ${x} ${y + s * 1.5}`, class: "glyph", stroke: colour }, parent);
  } else if (kind === "diamond") {
    el("path", { d: `M ${x} ${y - s} L ${x + s} ${y} L ${x} ${y + s} L ${x - s} ${y} Z`, class: "glyph solid", stroke: "#111", fill: colour }, parent);
  } else if (kind === "x") {
    el("path", { d: `M ${x - s} ${y - s} L ${x + s} ${y + s} M ${x - s} ${y + s} L ${x + s} ${y - s}`, class: "glyph", stroke: colour }, parent);
  } else if (kind === "star") {
    const pts = [];
    for (let k = 0; k < 16; k++) { const a = Math.PI * k / 8, r = k % 2 ? s * 0.45 : s * 1.1; pts.push(`${x + r * Math.sin(a)},${y - r * Math.cos(a)}`); }
    el("polygon", { points: pts.join(" "), class: "glyph solid", stroke: "#7a2e00", fill: "#ffd400" }, parent);
  } else {
    el("circle", { cx: x, cy: y, r: 0.25, class: "glyph solid", stroke: "#111", fill: colour }, parent);
  }
}

function stateText(state) {  // an entity's state as its side knows it (a building's damage, a drone's altitude...)
  return Object.entries(state || {}).filter(([k]) => k !== "mission").map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ");
}

function drawFeatures(svg, geo, sy) {
  const layer = el("g", { class: "features" }, svg);
  for (const f of geo.dynamic_terrain || []) {  // terrain placed during the game
    const look = featureStyle(geo, f.style || f.kind, f.kind);
    const g = el("g", { class: "feature terrain-feature", "data-kind": f.kind, "data-style": look.name }, layer);
    if (!look.fill && !geo.feature_styles) look.fill = DYNAMIC_COLOURS[f.kind] || "#6b6b6b";
    shapeEl(g, f, sy, look, "dynamic-terrain");
    el("title", {}, g, f.kind.replace(/_/g, " "));
    if (look.label) {
      const [cx, cy] = f.r !== undefined ? [f.x, f.y] : [f.points.reduce((a, p) => a + p[0], 0) / f.points.length, f.points.reduce((a, p) => a + p[1], 0) / f.points.length];
      el("text", { x: cx, y: sy(cy) + 0.3, class: "feature-label" }, g, look.label);
    }
  }
  for (const e of geo.entities || []) {  // table entities your side knows of
    const look = featureStyle(geo, e.style || e.kind, e.kind);
    const colour = e.owner === 0 || e.owner === 1 ? SIDE_COLOURS[e.owner] : (look.stroke || "#404040");
    const g = el("g", { class: "feature entity", "data-kind": e.kind, "data-style": look.name, "data-ref": e.ref, "data-owner": e.owner }, layer);
    if (e.shape && e.shape.shape === "circle") shapeEl(g, { x: e.x, y: e.y, r: e.shape.r }, sy, look, "entity-area");
    else if (e.shape && e.shape.shape === "polygon") shapeEl(g, { points: e.shape.points.map((p) => [e.x + p[0], e.y + p[1]]) }, sy, look, "entity-area");
    glyph(g, look.glyph, e.x, sy(e.y), colour);
    const extra = stateText(e.state);
    const label = (look.label || e.kind.replace(/_/g, " ")) + (extra && e.state && e.state.damage !== undefined ? ` (damage ${e.state.damage})` : "");
    el("text", { x: e.x, y: sy(e.y) - 1.0, class: "feature-label", fill: colour }, g, label);
    const owner = e.owner === 0 || e.owner === 1 ? (geo.sides[e.owner] || {}).name : null;
    el("title", {}, g, `${e.kind.replace(/_/g, " ")}` + (owner ? ` of ${owner}` : "") + (extra ? `: ${extra}` : "") +
      (e.kind === "fire_target" ? " (a target marker: real or dummy, they look the same until the impact)" : ""));
  }
  for (const b of geo.bursts || []) {  // the rounds and bombs that landed this turn and the last
    const look = featureStyle(geo, "burst", "burst");
    const g = el("g", { class: "feature burst" + (b.age ? " old" : ""), "data-kind": "burst", "data-ammo": b.ammo }, layer);
    if (b.origin) {
      el("line", { x1: b.origin[0], y1: sy(b.origin[1]), x2: b.x, y2: sy(b.y), class: "scatter" }, g);
      el("path", { d: `M ${b.origin[0] - 0.4} ${sy(b.origin[1]) - 0.4} L ${b.origin[0] + 0.4} ${sy(b.origin[1]) + 0.4} M ${b.origin[0] - 0.4} ${sy(b.origin[1]) + 0.4} L ${b.origin[0] + 0.4} ${sy(b.origin[1]) - 0.4}`, class: "scatter-aim" }, g);
    }
    shapeEl(g, b, sy, look, "burst-area");
    glyph(g, "star", b.x, sy(b.y), "#ffd400");
    el("title", {}, g, `${b.ammo.replace(/_/g, " ")} ${b.ammo === "bomb" ? "" : "round "}landed` + (b.origin ? `, scattered ${Math.hypot(b.x - b.origin[0], b.y - b.origin[1]).toFixed(1)}${lenMark()}` : b.ammo === "bomb" ? "" : " on target") +
      `, blast radius ${b.r}${lenMark()}` + (b.age ? " (last turn)" : ""));
  }
}

// the legend's lines for the kinds this game may draw beyond its units (rebuilt only when they change)
function featureLegend(geo) {
  const looks = Object.values(geo.feature_styles || {});
  const key = looks.map((l) => l.name).join(",");
  let box = $("legend-features");
  if (!box) {
    box = document.createElement("div");
    box.id = "legend-features";
    $("legend").parentNode.insertBefore(box, $("legend"));
  }
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.innerHTML = "";
  for (const l of looks) {
    const sp = document.createElement("span");
    sp.dataset.kind = l.name;
    const sw = document.createElementNS(SVGNS, "svg");
    sw.setAttribute("viewBox", "-1.2 -1.2 2.4 2.4");
    sw.setAttribute("class", "legend-swatch");
    if (l.fill) el("circle", { cx: 0, cy: 0, r: 1, fill: l.fill, "fill-opacity": l.opacity ?? 1, stroke: l.stroke || "#404040", "stroke-width": 0.15, "stroke-dasharray": l.dash ? ".4 .25" : "none" }, sw);
    else if (l.name === "aircraft") el("circle", { cx: 0, cy: 0, r: 1, fill: "none", stroke: "#202020", "stroke-width": 0.15, "stroke-dasharray": ".4 .25" }, sw);
    if (l.glyph && l.glyph !== "none") glyph(sw, l.glyph, 0, 0, l.glyph === "star" ? "#ffd400" : (l.stroke || "#404040"));
    sp.appendChild(sw);
    sp.appendChild(document.createTextNode(l.legend || l.name));
    box.appendChild(sp);
  }
  box.hidden = !looks.length;
}

function unitTitle(u) {
  const parts = [`${u.name} (${u.kind}): quality ${u.quality.toUpperCase()}, leadership ${u.lv}, ${u.confidence}`,
    `${u.able} of ${u.strength} figures able`, `movement ${u.movement.toUpperCase()}, armour ${u.armour.replace(/_/g, " ")}`];
  if (u.suppression) parts.push(`${u.suppression} suppression marker(s)`);
  if (u.activated) parts.push("activated this turn");
  if (u.propped) parts.push("propped");
  if (u.concealed) parts.push("in complete concealment");
  if (u.hidden) parts.push("hidden (the enemy sees only a marker)");
  if (!u.in_play) parts.push("out of play");
  return parts.join("\n");
}

function legendText(geo, hidden, units) {
  let s = `Table ${geo.table.width}\u00d7${geo.table.height} ${geo.table.length === "cm" ? "cm" : "inches"}. ` +
    "Badges: S = suppression markers, Cf/St/Sh/Br/Rt = confidence, \u2713 = activated, P = propped, C = complete concealment, H = hidden, ! = panicked. " +
    "Squares are hidden-unit markers (? = unknown to you).";
  if ((units || []).some((u) => u.vehicle))  // (the units drawn: a replay's, not the last game played)
    s += " Vehicles are drawn to scale, the wedge at the front: D = damage markers, Imm = immobilised, open/closed = hatches, +N = passengers (your own), HW = heavy weapon.";
  if (hidden && hidden.length) s += " Enemy units hidden from you: " + hidden.map((h) => h.name).join(", ") + ".";
  const off = (units || []).filter((u) => offTable(u) && u.figures.length && !u.merged);
  if (off.length) s += " Off the table: " + off.map((u) => `${u.name} (${OFF_TABLE[u.location] || u.location.replace(/_/g, " ")})`).join(", ") + ".";
  return s;
}

// ------------------------------------------------------------------------------------------------ options
function renderOptions(decision, filter) {
  const ol = $("options");
  ol.innerHTML = "";
  if (!decision) return;
  const all = filter || decision.options;
  // vehicle and heavy-weapon decisions listed after the others, under their own heading
  const veh = all.filter((o) => o.group === "vehicle");
  const opts = all.filter((o) => o.group !== "vehicle");
  if (veh.length) {
    const h = document.createElement("li");
    h.className = "group-heading";
    h.textContent = "Vehicles and heavy weapons";
    opts.push(h);
    for (const o of veh) opts.push(o);
  }
  renderMovePicker(decision, opts);  // the moves: a compass picker instead of one row per move
  opts.splice(0, opts.length, ...opts.filter((o) => o instanceof HTMLElement || !isMoveOption(o)));
  opts.forEach((o) => {
    if (o instanceof HTMLElement) { ol.appendChild(o); return; }
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = o.label;
    b.dataset.option = JSON.stringify(o.option);
    b.addEventListener("click", () => play(o.option));
    b.addEventListener("mouseenter", () => highlightPoint(o.option, true));
    b.addEventListener("mouseleave", () => highlightPoint(o.option, false));
    decorateOption(b, o);
    li.appendChild(b);
    ol.appendChild(li);
  });
  $("show-all").hidden = !filter;
}

function highlightPoint(option, on) {
  const key = JSON.stringify(option);
  for (const c of document.querySelectorAll(".movept")) if (c.dataset.option === key) c.style.fill = on ? "#ffd400" : "";
}

function chooseFrom(options, kind, id) {
  if (state.busy) return;
  if (options.length === 1) { play(options[0].option); return; }
  state.selected = kind + id;
  renderOptions(state.current.decision, options);
  redrawCurrent();
}

// ------------------------------------------------------------------------------------------------ playing
function logLines(events, cls) {
  const ol = $("log");
  for (const e of events) {
    const li = document.createElement("li");
    li.textContent = e.text;
    if (e.type === "TurnStarted") li.className = "turn";
    if (cls) li.classList.add(cls);
    markEvent(li, e);
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

function logNote(text, cls) {
  const li = document.createElement("li");
  li.textContent = text;
  li.className = cls || "mine";
  $("log").appendChild(li);
  $("log").scrollTop = $("log").scrollHeight;
}

async function newGame() {
  const body = { scenario: $("scenario").value, side: Number($("side").value), ai: $("ai").value };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  setStatus("starting\u2026");
  try {
    const g = await api("POST", "/games", body);
    state.game = { id: g.game, token: g.token, side: g.side };
    localStorage.setItem("dustup-game", JSON.stringify(state.game));
    $("log").innerHTML = "";
    state.lastEvents = 0;
    state.recent = [];
    state.zoom = null;
    state.panelUid = null;
    await refresh(true);
    setStatus("");
  } catch (e) { setStatus(e.message); }
}

async function resumeGame() {
  const saved = JSON.parse(localStorage.getItem("dustup-game") || "null");
  if (!saved) return;
  state.game = saved;
  state.recent = [];
  $("log").innerHTML = "";
  state.lastEvents = 0;
  try { await refresh(true); syncSetup(); setStatus(""); } catch (e) { setStatus(e.message); localStorage.removeItem("dustup-game"); }
}

async function refresh(withLog) {
  const st = await api("GET", "/games/" + state.game.id);
  // the log first: nothing else may draw this state (the odds, sight and reach answers it asks for below) before
  // the caller's own render and what it does right after (the set-up bar of a resumed game)
  const ev = withLog ? await api("GET", `/games/${state.game.id}/events?since=${state.lastEvents}`) : null;
  state.current = st;
  state.selected = null;
  insightNewDecision(st);
  if (ev) {
    logLines(ev.events);
    state.lastEvents = ev.next;
  }
  render();
}

function redrawCurrent() {
  const st = state.current;
  drawBoard(st.view, st.view.units, st.view.markers, st.view.objectives, st.decision, st.view.hidden_units);
  drawTrails(state.recent, st.view.units, st.view.table.height);
  drawInsight(st);
}

function render() {
  const st = state.current;
  document.body.dataset.renders = String(Number(document.body.dataset.renders || 0) + 1);
  redrawCurrent();
  const names = st.view.sides.map((s) => s.name);
  const turn = `Turn ${st.view.turn} of ${st.view.turn_limit}`;
  const score = `score ${names[0]} ${st.view.score[0]} \u2013 ${st.view.score[1]} ${names[1]}` + (st.view.score_exact ? "" : " (as far as you know)");
  if (st.over) {
    const r = st.result;
    $("prompt").textContent = `${turn}. Game over.`;
    $("result").hidden = false;
    $("result").textContent = (r.winner_name ? `${r.winner_name} wins` : "A draw") + ` ${r.vp[0]}\u2013${r.vp[1]} (${r.reason}); you played ${names[st.side]}.`;
  } else {
    $("result").hidden = true;
    const d = st.decision;
    $("prompt").textContent = d ? `${turn}, ${score}. ${d.prompt}` + (d.actions_left ? ` (${d.actions_left} action${d.actions_left > 1 ? "s" : ""} left)` : "")
      : `${turn}, ${score}. Waiting for ${names[st.waiting_for]}\u2026`;
  }
  renderOptions(st.decision);
  $("hint").hidden = !st.decision;
  $("download-save").hidden = !st.over;
  $("replay-this").hidden = !st.over;
}

async function play(option) {
  if (state.busy || !state.current || !state.current.decision) return;
  state.busy = true;
  const o = state.current.decision.options.find((x) => JSON.stringify(x.option) === JSON.stringify(option));
  logNote("You: " + (state.current.decision.unit_name ? state.current.decision.unit_name + ": " : "") + (o ? o.label : JSON.stringify(option)));
  setStatus("the AI is thinking\u2026");
  try {
    const r = await api("POST", `/games/${state.game.id}/play`, { option });
    state.recent = r.events;
    logLines(r.events);
    state.lastEvents = r.next;
    await refresh(false);
    setStatus("");
  } catch (e) {
    setStatus(e.message);
  } finally {
    state.busy = false;
  }
}

async function hint() {
  try {
    const h = await api("POST", `/games/${state.game.id}/hint`, { time_ms: 1500 });
    renderOptions(state.current.decision);
    const key = JSON.stringify(h.option);
    if (isMoveOption(h) && insight.moveDist !== h.option[2]) {  // a move: its distance chosen in the move picker
      insight.moveDist = h.option[2];
      renderMovePicker(state.current.decision, state.current.decision.options);
      redrawCurrent();
    }
    for (const b of document.querySelectorAll("#options button, #move-picker .compass-btn")) if (b.dataset.option === key) { b.classList.add("hinted"); b.scrollIntoView({ block: "nearest" }); }
    setStatus(`hint (${h.agent}): ${h.label}`);
  } catch (e) { setStatus(e.message); }
}

async function downloadSave() {
  try {
    const save = await api("GET", `/games/${state.game.id}/save`);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([JSON.stringify(save)], { type: "application/json" }));
    a.download = `dustup-${state.game.id}.json`;
    a.click();
  } catch (e) { setStatus(e.message); }
}

async function replayThis() {
  try {
    const save = await api("GET", `/games/${state.game.id}/save`);
    switchMode("replay");
    await startReplay(save);
  } catch (e) { setStatus(e.message); }
}

// ------------------------------------------------------------------------------------------------ replay
async function startReplay(save) {
  setStatus("replaying\u2026");
  const rep = await api("POST", "/replay", { save });
  stopAuto();
  state.replay = { ...rep, i: 0, timer: null };
  $("rp-slider").max = rep.frames.length - 1;
  showFrame(0);
  setStatus("");
}

function showFrame(i) {
  const rp = state.replay;
  if (!rp) return;
  i = Math.max(0, Math.min(rp.frames.length - 1, i));
  rp.i = i;
  const f = rp.frames[i];
  const objectives = rp.geometry.objectives.map((o, k) => ({ ...o, holder: f.holders[k] }));
  drawBoard({ ...rp.geometry, dynamic_terrain: f.dynamic_terrain || [], entities: f.entities || [], bursts: f.bursts || [],
    feature_styles: f.feature_styles }, f.units, f.markers, objectives, null, []);
  drawTrails(f.events, f.units, rp.geometry.table.height);
  $("rp-slider").value = i;
  $("rp-pos").textContent = `decision ${i} of ${rp.frames.length - 1}`;
  const names = rp.geometry.sides.map((s) => s.name);
  $("prompt").textContent = (i === 0 ? "The start of the game." : `Decision ${i}: ${f.label}.`) +
    ` Turn ${f.turn}, score ${names[0]} ${f.score[0]} \u2013 ${f.score[1]} ${names[1]}.`;
  document.body.dataset.frame = String(i);
  $("options").innerHTML = "";
  $("result").hidden = !(i === rp.frames.length - 1 && rp.result);
  if (rp.result) $("result").textContent = (rp.result.winner_name ? `${rp.result.winner_name} wins` : "A draw") + ` ${rp.result.vp[0]}\u2013${rp.result.vp[1]} (${rp.result.reason}).`;
  // the log: every event up to this frame, this frame's events highlighted
  const ol = $("log");
  ol.innerHTML = "";
  let cur = null;
  rp.frames.forEach((fr, k) => {
    if (k > i + 40) return;
    if (fr.label) {
      const li = document.createElement("li");
      li.textContent = fr.label;
      li.className = "decision" + (k > i ? " later" : "") + (k === i ? " current" : "");
      if (k === i) cur = li;
      ol.appendChild(li);
    }
    for (const e of fr.events) {
      const li = document.createElement("li");
      li.textContent = e.text;
      li.className = (e.type === "TurnStarted" ? "turn " : "") + (k === i ? "current" : (k > i ? "later" : ""));
      markEvent(li, e);
      if (k === i && !cur) cur = li;
      ol.appendChild(li);
    }
  });
  if (cur) cur.scrollIntoView({ block: "center" });
}

function stopAuto() {
  if (state.replay && state.replay.timer) { clearInterval(state.replay.timer); state.replay.timer = null; }
  $("rp-play").textContent = "\u25B6\uFE0E play";
}

function toggleAuto() {
  const rp = state.replay;
  if (!rp) return;
  if (rp.timer) { stopAuto(); return; }
  $("rp-play").textContent = "\u23F8\uFE0E pause";
  rp.timer = setInterval(() => { if (rp.i >= rp.frames.length - 1) stopAuto(); else showFrame(rp.i + 1); }, 450);
}

// ------------------------------------------------------------------------------------------------ modes
function switchMode(mode) {
  state.mode = mode;
  $("tab-play").classList.toggle("active", mode === "play");
  $("tab-replay").classList.toggle("active", mode === "replay");
  $("setup-play").hidden = mode !== "play";
  $("setup-replay").hidden = mode !== "replay";
  $("decision-tools").hidden = mode !== "play";
  stopAuto();
  $("log").innerHTML = "";
  $("options").innerHTML = "";
  $("result").hidden = true;
  $("prompt").textContent = "";
  if (mode === "play" && state.game) resumeGame();
  if (mode === "replay" && state.replay) showFrame(state.replay.i);
  if (mode === "replay" && !state.replay) $("prompt").textContent = "Choose a save file (dustup play --save FILE, or \u201cDownload the save\u201d after a game).";
}

function sideNames() {
  const scn = state.info.scenarios.find((s) => s.name === $("scenario").value);
  if (!scn) return;
  [...$("side").options].forEach((o, i) => { o.textContent = `${scn.sides[i]} (side ${i})`; });
}

async function init() {
  $("tab-play").addEventListener("click", () => switchMode("play"));
  $("tab-replay").addEventListener("click", () => switchMode("replay"));
  $("new-game").addEventListener("click", newGame);
  $("resume-game").addEventListener("click", resumeGame);
  $("hint").addEventListener("click", hint);
  $("show-all").addEventListener("click", () => { state.selected = null; renderOptions(state.current.decision); redrawCurrent(); });
  $("download-save").addEventListener("click", downloadSave);
  $("replay-this").addEventListener("click", replayThis);
  initInsight();
  $("save-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    try { await startReplay(JSON.parse(await file.text())); } catch (e) { setStatus("cannot replay: " + e.message); }
  });
  $("rp-first").addEventListener("click", () => showFrame(0));
  $("rp-prev").addEventListener("click", () => showFrame(state.replay.i - 1));
  $("rp-next").addEventListener("click", () => showFrame(state.replay.i + 1));
  $("rp-last").addEventListener("click", () => showFrame(state.replay.frames.length - 1));
  $("rp-play").addEventListener("click", toggleAuto);
  $("rp-slider").addEventListener("input", (e) => showFrame(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (state.mode !== "replay" || !state.replay || e.shiftKey || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") showFrame(state.replay.i + 1);
    else if (e.key === "ArrowLeft") showFrame(state.replay.i - 1);
    else if (e.key === "Home") showFrame(0);
    else if (e.key === "End") showFrame(state.replay.frames.length - 1);
    else if (e.key === " ") { e.preventDefault(); toggleAuto(); }
  });
  try {
    state.info = await api("GET", "/info");
    for (const s of state.info.scenarios) {
      const o = document.createElement("option");
      o.value = s.name; o.textContent = `${s.name} (${s.table[0]}\u00d7${s.table[1]}, ${s.turn_limit} turns)`;
      $("scenario").appendChild(o);
    }
    $("scenario").value = state.info.scenarios.some((s) => s.name === "skirmish") ? "skirmish" : state.info.scenarios[0].name;
    for (const a of state.info.agents) {
      const o = document.createElement("option");
      o.value = a; o.textContent = a;
      $("ai").appendChild(o);
    }
    $("ai").value = "hard";
    $("scenario").addEventListener("change", sideNames);
    sideNames();
  } catch (e) { setStatus("cannot reach the server: " + e.message); }
  initBoardTools();
  $("resume-game").hidden = !localStorage.getItem("dustup-game");
  $("prompt").textContent = "Choose a scenario, your side and the AI, then New game.";
}

// ------------------------------------------------------------------------------------------------ reading the board
// Everything below works on the board once drawn (drawBoard notes what it drew in state.drawn, drawTrails calls
// finishBoard): labels placed clear of each other and of the objectives, the table turned round for the side at
// the top, zoom and pan, keyboard focus, the unit panel, and the log marked by side and filtered by unit.
const UNIT_FIELDS = ["unit", "target", "commander", "sender", "striker", "vehicle", "receiver", "detachment", "partner",
  "towed", "by", "crew", "attacker", "lost", "defender", "firer", "carrier"];
const UNIT_LIST_FIELDS = ["units", "subordinates", "defenders", "targets", "attackers"];

function turnedRound() {  // the player's home edge is the top edge: the table is drawn turned round (180 degrees)
  if (state.mode !== "play" || !state.game || !state.drawn) return false;
  const s = state.drawn.geo.sides[state.game.side];
  return !!s && s.home_edge === "north";
}

function finishBoard() {
  const svg = $("board");
  if (!state.drawn) return;
  const turned = turnedRound();
  placeLabels(svg, state.drawn, turned);
  for (const t of [...svg.querySelectorAll(".objective-name")]) svg.appendChild(t);  // never under a unit
  if (turned) turnBoard(svg, state.drawn.geo);
  $("board-turned").hidden = !turned;
  for (const g of svg.querySelectorAll(".unit, .marker")) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    const uid = g.dataset.uid !== undefined ? Number(g.dataset.uid) : null;
    g.setAttribute("aria-label", uid !== null ? g.dataset.name : "hidden-unit marker " + g.dataset.marker);
    g.addEventListener("click", () => { if (uid !== null) showPanel(uid); else showMarkerPanel(Number(g.dataset.marker)); });
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); g.dispatchEvent(new MouseEvent("click")); }
    });
  }
  applyZoom();
  renderPanel();
  fillLogFilter();
}

// a unit's name and badges above its figures, moved where they clear the labels placed before them, the objectives'
// names and centres (estimated sizes: no layout is read, so a click re-renders fast)
// (turned: the board will be turned round and each text turned back upright about its anchor, so a text then covers
// the 1" below its baseline in table terms instead of the 1" above it)
function placeLabels(svg, drawn, turned) {
  const H = drawn.geo.table.height, W = drawn.geo.table.width;
  const taken = [[W / 2 - 8, -1.6, W / 2 + 8, 0], [W / 2 - 8, H, W / 2 + 8, H + 1.6]];  // the home-edge names
  const box = (cx, top, w, h) => [cx - w / 2, top, cx + w / 2, top + h];
  // the cost of a label's box: what it covers, a label or an objective ten times a unit's figures
  const hits = (b) => taken.reduce((a, t) => a + Math.max(0, Math.min(b[2], t[2]) - Math.max(b[0], t[0])) * Math.max(0, Math.min(b[3], t[3]) - Math.max(b[1], t[1])) * (t[4] || 10), 0);
  for (const o of drawn.objectives) {
    const [x, y] = o.position, name = `${o.name} (${o.vp} VP)`;
    taken.push([x - 0.8, H - y - 0.8, x + 0.8, H - y + 0.8]);
    taken.push(box(x, H - y + (turned ? 1.7 : 0.7), name.length * 0.56, 1.05));
  }
  const byUid = {};
  for (const u of drawn.units) {
    byUid[u.uid] = u;
    if (!u.figures.length || u.inbound || u.merged || (u.carrier !== undefined && u.carrier >= 0)) continue;
    const r = u.vehicle ? (u.vehicle.footprint || 1.5) : 0.6;
    const xs = u.vehicle ? [u.x] : u.figures.map((f) => f.x), ys = u.vehicle ? [u.y] : u.figures.map((f) => f.y);
    taken.push([Math.min(...xs) - r, H - Math.max(...ys) - r, Math.max(...xs) + r, H - Math.min(...ys) + r, 1]);
  }
  for (const g of svg.querySelectorAll(".unit")) {
    const u = byUid[Number(g.dataset.uid)];
    const name = g.querySelector(".unit-label"), badges = g.querySelector(".unit-status");
    if (!u || !name) continue;
    const ys = u.figures.length && !u.vehicle ? u.figures.map((f) => f.y) : [u.y];
    const xs = u.figures.length && !u.vehicle ? u.figures.map((f) => f.x) : [u.x];
    const r = u.vehicle ? (u.vehicle.footprint || 1.5) : 0.5;
    const topY = H - Math.max(...ys) - r, botY = H - Math.min(...ys) + r;
    const left = Math.min(...xs) - r, right = Math.max(...xs) + r;
    const w = Math.max(name.textContent.length * 0.6, (badges ? badges.textContent.length : 0) * 0.48) + 0.3, h = 2.1;
    const mid = (topY + botY) / 2 - 1.05;
    const cands = [[u.x, topY - 0.5 - h], [u.x, botY + 0.3], [left - w / 2 - 0.3, mid], [right + w / 2 + 0.3, mid],
      [u.x, topY - 2.7 - h], [u.x, botY + 2.5], [left - w / 2 - 0.3, topY - h], [right + w / 2 + 0.3, topY - h],
      [left - w / 2 - 0.3, botY], [right + w / 2 + 0.3, botY], [u.x, topY - 4.9 - h], [u.x, botY + 4.7]];
    let best = null, bestCost = Infinity;
    for (const [cx, top] of cands) {
      const ccx = Math.max(w / 2 - 1.4, Math.min(W + 1.4 - w / 2, cx)), ctop = Math.max(-1.4, Math.min(H + 1.2 - h, top));
      const b = box(ccx, ctop, w, h), cost = hits(b);
      if (cost < bestCost) { best = b; bestCost = cost; }
      if (cost === 0) break;
    }
    taken.push(best);
    const cx = (best[0] + best[2]) / 2;
    name.setAttribute("x", cx); name.setAttribute("y", best[1] + (turned ? 1.05 : 1.0));
    if (badges) { badges.setAttribute("x", cx); badges.setAttribute("y", best[1] + (turned ? 0.1 : 1.95)); }
    if (best[1] > botY || best[3] < topY - 1.0 || Math.abs(cx - u.x) > w / 2) {  // away from its unit: a line to it
      const ly = Math.max(best[1], Math.min(best[3], H - u.y)), lx = Math.max(best[0], Math.min(best[2], u.x));
      g.insertBefore(el("line", { x1: u.x, y1: H - u.y, x2: lx, y2: ly, class: "label-line", stroke: SIDE_COLOURS[u.side] }), g.firstChild);
    }
  }
}

function turnBoard(svg, geo) {
  const W = geo.table.width, H = geo.table.height;
  const g = document.createElementNS(SVGNS, "g");
  g.setAttribute("id", "turned");
  g.setAttribute("transform", `rotate(180 ${W / 2} ${H / 2})`);
  for (const c of [...svg.childNodes]) if (c.nodeName !== "defs") g.appendChild(c);
  svg.appendChild(g);
  for (const t of g.querySelectorAll(".edge-name")) {  // the home edges' names kept inside the frame
    const y = Number(t.getAttribute("y"));
    if (y > H) t.setAttribute("y", H + 0.4);
    else if (y < 0) t.setAttribute("y", -1.1);
  }
  for (const t of g.querySelectorAll("text")) t.setAttribute("transform", `rotate(180 ${t.getAttribute("x")} ${t.getAttribute("y")})`);
  const c = g.querySelector(".compass");
  if (c) c.textContent = "N\u2193";
}

// ---- zoom and pan: the viewBox over the table (kept between renders)
function fullBox() {
  const geo = state.drawn.geo;
  return [-1.5, -1.5, geo.table.width + 3, geo.table.height + 3];
}

function applyZoom() {
  if (!state.drawn) return;
  const b = state.zoom || fullBox();
  $("board").setAttribute("viewBox", b.map((v) => +v.toFixed(3)).join(" "));
  $("board").dataset.zoom = (fullBox()[2] / b[2]).toFixed(2);
}

function zoomBy(f, cx, cy) {
  if (!state.drawn) return;
  const full = fullBox(), b = state.zoom || full;
  const w = Math.min(full[2], Math.max(6, b[2] / f)), h = w * full[3] / full[2];
  if (cx === undefined) { cx = b[0] + b[2] / 2; cy = b[1] + b[3] / 2; }
  const x = cx - (cx - b[0]) * w / b[2], y = cy - (cy - b[1]) * h / b[3];
  state.zoom = w >= full[2] ? null : clampBox([x, y, w, h]);
  applyZoom();
}

function clampBox(b) {
  const full = fullBox();
  return [Math.max(full[0], Math.min(full[0] + full[2] - b[2], b[0])), Math.max(full[1], Math.min(full[1] + full[3] - b[3], b[1])), b[2], b[3]];
}

function panBy(dx, dy) {
  if (!state.zoom) return;
  state.zoom = clampBox([state.zoom[0] + dx, state.zoom[1] + dy, state.zoom[2], state.zoom[3]]);
  applyZoom();
}

function svgPoint(ev) {
  const svg = $("board"), p = svg.createSVGPoint();
  p.x = ev.clientX; p.y = ev.clientY;
  return p.matrixTransform(svg.getScreenCTM().inverse());
}

function initBoardTools() {
  const svg = $("board");
  $("zoom-in").addEventListener("click", () => zoomBy(1.5));
  $("zoom-out").addEventListener("click", () => zoomBy(1 / 1.5));
  $("zoom-reset").addEventListener("click", () => { state.zoom = null; applyZoom(); });
  svg.addEventListener("wheel", (ev) => { ev.preventDefault(); const p = svgPoint(ev); zoomBy(ev.deltaY < 0 ? 1.25 : 0.8, p.x, p.y); }, { passive: false });
  let drag = null;
  svg.addEventListener("pointerdown", (ev) => { if (state.zoom) drag = { x: ev.clientX, y: ev.clientY, moved: false, box: state.zoom.slice() }; });
  svg.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    drag.moved = true;
    svg.classList.add("panning");
    const k = drag.box[2] / svg.getBoundingClientRect().width;
    state.zoom = clampBox([drag.box[0] - dx * k, drag.box[1] - dy * k, drag.box[2], drag.box[3]]);
    applyZoom();
  });
  const end = () => { if (drag && drag.moved) setTimeout(() => { drag = null; }, 0); else drag = null; svg.classList.remove("panning"); };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointerleave", end);
  svg.addEventListener("click", (ev) => { if (drag && drag.moved) { ev.stopPropagation(); ev.preventDefault(); } }, true);
  document.addEventListener("keydown", boardKeys);
  $("log-filter").addEventListener("change", applyLogFilter);
  drawLegendKey();
}

function boardKeys(e) {
  const t = e.target.tagName;
  if (t === "INPUT" && e.target.type !== "range" || t === "SELECT" || t === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "+" || e.key === "=") zoomBy(1.5);
  else if (e.key === "-") zoomBy(1 / 1.5);
  else if (e.key === "0") { state.zoom = null; applyZoom(); }
  else if (e.key === "Escape") { state.panelUid = null; renderPanel(); }
  else if (e.shiftKey && e.key.startsWith("Arrow") && state.zoom) {
    const step = state.zoom[2] / 6;  // the view box is the screen's (a turned table turns inside it)
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    e.preventDefault();
    panBy(d[0], d[1]);
  } else if (state.mode === "play" && /^[1-9]$/.test(e.key)) {
    const b = document.querySelectorAll("#options button")[Number(e.key) - 1];
    if (b) { e.preventDefault(); b.click(); }
  } else return;
}

function drawLegendKey() {
  const items = [[SIDE_COLOURS[0], "side 0"], [SIDE_COLOURS[1], "side 1"]];
  const key = $("legend-key");
  key.innerHTML = "";
  const add = (html, text) => { const s = document.createElement("span"); s.innerHTML = html; s.appendChild(document.createTextNode(text)); key.appendChild(s); };
  items.forEach(([c, t], i) => add(`<i class="side-swatch" data-side="${i}" style="background:${c}"></i>`, t));
  add('<i style="background:#fff;border:2px solid #ffd400"></i>', "leader");
  add(`<i style="background:${SIDE_COLOURS[0]};opacity:.25"></i>`, "wounded");
  add('<i style="background:#888"></i>', "disabled");
  add('<i style="border:1.5px dashed #705c12;background:none"></i>', "objective (VP)");
  add('<i style="border-radius:2px;background:#555"></i>', "hidden-unit marker");
  add('<b>S2</b>', " suppression markers");
  add('<b>\u2713</b>', " activated");
  add('<b>\u2192</b>', " last moves (dashed) and shots (red)");
}

function sideNamesIntoLegend() {
  if (!state.drawn) return;
  for (const sw of document.querySelectorAll("#legend-key .side-swatch")) {
    const i = Number(sw.dataset.side), s = state.drawn.geo.sides[i];
    if (s) sw.nextSibling.textContent = `${s.name} (side ${i})` + (state.game && state.mode === "play" && state.game.side === i ? ": you" : "");
  }
}

// ---- the unit panel: everything the side may know of a unit (the view's record of it; a hidden unit shows nothing)
function showPanel(uid) { state.panelUid = uid; state.panelMarker = null; renderPanel(); }
function showMarkerPanel(i) { state.panelMarker = i; state.panelUid = null; renderPanel(); }

function renderPanel() {
  sideNamesIntoLegend();
  const p = $("unit-panel");
  const drawn = state.drawn;
  if (!drawn || (state.panelUid === null || state.panelUid === undefined) && (state.panelMarker === null || state.panelMarker === undefined)) { p.hidden = true; return; }
  const rows = [];
  let title = "", side = null;
  if (state.panelUid !== null && state.panelUid !== undefined) {
    const u = drawn.units.find((x) => x.uid === state.panelUid);
    const hid = drawn.hidden.find((x) => x.uid === state.panelUid);
    if (!u && !hid) { p.hidden = true; return; }
    if (!u) {
      title = hid.name; side = hid.side;
      rows.push(["state", "hidden: your side has not found it (a marker may show where a hidden unit is)"]);
    } else {
      title = u.name; side = u.side;
      const sname = drawn.geo.sides[u.side].name;
      const own = state.mode !== "play" || !state.game || state.game.side === u.side;
      rows.push(["side", `${sname} (side ${u.side})` + (own ? "" : ", the enemy")]);
      rows.push(["kind", u.vehicle ? `${u.vehicle.design} (${u.vehicle.kind.replace(/_/g, " ")}, size ${u.vehicle.size})` : u.kind]);
      const status = !u.in_play ? (u.routed_off ? "routed off the table" : u.evacuated ? "evacuated" : u.merged ? "merged" : u.inbound ? `inbound (box ${u.inbound})` : "destroyed") : "in play";
      rows.push(["state", status + (u.confidence === "routed" ? ", routed" : "") + (u.panicked ? ", PANICKED" : "") +
        (offTable(u) ? `, off the table (${OFF_TABLE[u.location] || u.location.replace(/_/g, " ")})` : "")]);
      if (u.air) rows.push(["flight", `${u.air.mode} (${u.air.type} aircraft)`]);
      rows.push(["quality", u.quality.toUpperCase()], ["leadership", String(u.lv)], ["confidence", u.confidence],
        ["suppression", `${u.suppression} marker${u.suppression === 1 ? "" : "s"}`]);
      if (!u.vehicle) {
        const wounded = u.figures.filter((f) => f.status !== "ok").length, killed = Math.max(0, u.strength - u.figures.length);
        rows.push(["figures", `${u.able} able of ${u.strength}`], ["casualties", `${killed} killed, ${wounded} wounded or disabled`]);
        const w = {};
        for (const f of u.figures) { const k = f.weapon.replace(/_/g, " "); w[k] = (w[k] || 0) + 1; }
        rows.push(["weapons", Object.keys(w).sort().map((k) => (w[k] > 1 ? `${k} \u00d7${w[k]}` : k)).join(", ") || "none left"]);
        rows.push(["armour", u.armour.replace(/_/g, " ")], ["movement", u.movement.toUpperCase()]);
      } else {
        const v = u.vehicle;
        rows.push(["armour", ["front", "side", "rear", "top"].map((f) => `${f} ${String(v.armour[f]).toUpperCase()}`).join(", ")]);
        rows.push(["damage", `${v.damage} marker${v.damage === 1 ? "" : "s"}` + (v.immobilised ? ", immobilised" : "") + (u.in_play ? "" : ", destroyed")]);
        rows.push(["weapons", v.weapons.map((w) => `${w.slot + 1}: ${w.name} (${w.arc.replace(/_/g, " ")})${w.fired ? ", fired" : ""}`).join("; ") || "none"]);
        if (v.hatches) rows.push(["hatches", v.opened_up ? "opened up" : "closed down"]);
        if (v.passengers) rows.push(["passengers", v.passengers.length ? v.passengers.map((x) => x.name).join(", ") : "none"]);
      }
      if (u.heavy_weapon) rows.push(["heavy weapon", `${u.heavy_weapon.weapon || u.heavy_weapon.design}: ${u.heavy_weapon.state}, ${u.heavy_weapon.damage}` + (u.heavy_weapon.fired ? ", fired" : "")]);
      if (u.carrier !== undefined && u.carrier >= 0) { const c = drawn.units.find((x) => x.uid === u.carrier); rows.push(["mounted in", c ? c.name : "a vehicle"]); }
      if (u.commander >= 0) { const c = drawn.units.find((x) => x.uid === u.commander); if (c) rows.push(["commander", c.name]); }
      const flags = [u.propped && "propped", u.concealed && "in complete concealment", u.hidden && "hidden (the enemy sees a marker)", u.travel && "in column (travel mode)"].filter((x) => x);
      if (flags.length) rows.push(["also", flags.join(", ")]);
      rows.push(["activation", u.activated ? "activated this turn" : "not activated yet this turn"]);
    }
  } else {
    const m = drawn.markers.find((x) => x.index === state.panelMarker);
    if (!m) { p.hidden = true; return; }
    title = `Hidden-unit marker ${m.index}`; side = m.side;
    rows.push(["side", `${drawn.geo.sides[m.side].name} (side ${m.side})`]);
    rows.push(["what", m.unit === undefined ? "a hidden unit or a dummy: your side cannot tell" : (m.unit < 0 ? "your dummy" : "your hidden unit")]);
  }
  p.hidden = false;
  p.className = side === 0 || side === 1 ? "side-" + side : "";
  p.innerHTML = "";
  const h = document.createElement("h3");
  h.textContent = title;
  p.appendChild(h);
  const dl = document.createElement("dl");
  for (const [k, v] of rows) {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = k; dd.textContent = v;
    dt.dataset.field = k;
    dl.appendChild(dt); dl.appendChild(dd);
  }
  p.appendChild(dl);
  const tools = document.createElement("div");
  tools.className = "panel-tools";
  if (state.panelUid !== null && state.panelUid !== undefined) {
    const b = document.createElement("button");
    b.type = "button"; b.textContent = "its events"; b.id = "panel-events";
    const uid = state.panelUid;
    b.addEventListener("click", () => { fillLogFilter(); $("log-filter").value = String(uid); applyLogFilter(); });
    tools.appendChild(b);
  }
  const c = document.createElement("button");
  c.type = "button"; c.textContent = "close (Esc)"; c.id = "panel-close";
  c.addEventListener("click", () => { state.panelUid = null; state.panelMarker = null; renderPanel(); });
  tools.appendChild(c);
  p.appendChild(tools);
}

// ---- the log: each line marked by its side, filtered by unit
function eventUnits(e) {
  const out = [];
  for (const k of UNIT_FIELDS) if (Number.isInteger(e[k]) && e[k] >= 0) out.push(e[k]);
  for (const k of UNIT_LIST_FIELDS) if (Array.isArray(e[k])) for (const u of e[k]) if (Number.isInteger(u)) out.push(u);
  return out;
}

function unitSides() {
  const m = {};
  const views = [];
  if (state.current && state.current.view) views.push(state.current.view.units, state.current.view.hidden_units || []);
  if (state.replay && state.replay.frames && state.replay.frames.length) views.push(state.replay.frames[0].units);
  for (const list of views) for (const u of list) m[u.uid] = u.side;
  return m;
}

function markEvent(li, e) {
  const sides = unitSides();
  let side = e.side === 0 || e.side === 1 ? e.side : null;
  if (side === null) for (const k of ["unit", "commander", "sender", "striker", "vehicle", "target"]) if (Number.isInteger(e[k]) && sides[e[k]] !== undefined) { side = sides[e[k]]; break; }
  if (side !== null) { li.classList.add("side-" + side); li.dataset.side = side; }
  li.dataset.units = eventUnits(e).join(" ");
  const f = $("log-filter").value;
  if (f !== "" && e.type !== "TurnStarted" && !li.dataset.units.split(" ").includes(f)) li.classList.add("filtered");
}

function fillLogFilter() {
  if (!state.drawn) return;
  const sel = $("log-filter");
  const units = [...state.drawn.units, ...state.drawn.hidden].sort((a, b) => a.uid - b.uid);
  const key = units.map((u) => u.uid + ":" + u.name).join("|");
  if (sel.dataset.key === key) return;
  const keep = sel.value;
  sel.dataset.key = key;
  sel.innerHTML = '<option value="">every unit</option>';
  for (const u of units) {
    const o = document.createElement("option");
    o.value = String(u.uid); o.textContent = u.name;
    sel.appendChild(o);
  }
  sel.value = units.some((u) => String(u.uid) === keep) ? keep : "";
}

function applyLogFilter() {
  const f = $("log-filter").value;
  for (const li of document.querySelectorAll("#log li")) {
    const show = f === "" || li.classList.contains("turn") || (li.dataset.units || "").split(" ").includes(f);
    li.classList.toggle("filtered", !show);
  }
}

// after "Resume your game": the set-up bar names the game's own scenario and side
function syncSetup() {
  const st = state.current;
  if (!st || !st.view) return;
  const sel = $("scenario"), name = st.view.scenario;
  if (![...sel.options].some((o) => o.value === name)) {
    const o = document.createElement("option");
    o.value = name; o.textContent = `${name} (your game)`;
    sel.appendChild(o);
    if (state.info) state.info.scenarios.push({ name, sides: st.view.sides.map((s) => s.name), table: [st.view.table.width, st.view.table.height], turn_limit: st.view.turn_limit });
  }
  sel.value = name;
  $("side").value = String(state.game.side);
  sideNames();
}


// ------------------------------------------------------------------------------------------------ odds, sight, reach
// What a player may work out before committing (the server's answers for this side only): each option's dice and
// odds beside it and on its target when hovering; the sight and range of a selected unit; where a move may end with
// the least and the greatest movement roll; a measuring tool. The moves are picked with a compass picker.
const COMPASS = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"];
const MOVE_DISTANCES = [3, 6, 12, 24];
const insight = { reach: null, reachKey: null, moveDist: 1, sight: null, sightKey: null, measure: null, measuring: false, from: null, tip: null };

// the mark of a length in rules units: inches, or centimetres in a game played in centimetres (option measure)
function lenMark() {
  const v = (state.current && state.current.view) || (state.drawn && state.drawn.geo);
  return v && v.table && v.table.length === "cm" ? "\u202fcm" : "\u2033";
}

function isMoveOption(o) { return o && o.option && o.option[0] === "move" && o.option.length === 3; }

function movePointShown(o) { return !isMoveOption(o) || o.option[2] === insight.moveDist; }

function decorateOption(button, o) {
  if (o.odds_text) {
    const sp = document.createElement("span");
    sp.className = "odds";
    sp.textContent = o.odds_text;
    sp.title = oddsTitle(o);
    button.appendChild(sp);
  }
  if (o.target !== undefined) {
    button.addEventListener("mouseenter", () => markTarget(o.target, true));
    button.addEventListener("mouseleave", () => markTarget(o.target, false));
  }
}

function pct(x) { return typeof x === "number" ? (100 * x).toFixed(x < 0.1 ? 1 : 0) + "%" : String(x); }

function oddsTitle(o) {
  const d = o.dice || {}, p = o.odds || {};
  const lines = [];
  if (d.minefield) {  // clearing a lane, or a move into a known minefield: for each movement roll, then together
    const span = d.inches[0] === d.inches[1] ? `${d.inches[0]}${lenMark()}` : `${d.inches[0]}-${d.inches[1]}${lenMark()}`;
    lines.push(`${d.minefield} minefield, ${span} inside (movement ${d.movement}): ` + (d.belly
      ? `a mine (${d.impact}) against belly armour ${d.belly}` : `quality ${d.quality}, a mine on ${d.needed} or less`) +
      ` every ${d.every || 3}${lenMark()} or part`);
    if (d.belly) lines.push(`none ${pct(p.none)}, damaged ${pct(p.damaged)}, destroyed ${pct(p.destroyed)}`);
    else lines.push(`no mine ${pct(p.no_mine)}; ` + Object.entries(p.hits || {}).map(([k, v]) => `${k} hit${k === "1" ? "" : "s"} ${pct(v)}`).join(", "));
  } else if (d.accuracy) {  // a fire-support request or its target marker: the request roll, then each round's accuracy
    if (d.request) lines.push(`request: ${d.request} must beat ${d.needed} (${d.requestor.toUpperCase()} calling ${d.support}, ${d.chits} chit${d.chits === 1 ? "" : "s"}${d.jamming ? ", under jamming" : ""}): success ${pct(p.success)}`);
    lines.push(`accuracy of each of ${d.rounds} round${d.rounds === 1 ? "" : "s"} (${d.asset}): ${d.accuracy}` + (d.leadership === null ? " with no observer: never on target" : ` must beat leadership ${d.leadership}`) +
      (d.guidance !== "none" ? `, ${d.guidance}-guided` : "") + `: on target ${pct(p.on_target)}`);
    const sc = Object.entries(p.scatter || {}).map(([k, v]) => `${k}${lenMark()} ${pct(v)}`);
    if (sc.length) lines.push(`scatter (${p.expected_scatter.toFixed(1)}${lenMark()} on average): ` + sc.join(", "));
  } else if (d.target) {
    lines.push(`dice: quality ${d.quality}, firepower ${d.firepower.join(" ")} against target die ${d.target} (${d.band}, ${d.distance}")` +
      (d.suppressive ? ", suppressive fire" : ""));
    lines.push(`no success ${pct(p.none)}, minor ${pct(p.minor)}, major ${pct(p.major)}; expected hits ${p.expected_hits.toFixed(2)}`);
    if (p.destroyed !== undefined) lines.push(`impact ${d.impact} against ${d.facing} armour ${d.armour}: damaged ${pct(p.damaged)}, destroyed ${pct(p.destroyed)}`);
    else lines.push(`impact ${d.impact} against armour ${d.armour}: expected casualties ${typeof p.expected_casualties === "number" ? p.expected_casualties.toFixed(2) : p.expected_casualties}`);
  } else if (d.guidance) {
    lines.push(`missile: quality ${d.quality}, guidance ${d.guidance} against ECM ${d.ecm}: hit ${pct(p.hit)}, suppressed ${pct(p.suppressed)}, miss ${pct(p.miss)}; interception ${p.interception}`);
    if (p.destroyed !== undefined) lines.push(`damaged ${pct(p.damaged)}, destroyed ${pct(p.destroyed)}`);
  } else if (d.attacker) {
    const n = d.outnumbered || {};
    lines.push(`courage test ${d.attacker} against ${d.defender}; strength ${d.strength[0]} to ${d.strength[1]}` +
      (n.defender ? ` (the defender outnumbered ${n.defender}:1)` : n.attacker ? ` (you are outnumbered ${n.attacker}:1)` : " (no outnumbering)"));
    const shifts = (xs) => xs.map((x) => `${x[0].replace(/_/g, " ")} ${x[1] > 0 ? "+" : ""}${x[1]}`).join(", ") || "none";
    lines.push(`shifts: yours ${shifts(d.attacker_shifts || [])}; the defender's ${shifts(d.defender_shifts || [])}`);
    lines.push(`contact ${pct(p.contact)}, defender withdraws ${pct(p.defender_withdraws)}, routs ${pct(p.defender_routs)}, fail ${pct(p.fail)}, fail badly ${pct(p.fail_badly)}`);
  }
  return lines.join("\n");
}

function markTarget(uid, on) {
  for (const g of document.querySelectorAll(`#board .unit[data-uid="${uid}"]`)) g.classList.toggle("odds-target", on);
}

// the tooltip of a target on the table: the odds of every option aimed at it
function showTargetTip(ev) {
  const tip = insight.tip;
  const g = ev.target.closest && ev.target.closest("#board .unit");
  const d = state.current && state.current.decision;
  if (!g || !d || state.mode !== "play") { tip.hidden = true; return; }
  const uid = Number(g.dataset.uid);
  const opts = d.options.filter((o) => o.target === uid && o.odds_text);
  if (!opts.length) { tip.hidden = true; return; }
  tip.textContent = "";
  const h = document.createElement("div");
  h.className = "tip-head";
  h.textContent = g.dataset.name;
  tip.appendChild(h);
  for (const o of opts) {
    const row = document.createElement("div");
    row.textContent = `${o.label}: ${o.odds_text}`;
    tip.appendChild(row);
  }
  tip.style.left = (ev.clientX + 14) + "px";
  tip.style.top = (ev.clientY + 10) + "px";
  tip.hidden = false;
}

function renderMovePicker(decision, opts) {
  let box = $("move-picker");
  if (!box) {
    box = document.createElement("div");
    box.id = "move-picker";
    $("options").parentNode.insertBefore(box, $("options"));
  }
  box.innerHTML = "";
  const moves = (opts || []).filter((o) => !(o instanceof HTMLElement) && isMoveOption(o));
  box.hidden = !moves.length;
  if (!moves.length) return;
  const byKey = {};
  for (const o of moves) byKey[o.option[1] + ":" + o.option[2]] = o;
  if (!moves.some((o) => o.option[2] === insight.moveDist)) insight.moveDist = moves[0].option[2];
  const head = document.createElement("div");
  head.className = "picker-head";
  head.textContent = "Move: distance ";
  MOVE_DISTANCES.forEach((dist, k) => {
    const b = document.createElement("span");
    b.className = "dist" + (k === insight.moveDist ? " on" : "") + (moves.some((o) => o.option[2] === k) ? "" : " shut");
    b.textContent = dist + lenMark();
    b.tabIndex = 0;
    b.dataset.k = k;
    const pick = () => { insight.moveDist = k; renderMovePicker(decision, opts); redrawCurrent(); };
    b.addEventListener("click", pick);
    b.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
    head.appendChild(b);
  });
  box.appendChild(head);
  const row = document.createElement("div");
  row.className = "compass-row";
  COMPASS.forEach((name, d) => {
    const o = byKey[d + ":" + insight.moveDist];
    const b = document.createElement("button");
    b.type = "button";
    b.className = "compass-btn";
    b.textContent = name;
    b.disabled = !o;
    if (o) {
      b.dataset.option = JSON.stringify(o.option);
      b.title = o.label + reachText(d, insight.moveDist);
      b.addEventListener("click", () => play(o.option));
      b.addEventListener("mouseenter", () => highlightPoint(o.option, true));
      b.addEventListener("mouseleave", () => highlightPoint(o.option, false));
    }
    row.appendChild(b);
  });
  box.appendChild(row);
  const note = document.createElement("div");
  note.className = "picker-note";
  const r = insight.reach;
  note.textContent = r ? `movement ${r.movement.toUpperCase()}: roll ${r.rolls[0]}\u2013${r.rolls[1]}, ${r.points[0]}\u2013${r.points[1]} points; ` +
    "the shaded band is where the move may end (inner line: the least roll, outer: the greatest)" : "";
  box.appendChild(note);
}

function reachText(d, k) {
  const r = insight.reach;
  if (!r) return "";
  const e = r.distances[k].directions[d];
  const len = (p) => Math.hypot(p[0] - r.x, p[1] - r.y).toFixed(1);
  return ` (ends ${len(e.min)}${lenMark()} to ${len(e.max)}${lenMark()} away` + (e.p_moves < 1 ? `; shaken: a leadership test first, moves ${pct(e.p_moves)})` : ")");
}

function insightNewDecision(st) {
  const d = st.decision;
  const key = d ? `${st.events}:${d.unit}:${d.kind}` : null;
  if (d && d.options.some(isMoveOption) && d.unit >= 0) {
    if (insight.reachKey !== key) {
      insight.reachKey = key;
      insight.reach = null;
      api("GET", `/games/${state.game.id}/reach?unit=${d.unit}`).then((r) => {
        if (insight.reachKey !== key) return;
        insight.reach = r;
        if (state.current === st) { renderMovePicker(st.decision, st.decision.options); redrawCurrent(); }
      }).catch((e) => setStatus(e.message));
    }
  } else { insight.reach = null; insight.reachKey = null; }
  if (d && d.kind === "action" && d.unit >= 0) askSight({ unit: d.unit }, key);
  else if (!insight.sight || insight.sightKey !== key) { insight.sight = null; }
}

function askSight(q, key) {
  const qs = new URLSearchParams(q).toString();
  const k = key + "|" + qs;
  if (insight.sightKey === k) return;
  insight.sightKey = k;
  api("GET", `/games/${state.game.id}/sight?${qs}`).then((r) => {
    if (insight.sightKey !== k) return;
    insight.sight = r;
    document.body.dataset.sight = qs;
    if (state.current) redrawCurrent();
    renderSightPanel();
  }).catch((e) => setStatus(e.message));
}

function renderSightPanel() {
  let box = $("sight-panel");
  if (!box) {
    box = document.createElement("div");
    box.id = "sight-panel";
    $("decision-box").appendChild(box);
  }
  const s = insight.sight;
  box.hidden = !s || state.mode !== "play";
  if (!s) return;
  box.textContent = "";
  const h = document.createElement("div");
  h.className = "tip-head";
  const list = document.createElement("ul");
  if (s.enemies) {
    h.textContent = `Sight and range of ${s.name}:`;
    for (const e of s.enemies) {
      const li = document.createElement("li");
      li.textContent = !e.visible ? `${e.name}: not in sight (${e.distance}${lenMark()})` :
        `${e.name}: ${e.distance}${lenMark()}, ${e.band}` + (e.in_range ? `, target die ${e.target_die}` : ", out of range") + (e.may_fire ? ", may fire now" : "");
      li.className = e.visible ? (e.may_fire ? "fire" : "seen") : "unseen";
      list.appendChild(li);
    }
  } else {
    h.textContent = s.target !== undefined ? `Your units that see ${s.name}:` : `Your units that see the point (${s.point[0].toFixed(1)}, ${s.point[1].toFixed(1)}):`;
    for (const e of s.seen_by) {
      const li = document.createElement("li");
      li.textContent = `${e.name}: ${e.distance}${lenMark()}, ${e.band}` + (e.target_die ? `, target die ${e.target_die}` : "");
      list.appendChild(li);
    }
    if (!s.seen_by.length) { const li = document.createElement("li"); li.textContent = "none"; list.appendChild(li); }
  }
  box.appendChild(h);
  box.appendChild(list);
  if (insight.measure) {
    const m = insight.measure, p = document.createElement("div");
    p.className = "measure-text";
    p.textContent = `Measured: ${m.distance}${lenMark()} bearing ${m.bearing}\u00b0 (${m.band} range), line of sight ${m.line_of_sight ? "clear" + (m.concealed ? ", concealed" : "") + (m.cover ? ", cover" : "") : "blocked"}`;
    box.appendChild(p);
  }
}

// the overlays: a move's reach for the chosen distance, the selected unit's lines of sight, the measuring line
function drawInsight(st) {
  const svg = $("board");
  const H = st.view.table.height, sy = (y) => H - y;
  const layer = el("g", { class: "insight" }, svg);
  const r = insight.reach;
  if (r && st.decision && st.decision.unit === r.unit && st.decision.options.some(isMoveOption)) {
    const dist = r.distances[insight.moveDist];
    const outer = dist.directions.map((e) => `${e.max[0]},${sy(e.max[1])}`).join(" ");
    const inner = dist.directions.map((e) => `${e.min[0]},${sy(e.min[1])}`).join(" ");
    el("polygon", { points: outer, class: "reach-max" }, layer);
    el("polygon", { points: inner, class: "reach-min" }, layer);
    svg.insertBefore(layer, svg.querySelector(".unit, .marker") || null);  // under the units
  }
  const s = insight.sight;
  if (s && s.enemies && st.view.units.some((u) => u.uid === s.unit)) {
    for (const e of s.enemies) {
      const t = st.view.units.find((u) => u.uid === e.uid);
      if (!t || !e.visible) continue;
      const ln = el("line", { x1: s.x, y1: sy(s.y), x2: t.x, y2: sy(t.y), class: "los " + (e.in_range ? e.band : "out") }, svg);
      ln.dataset.uid = e.uid;
      el("text", { x: (s.x + t.x) / 2, y: sy((s.y + t.y) / 2) - 0.3, class: "los-label" }, svg, `${e.distance}${lenMark()} ${e.target_die || "out of range"}`);
    }
  } else if (s && s.seen_by) {
    const [px, py] = s.point || [s.x, s.y];
    for (const e of s.seen_by) {
      const u = st.view.units.find((x) => x.uid === e.uid);
      if (u) el("line", { x1: u.x, y1: sy(u.y), x2: px, y2: sy(py), class: "los seen-by" }, svg);
    }
  }
  const m = insight.measure;
  if (m) {
    el("line", { x1: m.from[0], y1: sy(m.from[1]), x2: m.to[0], y2: sy(m.to[1]), class: "measure-line" + (m.line_of_sight ? "" : " blocked") }, svg);
    el("text", { x: (m.from[0] + m.to[0]) / 2, y: sy((m.from[1] + m.to[1]) / 2) - 0.4, class: "measure-label" }, svg, `${m.distance.toFixed(1)}${lenMark()}`);
  } else if (insight.from) {
    el("circle", { cx: insight.from[0], cy: sy(insight.from[1]), r: 0.35, class: "measure-from" }, svg);
  }
}

// a point of the table from a click (rules units: y north)
function boardPoint(ev) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  let p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const W = state.current.view.table.width, H = state.current.view.table.height;
  if (turnedRound()) p = { x: W - p.x, y: H - p.y };  // the table is drawn turned round (rotate 180 about its centre)
  return [Math.max(0, Math.min(W, p.x)), Math.max(0, Math.min(H, H - p.y))];
}

function onBoardClickInsight(ev) {
  if (state.mode !== "play" || !state.current) return;
  if (insight.measuring) {
    ev.stopPropagation();
    ev.preventDefault();
    const p = boardPoint(ev);
    if (!insight.from || insight.measure) { insight.from = p; insight.measure = null; redrawCurrent(); return; }
    const a = insight.from;
    api("GET", `/games/${state.game.id}/measure?ax=${a[0]}&ay=${a[1]}&bx=${p[0]}&by=${p[1]}`).then((m) => {
      insight.measure = m;
      document.body.dataset.measured = String(m.distance);
      askSight({ x: p[0], y: p[1] }, "point");
    }).catch((e) => setStatus(e.message));
    return;
  }
  const g = ev.target.closest && ev.target.closest("#board .unit");
  if (!g) return;
  const uid = Number(g.dataset.uid);
  const u = state.current.view.units.find((x) => x.uid === uid);
  if (!u) return;
  askSight(u.side === state.current.side ? { unit: uid } : { target: uid }, "unit");
}

function toggleMeasure() {
  insight.measuring = !insight.measuring;
  insight.from = null;
  insight.measure = null;
  $("measure-tool").classList.toggle("on", insight.measuring);
  $("measure-tool").textContent = insight.measuring ? "Measuring: click two points" : "Measure";
  if (state.current) redrawCurrent();
}

function initInsight() {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "measure-tool";
  b.textContent = "Measure";
  b.title = "click two points of the table: the distance, bearing, line of sight, and which of your units see the second point";
  b.addEventListener("click", toggleMeasure);
  $("decision-tools").appendChild(b);
  $("board").addEventListener("click", onBoardClickInsight, true);
  insight.tip = document.createElement("div");
  insight.tip.id = "odds-tip";
  insight.tip.hidden = true;
  document.body.appendChild(insight.tip);
  $("board").addEventListener("mousemove", showTargetTip);
  $("board").addEventListener("mouseleave", () => { insight.tip.hidden = true; });
}


init();
