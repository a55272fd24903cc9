// tabula's page: the board, the plays, the cube, a game against the tables' perfect play,
// and bingo's law of T. Every number shown comes from the server's API (docs/serve.md);
// the page only draws and keeps the game's state (and its link).
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

// ---------------------------------------------------------------- the API
async function api(path, params) {
  const query = params ? "?" + new URLSearchParams(params).toString() : "";
  const response = await fetch(path + query);
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(body.error || response.statusText), { status: response.status });
  return body;
}
const gammon = (question, params) =>
  api(`/api/gammon/${encodeURIComponent(app.variant)}/${question}`, params);

function say(text) { $("message").textContent = text || ""; }
function fail(error) { say(error.message || String(error)); }

// ---------------------------------------------------------------- numbers
const signed = (x, digits = 6) => (x >= 0 ? "+" : "") + x.toFixed(digits);
const percent = (p) => (100 * p).toFixed(2) + "%";

// ---------------------------------------------------------------- positions
// A side is counts[0..P-1] for its points 1..P and counts[P] for its bar, in its own
// numbering; notation lists each side's checkers, the side on roll first (docs/gammon.md).
function parseSide(rules, text) {
  const counts = new Array(rules.points + 1).fill(0);
  for (const item of text.split(",").map((s) => s.trim()).filter((s) => s)) {
    if (item === "bar") counts[rules.points] += 1;
    else counts[Number(item) - 1] += 1;
  }
  return counts;
}
function parsePosition(rules, text) {
  const [us, them] = text.split("/");
  return { x: parseSide(rules, us || ""), o: parseSide(rules, them || "") };
}
function sideText(rules, counts) {
  const items = [];
  for (let i = 0; i < counts[rules.points]; i++) items.push("bar");
  for (let p = rules.points; p >= 1; p--) for (let i = 0; i < counts[p - 1]; i++) items.push(String(p));
  return items.join(",");
}
const positionText = (rules, pos) => sideText(rules, pos.x) + "/" + sideText(rules, pos.o);
const swapped = (text) => text.split("/").reverse().join("/");
const inPlay = (counts) => counts.reduce((a, b) => a + b, 0);

// ---------------------------------------------------------------- the board (SVG)
function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}
function text(parent, x, y, content, attrs) {
  const t = el("text", Object.assign({ x, y, "text-anchor": "middle", "font-size": 14, "font-family": "sans-serif" }, attrs || {}), parent);
  t.textContent = content;
  return t;
}

// Draws `pos` (x: the side seen from below, on roll unless told) with `opts`: dice,
// cube {value, owner: "centre"|"x"|"o"}, pips, names, onClick(target), selected.
function drawBoard(holder, rules, pos, opts) {
  // The point numbers sit in bands above and below the points, large enough to read
  // when the board is drawn 370 pixels wide (a phone): 22 units there are 11 pixels.
  const P = rules.points, W = 760, H = 480, edge = 28, tray = 66, barW = 44;
  const cols = Math.ceil(P / 2), top = P - cols, left = Math.floor(cols / 2);
  const pw = (W - 2 * edge - tray - barW) / cols;
  const r = Math.max(6, Math.min(pw / 2 - 2, 17));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": opts.label || "board" });
  el("rect", { x: 0, y: 0, width: W, height: H, rx: 8, fill: "#6b4a2b" }, svg);
  el("rect", { x: edge, y: edge, width: W - 2 * edge - tray, height: H - 2 * edge, fill: "#2f5d46" }, svg);
  const colX = (c) => edge + c * pw + (c >= left ? barW : 0);
  const barX = edge + left * pw;
  el("rect", { x: barX, y: edge, width: barW, height: H - 2 * edge, fill: "#4e3620" }, svg);
  // Where X's point k is: its column and row.
  const place = (k) => (k <= cols ? { c: cols - k, bottom: true } : { c: k - cols - 1 + (cols - top), bottom: false });
  const clickable = (g, target, label) => {
    if (!opts.onClick) return;
    g.setAttribute("role", "button");
    g.setAttribute("tabindex", "0");
    g.setAttribute("aria-label", label);
    g.addEventListener("click", (e) => opts.onClick(target, e));
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); opts.onClick(target, e); }
    });
  };
  const stack = (g, cx, base, dir, count, colour, ink) => {
    const shown = Math.min(count, 5);
    for (let i = 0; i < shown; i++) {
      el("circle", { cx, cy: base + dir * (r + i * 2 * r), r, fill: colour, stroke: ink, "stroke-width": 1.5 }, g);
    }
    if (count > 5) text(g, cx, base + dir * (r + 4 * 2 * r) + 5, String(count), { fill: ink, "font-weight": 700 });
  };
  const X = "#f7f3ea", O = "#222", xInk = "#333", oInk = "#eee";
  const th = (H - 2 * edge) * 0.42;
  for (let k = 1; k <= P; k++) {
    const { c, bottom } = place(k);
    const x0 = colX(c), base = bottom ? H - edge : edge, tip = bottom ? H - edge - th : edge + th;
    const g = el("g", { class: "point" + (opts.selected === k ? " selected" : ""), "data-point": k }, svg);
    el("polygon", { points: `${x0},${base} ${x0 + pw},${base} ${x0 + pw / 2},${tip}`, fill: (k % 2 ? "#d8c08a" : "#9c3d2e") }, g);
    el("rect", { x: x0, y: bottom ? tip : edge, width: pw, height: th, fill: "transparent" }, g);
    const xs = pos.x[k - 1], os = pos.o[P - k];
    const dir = bottom ? -1 : 1;
    if (xs) stack(g, x0 + pw / 2, base, dir, xs, X, xInk);
    if (os) stack(g, x0 + pw / 2, base, dir, os, O, oInk);
    text(svg, x0 + pw / 2, bottom ? H - 6 : edge - 7, String(k), { "font-size": 22, "font-weight": 700, fill: "#f4e7c8", class: "point-number" });
    const who = xs ? `${xs} of yours` : os ? `${os} of theirs` : "empty";
    clickable(g, k, `point ${k}: ${who}`);
  }
  // The bar: X's checkers in the lower half, O's in the upper.
  const bar = el("g", { class: "zone" + (opts.selected === "bar" ? " selected" : ""), "data-point": "bar" }, svg);
  el("rect", { x: barX, y: edge, width: barW, height: H - 2 * edge, fill: "transparent" }, bar);
  if (pos.x[P]) stack(bar, barX + barW / 2, H / 2 + 30, 1, pos.x[P], X, xInk);
  if (pos.o[P]) stack(bar, barX + barW / 2, H / 2 - 30, -1, pos.o[P], O, oInk);
  clickable(bar, "bar", `bar: ${pos.x[P]} of yours, ${pos.o[P]} of theirs`);
  // The tray: borne off.
  const trayX = W - edge - tray + 6;
  const off = el("g", { class: "zone" + (opts.selected === "off" ? " selected" : ""), "data-point": "off" }, svg);
  el("rect", { x: trayX, y: edge, width: tray - 6, height: H - 2 * edge, fill: "#3d2a17" }, off);
  const xOff = rules.checkers - inPlay(pos.x), oOff = rules.checkers - inPlay(pos.o);
  text(off, trayX + (tray - 6) / 2, H - edge - 58, `off ${xOff}`, { fill: "#f7f3ea", "font-size": 18 });
  text(off, trayX + (tray - 6) / 2, edge + 74, `off ${oOff}`, { fill: "#ccc", "font-size": 18 });
  clickable(off, "off", `borne off: ${xOff} of yours, ${oOff} of theirs`);
  const pips = (counts) => counts.reduce((s, n, i) => s + n * (i + 1), 0);
  text(svg, trayX + (tray - 6) / 2, H - edge - 10, `${pips(pos.x)}`, { fill: "#f7f3ea", "font-size": 20, "font-weight": 700 });
  text(svg, trayX + (tray - 6) / 2, edge + 26, `${pips(pos.o)}`, { fill: "#ccc", "font-size": 20, "font-weight": 700 });
  text(svg, trayX + (tray - 6) / 2, H - edge - 32, "pips", { fill: "#bbb", "font-size": 15 });
  text(svg, trayX + (tray - 6) / 2, edge + 46, "pips", { fill: "#bbb", "font-size": 15 });
  // Dice, in the right half.
  if (opts.dice) {
    const cx = colX(left) + (cols - left) * pw / 2, cy = H / 2;
    opts.dice.forEach((d, i) => {
      const dx = cx - 30 + i * 36;
      el("rect", { x: dx, y: cy - 15, width: 30, height: 30, rx: 5, fill: opts.diceColour || "#f7f3ea", stroke: "#111" }, svg);
      text(svg, dx + 15, cy + 6, String(d), { "font-size": 18, "font-weight": 700, fill: "#111" });
    });
  }
  // The cube: centred on the left, or by its owner's side.
  if (opts.cube) {
    const y = opts.cube.owner === "x" ? H - edge - 40 : opts.cube.owner === "o" ? edge + 4 : H / 2 - 18;
    const value = opts.cube.owner === "centre" ? 64 : opts.cube.value;
    const cube = el("g", { "aria-label": `cube ${opts.cube.value}, ${opts.cube.owner === "centre" ? "centred" : opts.cube.owner === "x" ? "yours" : "theirs"}` }, svg);
    el("rect", { x: edge + 4, y, width: 36, height: 36, rx: 4, fill: "#fff", stroke: "#111", "stroke-width": 2 }, cube);
    text(cube, edge + 22, y + 24, String(value), { "font-size": 16, "font-weight": 700, fill: "#111" });
  }
  if (opts.names) {
    // Between the two middle point numbers: a name is cut to what fits there.
    const short = (n) => (n.length > 9 ? n.slice(0, 8) + "…" : n);
    text(svg, barX + barW / 2, H - 9, short(opts.names[0]), { fill: "#f7f3ea", "font-size": 13 });
    text(svg, barX + barW / 2, edge - 10, short(opts.names[1]), { fill: "#ccc", "font-size": 13 });
  }
  holder.replaceChildren(svg);
}

// ---------------------------------------------------------------- steps on the board
// A play's steps, one die each (`24/18*`, `18/13`, `bar/22`, `3/off`; its text is gnubg's,
// `24/13`); a click on a checker then on where it goes makes one step, matched against the
// legal plays.
function stepsOf(m) {
  return m.steps.map((s) => s.replace("*", ""));
}
// What is left of a play's steps once a checker has gone from `from` to `to`, by one
// step or a chain of them (20/14 14/9 for 20 to 9); null when the play has no such move.
function consume(steps, from, to) {
  for (let i = 0; i < steps.length; i++) {
    const [a, b] = steps[i].split("/");
    if (a !== String(from)) continue;
    const rest = steps.slice(0, i).concat(steps.slice(i + 1));
    if (b === String(to)) return rest;
    if (b !== "off") {
      const further = consume(rest, b, to);
      if (further) return further;
    }
  }
  return null;
}
function leftOf(m, moves) {
  let steps = stepsOf(m);
  for (const [from, to] of moves) {
    steps = consume(steps, from, to);
    if (!steps) return null;
  }
  return steps;
}
// Moves one checker of x in a local copy of the board (hitting a lone one of o).
function applyStep(rules, pos, from, to) {
  const P = rules.points;
  const x = pos.x.slice(), o = pos.o.slice();
  x[from === "bar" ? P : from - 1] -= 1;
  if (to !== "off") {
    x[to - 1] += 1;
    const theirs = P - to;
    if (o[theirs] === 1) { o[theirs] = 0; o[P] += 1; }
  }
  return { x, o };
}
function makeEntry(getPlays, getPos, getRules, redraw, commit) {
  const entry = { from: null, steps: [], pos: null };
  entry.reset = () => { entry.from = null; entry.steps = []; entry.pos = null; };
  entry.click = (target) => {
    const plays = getPlays();
    if (!plays || !plays.length) return false;
    const rules = getRules();
    const pos = entry.pos || parsePosition(rules, getPos());
    if (entry.from === null) {
      const has = target === "bar" ? pos.x[rules.points] > 0 : target !== "off" && pos.x[target - 1] > 0;
      if (!has) { say("Pick one of your checkers first."); return true; }
      entry.from = target; say(""); redraw(entry); return true;
    }
    if (target === entry.from) { entry.from = null; redraw(entry); return true; }
    const tried = entry.steps.concat([[entry.from, target]]);
    const shown = tried.map(([a, b]) => `${a}/${b}`).join(" ");
    const fits = plays.filter((m) => leftOf(m, tried));
    if (!fits.length) { say(`${entry.from}/${target} is not a move of a legal play.`); entry.from = null; redraw(entry); return true; }
    entry.steps = tried;
    entry.pos = applyStep(rules, pos, entry.from, target);
    entry.from = null;
    const done = fits.find((m) => leftOf(m, tried).length === 0);
    if (done) { entry.reset(); say(""); commit(done); } else { say(`${shown} …`); redraw(entry); }
    return true;
  };
  return entry;
}

// ---------------------------------------------------------------- the app
const app = { variants: [], variant: null, rules: null, cube: false, position: null, plays: null, hint: null };

function variantInfo(name) { return app.variants.find((v) => v.variant === name); }

function rollsOf(rules) {
  const out = [];
  rules.faces.forEach((a, i) => rules.faces.slice(i).forEach((b) => out.push(`${a}-${b}`)));
  return out;
}

function chooseVariant(name) {
  const v = variantInfo(name);
  if (!v) return false;
  app.variant = v.variant; app.rules = v.rules; app.cube = v.cube;
  $("variant").value = v.variant;
  const dice = $("dice");
  dice.replaceChildren(new Option("— pick —", ""), ...rollsOf(v.rules).map((r) => new Option(r, r)));
  return true;
}

// Shows `textIn` (notation, Position ID, XGID or index) with `roll`: true when it is a
// position of the variant. A bad one is named in the message, the input marked, and the
// last good board stays as it was.
async function setPosition(textIn, roll) {
  let looked;
  try {
    looked = await gammon("show", { position: textIn });
  } catch (e) {
    $("position-input").value = textIn;
    $("position-input").setAttribute("aria-invalid", "true");
    say(`Not a position of ${app.variant}: ${e.message}${app.position ? ` (the board still shows ${app.position})` : ""}`);
    return false;
  }
  $("position-input").removeAttribute("aria-invalid");
  try {
    app.position = looked.position;
    app.plays = null; app.hint = null; boardEntry.reset();
    $("position-input").value = looked.position;
    const facts = $("looked");
    facts.replaceChildren();
    const fact = (k, v, id) => {
      const dt = document.createElement("dt"); dt.textContent = k;
      const dd = document.createElement("dd"); dd.textContent = v; if (id) dd.id = id;
      facts.append(dt, dd);
    };
    fact("Position", looked.position, "fact-position");
    if (looked.position_id) fact("Position ID", looked.position_id, "fact-position-id");
    if (looked.xgid) fact("XGID", looked.xgid, "fact-xgid");
    fact("Index", String(looked.index));
    fact("Pips", `${looked.pips[0]} (on roll) – ${looked.pips[1]}`);
    $("dice").value = sortedRoll(roll);
    say("");
    updateLink();
    drawAnalysis();
    await Promise.all([showEquity(), showPlays()]);
  } catch (e) { fail(e); }
  return true;
}

function drawAnalysis(entry) {
  const pos = (entry && entry.pos) || parsePosition(app.rules, app.position);
  const roll = $("dice").value;
  drawBoard($("board-holder"), app.rules, pos, {
    dice: roll ? roll.split("-") : null,
    cube: boardCube(),
    label: `board: ${app.position}`,
    names: ["on roll", "opponent"],
    selected: entry ? entry.from : null,
    onClick: (target, e) => $("edit-mode").checked ? edit(target, e) : boardEntry.click(target),
  });
}

// The cube drawn on the Board tab: at a match score the one chosen there, in money play
// the cube state the equities are asked for.
function boardCube() {
  const at = atScore();
  if (at) {
    const value = Number($("score-cube").value);
    return { value, owner: value === 1 ? "centre" : $("score-owner").value === "on-roll" ? "x" : "o" };
  }
  return app.cube ? { value: 1, owner: { centred: "centre", owned: "x", opponent: "o" }[$("equity-cube").value] } : null;
}

// The match score chosen on the Board tab as the API's parameters (`score` as the points
// each side needs, the side on roll first), or null for money play.
function atScore() {
  if ($("score-mode").value !== "match") return null;
  const params = { score: `${$("score-a").value}-${$("score-b").value}` };
  if ($("score-crawford").checked) params.crawford = "true";
  const cube = $("score-cube").value;
  if (cube !== "1") { params.cube = cube; params.owner = $("score-owner").value; }
  return params;
}

function scoreChanged() {
  document.body.classList.toggle("at-score", $("score-mode").value === "match");
  $("score-tools").hidden = $("score-mode").value !== "match";
  $("score-owner").disabled = $("score-cube").value === "1";
  if (!app.position) return;
  drawAnalysis();
  showEquity();
  showPlays();
}

function edit(target, e) {
  const rules = app.rules, P = rules.points;
  const pos = parsePosition(rules, app.position);
  const side = document.querySelector('input[name="edit-side"]:checked').value;
  const remove = e.shiftKey;
  if (target === "off") return;
  const index = target === "bar" ? P : side === "x" ? target - 1 : P - target;
  const counts = pos[side];
  if (remove) {
    if (!counts[index]) return say("No checker of that side there.");
    counts[index] -= 1;
  } else {
    if (inPlay(counts) >= rules.checkers) return say(`All ${rules.checkers} checkers of that side are on the board: Shift-click one away first.`);
    counts[index] += 1;
  }
  const t = positionText(rules, pos);
  // Positions the variant does not allow (both sides on a point, a side with none) are
  // drawn but not sent until they are legal.
  app.position = t; $("position-input").value = t;
  drawAnalysis();
  gammon("show", { position: t }).then(() => setPosition(t), (err) => say(err.message));
}

// Each question asked anew drops the answers of the earlier ones still on their way.
const latest = { equity: 0, plays: 0 };

async function showEquity() {
  const holder = $("equity-holder");
  const at = atScore();
  const asked = ++latest.equity;
  const show = (node) => { if (asked === latest.equity) holder.replaceChildren(node); };
  try {
    if (at) {
      show(scoreEquityTable(await gammon("equity", Object.assign({ position: app.position }, at))));
      return;
    }
    const params = { position: app.position, cube: $("equity-cube").value };
    if ($("jacoby").checked) params.jacoby = "true";
    show(equityTable(await gammon("equity", params)));
  } catch (err) { show(document.createTextNode(err.message)); }
}

function equityTable(e, name) {
  const wrap = document.createElement("div");
  const rows = [
    ["Cubeless equity", signed(e.equity), "equity-value", e.equity],
    ["Win", percent(e.outcomes.win)], ["Win a gammon", percent(e.outcomes.win_gammon)],
    ["Win a backgammon", percent(e.outcomes.win_backgammon)], ["Lose", percent(e.outcomes.lose)],
    ["Lose a gammon", percent(e.outcomes.lose_gammon)], ["Lose a backgammon", percent(e.outcomes.lose_backgammon)],
  ];
  if (e.cubeful) {
    rows.push(["No double, cube owned", signed(e.cubeful.owned)], ["No double, centred", signed(e.cubeful.centred)],
      ["No double, centred (Jacoby)", signed(e.cubeful.centred_jacoby)], ["No double, opponent owns", signed(e.cubeful.opponent_owns)]);
  }
  const dl = document.createElement("dl"); dl.className = "facts";
  for (const [k, v, id, raw] of rows) {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    if (id) { dd.id = id; dd.dataset.value = String(raw); }
    dl.append(dt, dd);
  }
  wrap.append(dl);
  const action = document.createElement("p");
  action.className = "action"; action.id = "cube-action";
  if (e.cube) {
    action.textContent = `Cube (${e.cube.state.replace("_", " ")}): ${e.cube.action || "no access"} — no double ${signed(e.cube.no_double)}, double/take ${signed(e.cube.double_take)}, double/pass ${signed(e.cube.double_pass)}`;
    action.dataset.action = e.cube.action || "";
  } else {
    action.textContent = name ? `${name} has no cube.` : `No cube table for ${app.variant}: run \`tabula gammon build --variant ${app.variant}\` for cubeful equities.`;
  }
  wrap.append(action);
  return wrap;
}

// The equity at a match score: the match-winning chance, and the cube's decision where
// the side on roll may double.
function scoreEquityTable(e) {
  const wrap = document.createElement("div");
  const dl = document.createElement("dl"); dl.className = "facts";
  const fact = (k, v, id, raw) => {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    if (id) { dd.id = id; dd.dataset.value = String(raw); }
    dl.append(dt, dd);
  };
  fact("Score", `on roll needs ${e.score.on_roll}, opponent ${e.score.opponent} (${e.score.game.replace(/_/g, " ")} game)`);
  fact("Cube", e.cube.value === 1 ? "1, centred" : `${e.cube.value}, ${e.cube.owner === "on_roll" || e.cube.owner === "on-roll" ? "the side on roll’s" : "the opponent’s"}`);
  fact("Match-winning chance", percent(e.mwc), "mwc-value", e.mwc);
  wrap.append(dl);
  const action = document.createElement("p");
  action.className = "action"; action.id = "cube-action";
  const c = e.cube_action;
  if (c) {
    action.textContent = `Cube: ${c.action} — no double ${percent(c.no_double)}, double/take ${percent(c.double_take)}, double/pass ${percent(c.double_pass)}`;
    action.dataset.action = c.action;
  } else {
    action.textContent = "Cube: no access (the opponent owns it, the Crawford game, or it is dead)";
    action.dataset.action = "";
  }
  wrap.append(action);
  return wrap;
}

async function showPlays() {
  const holder = $("plays-holder");
  const roll = $("dice").value;
  holder.replaceChildren();
  app.plays = null;
  updateLink();
  drawAnalysis();
  const asked = ++latest.plays;
  if (!roll) return;
  try {
    const params = { position: app.position, roll };
    const cube = $("hint-cube").value;
    const at = atScore();
    if (cube && !at) params.cube = cube;
    const h = await gammon("hint", Object.assign(params, at || {}));
    // A play made on the board is matched by its steps, which the money answer lists.
    const plays = at ? (await gammon("hint", { position: app.position, roll })).moves : h.moves;
    if (asked !== latest.plays) return;
    app.hint = h; app.plays = plays;
    holder.replaceChildren(playsTable(h.moves, true, (m) => makePlay(m)));
    if (!h.moves.length) holder.textContent = `${roll}: no legal move.`;
  } catch (err) { if (asked === latest.plays) holder.textContent = err.message; }
}

// The plays ranked: with `numbers`, each one's equity (or match-winning chance at a
// score), its chances and what it loses; the columns marked `opt` give way on a phone.
function playsTable(moves, numbers, choose, id) {
  const table = document.createElement("table");
  table.id = id || (numbers ? "plays" : "game-plays-table");
  table.className = "plays";
  const head = table.createTHead().insertRow();
  const cubeful = moves.some((m) => m.cubeful !== undefined);
  const atScore = moves.some((m) => m.mwc !== undefined);
  const columns = !numbers ? [["#"], ["Play"]] : atScore
    ? [["#"], ["Play"], ["Match-winning chance", "value"], ["Loss", "loss"]]
    : [["#"], ["Play"], ["Equity", "value"], ...(cubeful ? [["Cubeful"]] : []), ["Win", "opt"], ["Gammon", "opt"], ["Backgammon", "opt"], ["Loss", "loss"]];
  for (const [t, kind] of columns) { const th = document.createElement("th"); th.textContent = t; if (kind === "opt") th.className = "opt"; head.append(th); }
  const body = table.createTBody();
  moves.forEach((m, i) => {
    const tr = body.insertRow();
    tr.tabIndex = 0;
    tr.dataset.play = m.play;
    tr.setAttribute("aria-label", `play ${i + 1}: ${m.play}`);
    const cells = !numbers ? [String(i + 1), m.play] : atScore
      ? [String(i + 1), m.play, percent(m.mwc), (-100 * m.loss).toFixed(4) + "%"]
      : [String(i + 1), m.play, signed(m.equity), ...(cubeful ? [signed(m.cubeful)] : []),
        percent(m.outcomes.win), percent(m.outcomes.win_gammon), percent(m.outcomes.win_backgammon), (-m.loss).toFixed(6)];
    cells.forEach((c, k) => {
      const td = tr.insertCell(); td.textContent = c;
      const kind = numbers && columns[k][1];
      if (kind === "value") { td.className = "play-equity"; td.dataset.value = String(atScore ? m.mwc : m.equity); }
      if (kind === "opt") td.className = "opt";
      if (kind === "loss") td.className = "play-loss";
    });
    tr.addEventListener("click", () => choose(m));
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(m); } });
  });
  return table;
}

function makePlay(m) {
  const mover = m.position.split("/")[0];
  if (mover === "") { say(`${m.play} bears off the last checker${m.equity !== undefined ? `: it wins ${m.equity} point(s)` : " and wins the game"}.`); return; }
  setPosition(swapped(m.position));
}

const boardEntry = makeEntry(() => app.plays, () => app.position, () => app.rules, (entry) => drawAnalysis(entry), (m) => makePlay(m));

function updateLink() {
  const params = new URLSearchParams({ variant: app.variant, position: app.position || "" });
  const roll = $("dice").value;
  if (roll) params.set("roll", roll);
  for (const [k, v] of Object.entries(atScore() || {})) params.set(k, v);
  const hash = "#" + params.toString();
  $("link").href = location.pathname + hash;
  if (!$("tab-board").hidden) writeHash(hash);
}

// The address bar's hash, written by the page for the tab shown (the Board's or the
// Bear-off's); remembered so that the page does not follow its own change.
function writeHash(hash) {
  app.hash = hash;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// The score controls as a link's parameters set them (`score=A-B`, `crawford`, `cube`,
// `owner`): money play without `score`.
function scoreFrom(wanted) {
  const score = /^(\d+)-(\d+)$/.exec(wanted.get("score") || "");
  $("score-mode").value = score ? "match" : "";
  if (score) { $("score-a").value = score[1]; $("score-b").value = score[2]; }
  $("score-crawford").checked = wanted.get("crawford") === "true";
  $("score-cube").value = wanted.get("cube") || "1";
  if (wanted.get("owner")) $("score-owner").value = wanted.get("owner");
  document.body.classList.toggle("at-score", !!score);
  $("score-tools").hidden = !score;
  $("score-owner").disabled = $("score-cube").value === "1";
}

// The link's hash drives the page: a hash typed or pasted in the address bar (or a link
// followed) sets the variant, the position and the dice; the page writes its own back.
async function followHash() {
  if (location.hash === app.hash) return;
  const wanted = new URLSearchParams(location.hash.slice(1));
  if (wanted.has("bearoff")) return followBearoff(wanted);
  if (!app.variants.length) return;
  const name = wanted.get("variant");
  if (name && !variantInfo(name)) return say(`No table for the variant ${name} in this server's folder.`);
  if (name && name !== app.variant) chooseVariant(name);
  showTab("board", true);
  scoreFrom(wanted);
  await setPosition(wanted.get("position") || variantInfo(app.variant).opening, wanted.get("roll") || "");
}

// A roll as the dice list it: the smaller die first (`6-5` is `5-6`).
function sortedRoll(roll) {
  const dice = (roll || "").split("-").map(Number);
  if (dice.length !== 2 || dice.some((d) => !Number.isInteger(d))) return "";
  return dice[0] <= dice[1] ? `${dice[0]}-${dice[1]}` : `${dice[1]}-${dice[0]}`;
}

function randomRoll(rules, random) {
  const f = rules.faces;
  const a = f[Math.floor(random() * f.length)], b = f[Math.floor(random() * f.length)];
  return a <= b ? `${a}-${b}` : `${b}-${a}`;
}
const cryptoRandom = () => crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32;

// ---------------------------------------------------------------- the game
// The human plays X against the tables' perfect play (as `tabula gammon play --cube`):
// tabula doubles when its decision is "double, take" or "double, pass", takes when the
// human's double/take equity is at most 1, and plays its best cubeful play.
let game = null;

function seeded(seed) { // mulberry32: the dice of a seed, the same in every browser
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.state = () => s;
  next.restore = (v) => { s = v; };
  return next;
}

function cubeStateFor(who) {
  if (!game.cube) return null;
  if (game.cube.owner === "centre") return "centred";
  return game.cube.owner === who ? "owned" : "opponent";
}
const canDouble = (who) => game.cube && !(game.match && game.match.crawford) && (game.cube.owner === "centre" || game.cube.owner === who);

// A question about the game from `who`'s side: in money play its cube state, in a match
// the score (the points each side needs, `who` first), the Crawford game, the cube.
function stakes(who) {
  if (!game.match) return game.cube ? { cube: cubeStateFor(who) } : {};
  const m = game.match, need = (i) => m.length - m.score[i];
  const [mine, theirs] = who === "human" ? [need(0), need(1)] : [need(1), need(0)];
  const params = { score: `${mine}-${theirs}` };
  if (m.crawford) params.crawford = "true";
  if (game.cube && game.cube.value > 1) { params.cube = String(game.cube.value); params.owner = game.cube.owner === who ? "on-roll" : "opponent"; }
  return params;
}

// The plays of a roll ranked for `who`'s stakes; at a score each one's steps are taken
// from the money answer (the same plays), for the board and the record.
async function rankedFor(who, roll) {
  const h = await gammonOf(game.variant, "hint", Object.assign({ position: game.position, roll }, stakes(who)));
  if (game.match && h.moves.length) {
    const plain = await gammonOf(game.variant, "hint", { position: game.position, roll });
    const same = new Map(plain.moves.map((m) => [m.position, m]));
    for (const m of h.moves) {
      const p = same.get(m.position);
      // Its steps, and for a play that ends the game its cubeless equity: the points won.
      m.steps = p ? p.steps : [];
      if (p) m.equity = p.equity;
    }
  }
  return h;
}

// The cube's decision for `who`: the equity's, in money play or at the score.
async function cubeFor(who) {
  const e = await gammonOf(game.variant, "equity", Object.assign({ position: game.position }, stakes(who)));
  const c = game.match ? e.cube_action : e.cube;
  return c ? { action: c.action, noDouble: c.no_double, take: c.double_take, pass: c.double_pass, money: !game.match } : null;
}
const shown = (c, x) => (c.money ? signed(x) : percent(x));

function log(line) {
  game.log.push(line);
  const li = document.createElement("li"); li.textContent = line;
  $("game-log").append(li);
}

// The game's actions (0 the person, 1 tabula), for the review after the game: `double`,
// `take`, `drop`, or a roll and the steps of its play (none when there is no move).
function note(player, act) { game.record.push({ player, act }); }
const rolled = (roll, m) => ({ roll, steps: m ? stepsOf(m) : [] });

function snapshot() {
  const copy = JSON.parse(JSON.stringify(Object.assign({}, game, { snapshots: [], rngState: game.rng.state() })));
  game.snapshots.push(copy);
}

async function newGame() {
  const info = variantInfo($("variant").value);
  if (!info) return say("No table to play on: build one (docs/serve.md).");
  const useCube = $("game-cube").checked && info.cube;
  if ($("game-cube").checked && !info.cube) say(`${info.variant} has no cube table: a cubeless game.`);
  const seedText = $("game-seed").value.trim();
  const seed = seedText ? Number(seedText) : Math.floor(cryptoRandom() * 2 ** 32);
  // A game of a match: its length, each side's points before it, and whether it is the
  // Crawford game (no double in it).
  const length = Number($("game-length").value || "0");
  let match = null;
  if (length > 0) {
    const you = Number($("game-you").value || "0"), them = Number($("game-them").value || "0");
    if (!(you < length && them < length)) return say(`In a match to ${length} each side has fewer than ${length} points before a game.`);
    const crawford = $("game-crawford").checked;
    if (crawford && you !== length - 1 && them !== length - 1) return say("The Crawford game is the first game once a side needs one point.");
    match = { length, score: [you, them], crawford };
  }
  // The cube the game starts from: centred at 1, or turned already to a value a side owns
  // (as the Board tab's cube at a score), the game going on from there.
  const value = Number($("game-cube-value").value);
  if (value > 1 && !useCube) return say(`A game from a cube of ${value} is a game with the cube: tick “with the doubling cube”${info.cube ? "" : ` (and build ${info.variant}'s cube table)`}.`);
  if (value > 1 && match && match.crawford) return say("In the Crawford game the cube stays at 1: nobody may double.");
  const cube = !useCube ? null : value > 1 ? { value, owner: $("game-cube-owner").value } : { value: 1, owner: "centre" };
  game = {
    variant: info.variant, rules: info.rules, position: info.opening, turn: $("game-second").checked ? "tabula" : "human",
    cube, start: cube && cube.value > 1 ? Object.assign({}, cube) : null, phase: "", dice: null, plays: null, over: null, log: [], snapshots: [],
    seed, rng: seeded(seed), record: [], hinted: false, match,
  };
  $("game-advice").textContent = "";
  $("game-log").replaceChildren();
  const at = match ? `, a match to ${length} at ${match.score[0]}-${match.score[1]} (you first)${match.crawford ? ", the Crawford game" : ""}` : "";
  const from = game.start ? `, the cube at ${value}, ${game.start.owner === "human" ? "yours" : "tabula’s"}` : "";
  log(`New game of ${info.title}${useCube ? " with the cube" : ""}${from}${at} (seed ${seed}).`);
  await advance();
}

async function advance() {
  if (game.over) return renderGame();
  if (game.turn === "tabula") return tabulaTurn();
  game.phase = "decide"; game.dice = null; game.plays = null; game.hinted = false;
  $("game-advice").textContent = "";
  snapshot();
  renderGame();
}

// While the server answers, nothing can be pressed twice.
function busy() { game.phase = "thinking"; renderGame(); }

async function humanRoll(rollText) {
  busy();
  game.dice = rollText || randomRoll(game.rules, game.rng);
  const h = await rankedFor("human", game.dice);
  if (!h.moves.length) {
    log(`You roll ${game.dice}: no legal move.`);
    note(0, rolled(game.dice));
    return passTurn("tabula", swapped(game.position));
  }
  game.phase = "move"; game.plays = h.moves; game.hinted = false;
  $("game-advice").textContent = "";
  snapshot();
  renderGame();
}

async function humanPlay(m) {
  busy();
  gameEntry.reset();
  log(`You roll ${game.dice} and play ${m.play}.`);
  note(0, rolled(game.dice, m));
  if (m.position.split("/")[0] === "") { game.position = m.position; return finish("human", m.equity); }
  await passTurn("tabula", swapped(m.position));
}

async function humanDouble() {
  busy();
  const c = await cubeFor("human");
  note(0, "double");
  // tabula takes when taking leaves the person no more than passing would.
  if (c.take <= c.pass) {
    note(1, "take");
    game.cube = { value: game.cube.value * 2, owner: "tabula" };
    log(`You double to ${game.cube.value}; tabula takes.`);
    game.phase = "decide";
    snapshot();
    renderGame();
  } else {
    log(`You double; tabula passes.`);
    note(1, "drop");
    game.over = { winner: "human", points: game.cube.value, passed: true };
    renderGame();
  }
}

async function tabulaTurn() {
  game.phase = "thinking"; renderGame();
  if (canDouble("tabula")) {
    const c = await cubeFor("tabula");
    if (c && (c.action === "double, take" || c.action === "double, pass")) {
      log(`tabula doubles to ${game.cube.value * 2}.`);
      note(1, "double");
      game.phase = "offer";
      snapshot();
      return renderGame();
    }
  }
  await tabulaRollAndPlay();
}

async function humanTake() {
  busy();
  game.cube = { value: game.cube.value * 2, owner: "human" };
  log(`You take: the cube is ${game.cube.value}, yours.`);
  note(0, "take");
  await tabulaRollAndPlay();
}

function humanPass() {
  log("You pass.");
  note(0, "drop");
  game.over = { winner: "tabula", points: game.cube.value, passed: true };
  renderGame();
}

async function tabulaRollAndPlay() {
  game.phase = "thinking";
  const roll = randomRoll(game.rules, game.rng);
  const h = await rankedFor("tabula", roll);
  if (!h.moves.length) {
    log(`tabula rolls ${roll}: no legal move.`);
    note(1, rolled(roll));
    return passTurn("human", swapped(game.position));
  }
  const best = h.moves[0];
  log(`tabula rolls ${roll} and plays ${best.play}.`);
  note(1, rolled(roll, best));
  game.lastTabula = { roll };
  if (best.position.split("/")[0] === "") { game.position = best.position; return finish("tabula", best.equity); }
  await passTurn("human", swapped(best.position));
}

async function passTurn(who, position) {
  game.turn = who; game.position = position;
  await advance();
}

function finish(winner, points) {
  game.dice = null;
  const value = game.cube ? game.cube.value : 1;
  game.over = { winner, points: points * value, kind: ["", "a single game", "a gammon", "a backgammon"][points] };
  renderGame();
}

function undo() {
  if (!game || !game.snapshots.length) return;
  if (!game.over) game.snapshots.pop();
  const back = game.snapshots[game.snapshots.length - 1];
  if (!back) return;
  const snapshots = game.snapshots, rng = game.rng;
  game = Object.assign(JSON.parse(JSON.stringify(back)), { snapshots, rng });
  rng.restore(back.rngState);
  game.log = back.log.slice();
  $("game-log").replaceChildren(...game.log.map((l) => { const li = document.createElement("li"); li.textContent = l; return li; }));
  log("(undone)"); game.log.pop();
  gameEntry.reset();
  renderGame();
}

function gammonOf(variant, question, params) {
  return api(`/api/gammon/${encodeURIComponent(variant)}/${question}`, params);
}

function renderGame(entry) {
  if (!game) return;
  const human = game.turn === "human";
  const view = human ? game.position : swapped(game.position);
  const pos = (entry && entry.pos) || parsePosition(game.rules, view);
  const cube = game.cube && { value: game.cube.value, owner: game.cube.owner === "centre" ? "centre" : game.cube.owner === "human" ? "x" : "o" };
  drawBoard($("game-board"), game.rules, pos, {
    dice: game.dice && human ? game.dice.split("-") : null, cube, names: ["you", "tabula"], label: `game board: ${view}`,
    selected: entry ? entry.from : null,
    onClick: (target) => { if (game.phase === "move") gameEntry.click(target); },
  });
  const status = $("game-status");
  const phase = game.over ? "over" : game.phase;
  if (game.over) {
    const o = game.over;
    let after = "";
    if (game.match) {
      const m = game.match, won = o.winner === "human" ? 0 : 1;
      const score = m.score.slice(); score[won] = Math.min(m.length, score[won] + o.points);
      after = score[won] >= m.length ? ` ${won === 0 ? "You win" : "tabula wins"} the match to ${m.length}, ${score[0]}-${score[1]}.` : ` The score is now ${score[0]}-${score[1]} (you first) in a match to ${m.length}.`;
    }
    status.textContent = `Game over: ${o.winner === "human" ? "you win" : "tabula wins"} ${o.points} point${o.points === 1 ? "" : "s"}${o.passed ? " (a double passed)" : o.kind ? ` (${o.kind}${game.cube && game.cube.value > 1 ? `, cube ${game.cube.value}` : ""})` : ""}.${after}`;
  } else if (phase === "decide") {
    const m = game.match;
    const at = m ? ` (${m.score[0]}-${m.score[1]} in a match to ${m.length}${m.crawford ? ", the Crawford game" : ""})` : "";
    const c = game.cube;
    const cube = c && c.value > 1 ? ` The cube is at ${c.value}, ${c.owner === "human" ? "yours" : "tabula’s"}.` : "";
    status.textContent = (canDouble("human") ? "Your turn: roll, or double." : "Your turn: roll.") + at + cube;
  } else if (phase === "move") {
    status.textContent = `You rolled ${game.dice}: choose a play (click it below, or a checker then where it goes).`;
  } else if (phase === "offer") {
    status.textContent = `tabula doubles to ${game.cube.value * 2}: take or pass?`;
  } else {
    status.textContent = "tabula is thinking…";
  }
  status.dataset.phase = phase;
  $("game-roll").disabled = phase !== "decide";
  $("game-double").disabled = !(phase === "decide" && canDouble("human"));
  $("game-take").disabled = phase !== "offer";
  $("game-pass").disabled = phase !== "offer";
  $("game-undo").disabled = game.snapshots.length < (game.over ? 1 : 2);
  $("game-to-board").disabled = !!game.over;
  $("game-hint").disabled = !(phase === "decide" || phase === "move");
  $("game-review").disabled = !(game.over && reviewable());
  if (phase !== "move" && phase !== "decide") $("game-advice").textContent = game.over && !reviewable() ? "The review after the game reads Hypergammon games played with the cube." : "";
  const holder = $("game-plays");
  holder.replaceChildren();
  if (phase === "move" && game.plays) {
    const table = playsTable(game.plays, $("game-analysis").checked || game.hinted, (m) => guard(humanPlay(m)), "game-plays-table");
    if (game.hinted && table.tBodies[0].rows[0]) table.tBodies[0].rows[0].classList.add("best");
    holder.append(table);
  }
}

// The hint: before the roll, the cube action for the person's cube state; after it, the
// plays ranked (the table's best first, marked), as the Board tab shows them.
async function gameHint() {
  if (game.phase === "move") {
    game.hinted = true;
    const best = game.plays[0];
    const value = best.mwc !== undefined ? `match-winning chance ${percent(best.mwc)}` : signed(best.cubeful !== undefined ? best.cubeful : best.equity);
    $("game-advice").textContent = `Hint: ${best.play} is best (${value}).`;
    return renderGame();
  }
  if (game.cube && game.cube.owner === "tabula") { $("game-advice").textContent = "Hint: the cube is tabula’s: roll."; return; }
  const c = canDouble("human") ? await cubeFor("human") : null;
  $("game-advice").textContent = c
    ? `Hint: ${c.action || "no access to the cube"} (no double ${shown(c, c.noDouble)}, double/take ${shown(c, c.take)}, double/pass ${shown(c, c.pass)}).`
    : "Hint: no cube decision in this game: roll.";
}

// A game the review reads: Hypergammon with the cube (from the cube at 1, or from the
// cube the game started from, which the file sets as gnubg does: `CV`, `CP`).
const reviewable = () => game && game.cube && /^hyper[123]$/.test(game.variant);

// The finished game as gnubg's .sgf (the person W, player 0; tabula B), reviewed by the
// server as any match file is. Its rules say whether a game at a side's match point is
// the Crawford game (`RU[Crawford:CrawfordGame:…]`) or one after it (`RU[Crawford:…]`),
// which a .mat file cannot: the reader takes a lone game there for the Crawford game.
// A step's points are the mover's, a-x for 1-24 (player 1's counted from x down), y the
// bar, z off; the dice the higher first, as gnubg writes them. A game from a turned cube
// sets it before the first action, as gnubg's `set cube value` and `set cube owner` do:
// `;CV[4]` then `;CP[w]` (the person's) or `;CP[b]` (tabula's).
function gameSgf() {
  const n = /^hyper([123])$/.exec(game.variant)[1];
  const m = game.match;
  const rules = (m ? (m.crawford ? "Crawford:CrawfordGame:" : "Crawford:") : "") + `Hypergammon${n}`;
  const point = (player, p) => (p === "bar" ? "y" : p === "off" ? "z" : String.fromCharCode(player === 0 ? 96 + Number(p) : 121 - Number(p)));
  const value = (player, act) => (typeof act === "string" ? act
    : act.roll.split("-").reverse().join("") + act.steps.map((s) => s.split("/").map((p) => point(player, p)).join("")).join(""));
  const o = game.over;
  const root = `(;FF[4]GM[6]CA[UTF-8]AP[tabula]MI[length:${m ? m.length : 0}][game:0][ws:${m ? m.score[0] : 0}][bs:${m ? m.score[1] : 0}]` +
    `PW[you]PB[tabula]RU[${rules}]RE[${o.winner === "human" ? "W" : "B"}+${o.points}]`;
  const start = game.start ? [`;CV[${game.start.value}]`, `;CP[${game.start.owner === "human" ? "w" : "b"}]`] : [];
  return [root, ...start, ...game.record.map((r) => `;${"WB"[r.player]}[${value(r.player, r.act)}]`)].join("\n") + ")\n";
}

async function reviewGame() {
  const text = gameSgf();
  showTab("review");
  $("review-file").value = "";
  $("review-text").value = text;
  await analyseFile(text);
}

const gameEntry = makeEntry(() => game && game.plays, () => game.position, () => game.rules, (entry) => renderGame(entry), (m) => guard(humanPlay(m)));

async function guard(promise) {
  try { await promise; } catch (e) { fail(e); }
}

// ---------------------------------------------------------------- a match file reviewed
// The file is sent to the server (POST /api/gammon/analyse), which answers with the
// document of `tabula gammon analyse FILE --json`; the page lists its decisions and steps
// through them on the board. Nothing is judged here.
const review = { analysis: null, steps: [], at: 0 };

async function analyseFile(textIn) {
  $("review-status").textContent = "analysing…";
  $("review-status").dataset.state = "";
  $("review-view").hidden = true;
  const response = await fetch("/api/gammon/analyse", { method: "POST", body: textIn, headers: { "content-type": "text/plain; charset=utf-8" } });
  const body = await response.json();
  if (!response.ok) {
    $("review-status").textContent = body.error || response.statusText;
    $("review-status").dataset.state = "error";
    return null;
  }
  showReview(body);
  return body;
}

// The rules of the variant reviewed: the served table's, else Hypergammon's own.
function rulesOf(name) {
  const info = variantInfo(name);
  if (info) return info.rules;
  // A backgammon file's bear-offs (the server judges them with its two-sided tables).
  if (name === "backgammon") return { points: 24, checkers: 15, faces: [1, 2, 3, 4, 5, 6] };
  const hyper = /^hyper([123])$/.exec(name);
  return hyper ? { points: 24, checkers: Number(hyper[1]), faces: [1, 2, 3, 4, 5, 6] } : null;
}

// What an XGID says beside the position: the cube (its value and owner, seen from the
// side on roll), the dice, and the score.
function xgidFacts(x) {
  const f = x.replace(/^XGID=/, "").split(":");
  const owner = { "0": "centre", "1": "x", "-1": "o" }[f[2]] || "centre";
  const dice = /^[1-6][1-6]$/.test(f[4]) ? [f[4][0], f[4][1]] : null;
  return { cube: { value: 2 ** Number(f[1] || 0), owner }, dice, doubled: f[4] === "D", score: [Number(f[5]), Number(f[6])], length: Number(f[8]) };
}

const MARKS = { doubtful: "?!", bad: "?", very_bad: "??" };
function lossText(a, loss) {
  return a.measure === "chance" ? (100 * loss).toFixed(4) + "%" : loss.toFixed(6);
}

function showReview(a) {
  review.analysis = a;
  review.steps = [];
  for (const g of a.games) for (const s of g.steps) {
    review.steps.push({ game: g, step: s, d: g.reviews[s.player].decisions[s.decision] });
  }
  const status = $("review-status");
  const kind = a.length ? `a match to ${a.length}` : "money play";
  // A backgammon file: its bear-offs, judged exactly by the tables named; the rest counted.
  const skipped = a.tables ? a.totals.reduce((n, t) => n + t.skipped, 0) : 0;
  const bearoffs = a.tables ? `; its bear-offs judged exactly by ${a.tables.join(", ")}${a.met ? ` (match equities: ${a.met})` : ""}, ${skipped} other decision(s) not judged` : "";
  status.textContent = `${a.variant} (${kind}): ${a.games.length} game(s), ${review.steps.length} decision(s) reviewed${bearoffs}` +
    (a.faults.length ? `; ${a.faults.length} fault(s) in the file, the rest analysed` : "");
  status.dataset.state = a.faults.length ? "faults" : "ok";
  $("review-faults").replaceChildren(...a.faults.map((f) => {
    const li = document.createElement("li");
    li.textContent = `${f.line ? `line ${f.line}: ` : ""}${f.game ? `game ${f.game}: ` : ""}${f.reason}`;
    return li;
  }));
  // Each player's totals.
  const table = document.createElement("table");
  table.id = "review-totals-table";
  const head = table.createTHead().insertRow();
  for (const [t, opt] of [["Player"], ["Decisions"], ["Plays", 1], ["Cube", 1], ["Lost"], ["Error rate"], ["??", 1], ["?", 1], ["?!", 1], ["Rating"]]) {
    const th = document.createElement("th"); th.textContent = t; if (opt) th.className = "opt"; head.append(th);
  }
  const body = table.createTBody();
  for (const t of a.totals) {
    const tr = body.insertRow();
    const cells = [[t.name], [String(t.decisions)], [String(t.plays), 1], [String(t.cube), 1], [t.normalised.toFixed(4)],
      [t.rate === null ? "–" : (1000 * t.rate).toFixed(1)], [String(t.marks[2]), 1], [String(t.marks[1]), 1], [String(t.marks[0]), 1],
      [t.rating ? t.rating.replace(/_/g, " ") : "–"]];
    for (const [c, opt] of cells) { const td = tr.insertCell(); td.textContent = c; if (opt) td.className = "opt"; }
  }
  const note = document.createElement("p");
  note.className = "hint";
  note.textContent = "Lost: normalised equity per unit of the cube; error rate in thousandths a decision; gnubg’s marks ?! over 0.03, ? over 0.06, ?? over 0.12.";
  $("review-totals").replaceChildren(table, note);
  // The decisions, in the order of the file.
  $("review-list").replaceChildren(...review.steps.map((r, i) => {
    const li = document.createElement("li");
    li.textContent = stepText(a, r);
    li.tabIndex = 0;
    li.dataset.step = String(i);
    if (r.d.loss > 0) li.className = "lost";
    li.addEventListener("click", () => showStep(i));
    li.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); showStep(i); } });
    return li;
  }));
  $("review-view").hidden = !review.steps.length;
  if (review.steps.length) showStep(0);
}

function stepText(a, r) {
  const who = a.totals[r.step.player].name;
  const what = r.d.kind === "play" ? `plays ${r.d.roll}` : r.d.kind === "cube" ? "cube" : "answer";
  const mark = r.d.mark ? ` ${MARKS[r.d.mark]}` : "";
  const lost = r.d.loss > 0 ? `; best ${r.d.best}, loses ${lossText(a, r.d.loss)}${mark}` : "";
  return `game ${r.game.number}, line ${r.step.line}: ${who} ${what}: ${r.d.chosen}${lost}`;
}

// Steps to decision `i`: the position decided on, from the decider's side (for an answer,
// the doubler's), with its dice and cube; the choice, the best and the loss below.
function showStep(i) {
  const a = review.analysis;
  if (!a || !review.steps.length) return;
  review.at = Math.max(0, Math.min(review.steps.length - 1, i));
  const r = review.steps[review.at];
  const rules = rulesOf(a.variant);
  const x = xgidFacts(r.step.xgid);
  const p = r.step.player;
  const onRoll = r.d.kind === "response" ? 1 - p : p;
  const names = [a.totals[onRoll].name, a.totals[1 - onRoll].name];
  const score = a.length ? ` · score ${names[0]} ${x.score[0]}, ${names[1]} ${x.score[1]} in a match to ${a.length}${r.game.crawford ? " (Crawford)" : ""}` : "";
  drawBoard($("review-board"), rules, parsePosition(rules, r.d.position), {
    dice: x.dice, cube: a.measure === "cubeless" ? null : x.cube, names, label: `review: ${r.d.position}`,
  });
  $("review-where").textContent = `${review.at + 1} / ${review.steps.length}`;
  $("review-step").textContent = stepText(a, r) + (r.d.loss > 0 ? "" : " (best)");
  $("review-step").dataset.loss = String(r.d.loss);
  $("review-xgid").textContent = `${r.step.xgid}${score}`;
  for (const li of $("review-list").children) li.setAttribute("aria-current", String(li.dataset.step === String(review.at)));
  const current = $("review-list").children[review.at];
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
  $("review-prev").disabled = nextStep(-1) === null;
  $("review-next").disabled = nextStep(1) === null;
}

// The next decision shown going `dir` (all of them, or those that lost).
function nextStep(dir) {
  const only = $("review-errors").checked;
  for (let i = review.at + dir; i >= 0 && i < review.steps.length; i += dir) {
    if (!only || review.steps[i].d.loss > 0) return i;
  }
  return null;
}

async function submitReview() {
  const file = $("review-file").files[0];
  let textIn = $("review-text").value;
  if (file) textIn = await file.text();
  if (!textIn.trim()) { $("review-status").textContent = "Choose a .sgf or .mat file, or paste one."; return; }
  await analyseFile(textIn);
}

// ---------------------------------------------------------------- the bear-off
// A position of a two-sided bear-off table (`6,5,3/4,2`, the side on roll first) drawn on
// the board, home boards only; its equity and cube action, and the plays of a roll ranked,
// from /api/bearoff/{table}/equity and hint. "Any race" asks /api/bearoff/race/…, which
// answers as `tabula bearoff equity` without --table: exact from a table of the folder
// (the 6x6, the 6x15), else the one-sided table's estimate, shown as one. A position the
// chosen table does not hold is asked as any race.
// At a match score (an XGID of a match typed, pasted or linked) `at` holds the score and
// the cube as the bear-off routes take them (`score`, `crawford`, `cube`, `owner`): the
// answers are then match-winning chances from the bear-off solved at the score, and a play
// made passes the score on, seen by the other side.
const bear = { tables: [], table: null, position: null, answer: null, at: null };
const RACE = { table: "race", database: "any race", kind: { points: 6, checkers: 15, two_sided: true, cube: true } };
const RACE_START = "6,6,6,5,5,5,4,4,4,3,3,2,2,1,1/6,6,6,5,5,5,4,4,4,3,3,2,2,1,1";
const ESTIMATE = "one-sided estimate";

async function bearoffTables(listing) {
  bear.tables = (listing.bearoff || []).filter((t) => t.kind.two_sided);
  // Any race of 6 points, when the folder holds a one-sided or a 6x15 table.
  if (listing.race && listing.race.points.includes(6)) bear.tables.push(RACE);
  const select = $("bearoff-table");
  select.replaceChildren(...bear.tables.map((t) => new Option(t === RACE ? "any race (6 points)" : `${t.database}${t.kind.cube ? "" : " (no cube)"}`, t.table)));
  if (!bear.tables.length) {
    $("bearoff-status").textContent = "No two-sided bear-off table in this folder: build one with `tabula bearoff build --points 6 --checkers 6 --two-sided`, then reload.";
    return;
  }
  const dice = $("bearoff-dice");
  dice.replaceChildren(new Option("— pick —", ""), ...rollsOf({ faces: [1, 2, 3, 4, 5, 6] }).map((r) => new Option(r, r)));
  return chooseBearoff(bear.tables[0].table);
}

function chooseBearoff(name) {
  useBearTable(bear.tables.find((t) => t.table === name) || bear.tables[0]);
  bear.position = null;
  return setBearoff(bearStart(bear.table));
}

// The table asked from now on, shown in its select, the cube state offered if it has one.
function useBearTable(table) {
  bear.table = table;
  $("bearoff-table").value = table.table;
  $("bearoff-cube").disabled = !table.kind.cube || !!bear.at;
}

// The route parameters of a question at the score `at`.
const atParams = (at) => Object.assign({ score: at.score, cube: String(at.cube) }, at.crawford ? { crawford: "true" } : {}, at.owner ? { owner: at.owner } : {});
// The score and the cube an answer at a score was given at (none: money play).
const atOf = (e) => e.score ? {
  score: `${e.score.on_roll}-${e.score.opponent}`, crawford: e.score.game === "crawford", cube: e.cube.value,
  owner: { on_roll: "on-roll", opponent: "opponent" }[e.cube.owner] || null,
} : null;
// The same score and cube seen by the other side, on roll after a play.
const mirrored = (at) => at && Object.assign({}, at, {
  score: at.score.split("-").reverse().join("-"),
  owner: { "on-roll": "opponent", opponent: "on-roll" }[at.owner] || null,
});
// An XGID (it brings its own score and cube when it is a match's).
const isXgid = (text) => /^(XGID=)?[-a-oA-O]{26}:/.test(text.trim());

// A table's first position: each side's checkers one a point from the highest down.
function bearStart(table) {
  const k = table.kind;
  const side = Array.from({ length: Math.min(k.points, k.checkers) }, (_, i) => k.points - i).join(",");
  return table === RACE ? RACE_START : `${side}/${side}`;
}

// The bear-off board in the link's hash, as the bear-off routes name it: `bearoff` the
// table (`race` for any race), `position`, `roll` once dice are picked, `cube` the cube
// state when not centred. Written while the Bear-off tab is shown.
function updateBearLink() {
  if (!bear.position) return;
  // At a score the position is the answer's XGID, which holds the score and the cube.
  const params = new URLSearchParams({ bearoff: bear.table.table, position: bear.at ? bear.answer.xgid : bear.position });
  const roll = $("bearoff-dice").value;
  if (roll) params.set("roll", roll);
  const cube = $("bearoff-cube");
  if (!cube.disabled && !bear.at && cube.value !== "centred") params.set("cube", cube.value);
  const hash = "#" + params.toString();
  $("bearoff-link").href = location.pathname + hash;
  if (!$("tab-bearoff").hidden) writeHash(hash);
}

// A hash with `bearoff` (typed, pasted or a link followed) sets the Bear-off tab: the
// table, the cube state, the position and the dice. A table the folder does not have, or a
// position the table (and any race) does not hold, is named; the last good board stays.
async function followBearoff(wanted) {
  showTab("bearoff", true);
  if (!bear.tables.length) return false;
  const name = wanted.get("bearoff");
  const table = bear.tables.find((t) => t.table === name);
  if (!table) {
    $("bearoff-status").textContent = `No bear-off table ${name} in this server's folder (${bear.tables.map((t) => t.table).join(", ")}).`;
    return false;
  }
  const before = { table: bear.table, cube: $("bearoff-cube").value };
  const cube = wanted.get("cube") || "centred";
  useBearTable(table);
  $("bearoff-cube").value = ["centred", "owned", "opponent"].includes(cube) ? cube : "centred";
  if (await setBearoff(wanted.get("position") || bearStart(table), wanted.get("roll") || "")) return true;
  if (bear.position) { useBearTable(before.table); $("bearoff-cube").value = before.cube; }
  return false;
}

const bearRules = () => ({ points: 24, checkers: bear.table.kind.checkers, faces: [1, 2, 3, 4, 5, 6] });
const bearApi = (question, params, table) => api(`/api/bearoff/${encodeURIComponent((table || bear.table).table)}/${question}`, params);
const bearSide = (text) => (text === "-" ? "" : text);
// Whether the last answer came with the cube (a table with the cube answered it).
const bearCube = () => !!(bear.answer && bear.answer.cubeful);

async function setBearoff(textIn, roll, at) {
  let e;
  const params = { position: textIn };
  if (at) Object.assign(params, atParams(at));
  else if (bear.table.kind.cube && !isXgid(textIn)) params.cube = $("bearoff-cube").value;
  let note = "";
  try {
    e = await bearApi("equity", params);
  } catch (err) {
    // Not a position of the chosen table: asked as any race, if the folder answers races.
    const race = bear.tables.includes(RACE) && bear.table !== RACE && err.status === 400;
    const again = Object.assign({}, params, at || isXgid(textIn) ? {} : { cube: $("bearoff-cube").value });
    e = race ? await bearApi("equity", again, RACE).catch(() => null) : null;
    if (!e) {
      $("bearoff-input").value = textIn;
      $("bearoff-input").setAttribute("aria-invalid", "true");
      $("bearoff-status").textContent = `Not a position of ${bear.table.database}: ${err.message}${bear.position ? ` (the board still shows ${bear.position})` : ""}`;
      return false;
    }
    note = `Not a position of ${bear.table.database}: asked as any race.`;
    bear.table = RACE;
    $("bearoff-table").value = RACE.table;
    $("bearoff-cube").disabled = false;
  }
  $("bearoff-input").removeAttribute("aria-invalid");
  $("bearoff-status").textContent = note;
  bear.position = e.position;
  bear.answer = e;
  bear.at = atOf(e);
  $("bearoff-cube").disabled = !bear.table.kind.cube || !!bear.at;
  // At a score the cube is the match's, drawn on the board: the money states give way.
  $("bearoff-cube").parentElement.hidden = !!bear.at;
  $("bearoff-input").value = e.position;
  const estimate = e.method === ESTIMATE;
  const facts = $("bearoff-facts");
  facts.replaceChildren();
  const from = estimate ? "one-sided estimate: not exact" : `exact, from ${e.variant}${bear.at ? `, at ${bear.at.score}${bear.at.crawford ? " (Crawford)" : ""} with gnubg’s match-equity table` : ""}`;
  for (const [k, v, id] of [["Position", e.position, "bearoff-position"], ["Position ID", e.position_id], ["XGID", e.xgid], ["Pips", `${e.pips[0]} (on roll) – ${e.pips[1]}`], ["Answer", from, "bearoff-method"]]) {
    if (!v) continue;
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v; if (id) dd.id = id;
    if (id === "bearoff-method" && estimate) dd.className = "estimate";
    facts.append(dt, dd);
  }
  const table = estimate ? estimateTable(e) : bear.at ? scoreEquityTable(e) : equityTable(e, e.variant);
  for (const n of table.querySelectorAll("[id]")) n.id = `bearoff-${n.id}`;
  $("bearoff-equity").replaceChildren(table);
  $("bearoff-dice").value = sortedRoll(roll);
  drawBearoff();
  await bearoffPlays();
  return true;
}

// The one-sided estimate of a race (`/api/bearoff/race/equity` beyond the tables): its
// chances and cubeless equity, marked as an estimate.
function estimateTable(e) {
  const wrap = document.createElement("div");
  const label = document.createElement("p");
  label.className = "estimate"; label.id = "estimate-label";
  label.textContent = "Estimate, not exact: no two-sided table here holds this race, so each side’s rolls to bear off come from the one-sided table, taken as independent. No cube action.";
  const dl = document.createElement("dl"); dl.className = "facts";
  for (const [k, v, id, raw] of [["Cubeless equity (estimate)", signed(e.equity), "equity-value", e.equity], ["Win (estimate)", percent(e.win)],
    ["Win a gammon (estimate)", percent(e.win_gammon)], ["Lose a gammon (estimate)", percent(e.lose_gammon)]]) {
    const dt = document.createElement("dt"); dt.textContent = k;
    const dd = document.createElement("dd"); dd.textContent = v;
    if (id) { dd.id = id; dd.dataset.value = String(raw); }
    dl.append(dt, dd);
  }
  wrap.append(label, dl);
  return wrap;
}

function drawBearoff() {
  const [us, them] = bear.position.split("/").map(bearSide);
  const rules = bearRules();
  const roll = $("bearoff-dice").value;
  const place = { centred: "centre", owned: "x", opponent: "o", "on-roll": "x" };
  drawBoard($("bearoff-board"), rules, parsePosition(rules, `${us}/${them}`), {
    dice: roll ? roll.split("-") : null,
    cube: bear.at ? { value: bear.at.cube, owner: place[bear.at.owner || "centred"] }
      : bearCube() ? { value: 1, owner: place[$("bearoff-cube").value] } : null,
    names: ["on roll", "opponent"], label: `bear-off board: ${bear.position}`,
  });
}

async function bearoffPlays() {
  const holder = $("bearoff-plays");
  const roll = $("bearoff-dice").value;
  holder.replaceChildren();
  drawBearoff();
  updateBearLink();
  if (!roll) return;
  const params = { position: bear.position, roll };
  if (bear.at) Object.assign(params, atParams(bear.at));
  else if (bearCube()) params.cube = $("bearoff-cube").value;
  try {
    const h = await bearApi("hint", params);
    // At a score the plays come as `moves`, with their match-winning chances.
    const plays = h.moves || h.plays;
    holder.replaceChildren(h.method === ESTIMATE ? estimatedPlays(plays) : playsTable(plays, true, (m) => bearoffPlay(m), "bearoff-plays-table"));
    if (!plays.length) holder.textContent = `${roll}: no legal move.`;
  } catch (err) { holder.textContent = err.message; }
}

// The plays of a roll ranked by the estimate: what each leaves of the mover's side.
function estimatedPlays(plays) {
  const table = document.createElement("table");
  table.id = "bearoff-plays-table"; table.className = "plays estimated";
  table.createCaption().textContent = "Ranked by the one-sided estimate (not exact)";
  const head = table.createTHead().insertRow();
  for (const t of ["#", "Leaves", "Equity (estimate)", "Loss"]) { const th = document.createElement("th"); th.textContent = t; head.append(th); }
  const body = table.createTBody();
  plays.forEach((p, i) => {
    const mine = p.after.split("/")[0];
    const m = { position: p.after, play: `leaves ${mine === "-" ? "none" : mine}` };
    const tr = body.insertRow();
    tr.tabIndex = 0;
    tr.dataset.play = p.after;
    tr.setAttribute("aria-label", `play ${i + 1}: ${m.play}`);
    for (const [c, cls] of [[String(i + 1)], [mine === "-" ? "all off" : mine], [signed(p.equity), "play-equity"], [(-p.loss).toFixed(6), "play-loss"]]) {
      const td = tr.insertCell(); td.textContent = c;
      if (cls) td.className = cls;
      if (cls === "play-equity") td.dataset.value = String(p.equity);
    }
    tr.addEventListener("click", () => bearoffPlay(m));
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); bearoffPlay(m); } });
  });
  return table;
}

function bearoffPlay(m) {
  const [mover, other] = m.position.split("/");
  if (bearSide(mover) === "") { $("bearoff-status").textContent = `${m.play} bears off the last checker: the side on roll wins.`; return; }
  setBearoff(`${other}/${mover}`, "", mirrored(bear.at));
}

// ---------------------------------------------------------------- bingo
async function drawBingo() {
  const params = { size: $("bingo-size").value, pattern: $("bingo-pattern").value };
  const players = Number($("bingo-players").value || "1");
  if (players > 1) { params.players = String(players); if ($("bingo-cards").value) params.cards = $("bingo-cards").value; }
  $("bingo-summary").textContent = "computing…";
  try {
    const law = await api("/api/bingo/law", params);
    chart($("bingo-chart"), law.distribution);
    $("bingo-summary").textContent = `Mean call at which ${players > 1 ? `the first of ${players} cards` : "the card"} wins: ${law.mean.toFixed(4)}.`;
  } catch (e) { $("bingo-summary").textContent = e.message; }
}

function chart(holder, rows) {
  const W = 760, H = 320, m = { l: 48, r: 48, t: 14, b: 34 };
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "the law of T: P(T = n) as bars, P(T ≤ n) as a line" });
  const live = rows.filter((r) => r.p > 0 || r.cdf < 1);
  const ns = live.map((r) => r.n);
  const n0 = Math.min(...ns), n1 = Math.max(...ns);
  const pmax = Math.max(...live.map((r) => r.p)) || 1;
  const x = (n) => m.l + (n - n0 + 0.5) * (W - m.l - m.r) / (n1 - n0 + 1);
  const bw = Math.max(1, (W - m.l - m.r) / (n1 - n0 + 1) - 1);
  const y = (p) => H - m.b - p / pmax * (H - m.t - m.b);
  const yc = (c) => H - m.b - c * (H - m.t - m.b);
  el("line", { x1: m.l, y1: H - m.b, x2: W - m.r, y2: H - m.b, stroke: "#333" }, svg);
  for (const r of live) {
    const bar = el("rect", { x: x(r.n) - bw / 2, y: y(r.p), width: bw, height: H - m.b - y(r.p), fill: "#2f5d46" }, svg);
    const t = el("title", {}, bar); t.textContent = `T = ${r.n}: ${(100 * r.p).toFixed(3)}% (P(T ≤ ${r.n}) = ${(100 * r.cdf).toFixed(2)}%)`;
  }
  el("polyline", { points: live.map((r) => `${x(r.n)},${yc(r.cdf)}`).join(" "), fill: "none", stroke: "#c0392b", "stroke-width": 2 }, svg);
  const step = Math.max(1, Math.ceil((n1 - n0) / 12));
  for (let n = n0; n <= n1; n += step) text(svg, x(n), H - m.b + 16, String(n), { "font-size": 11 });
  text(svg, (W) / 2, H - 4, "calls n", { "font-size": 12 });
  text(svg, m.l - 6, m.t + 10, `${(100 * pmax).toFixed(1)}%`, { "font-size": 10, "text-anchor": "end" });
  text(svg, W - m.r + 4, m.t + 10, "100%", { "font-size": 10, "text-anchor": "start", fill: "#c0392b" });
  text(svg, W - m.r + 4, H - m.b, "0", { "font-size": 10, "text-anchor": "start", fill: "#c0392b" });
  holder.replaceChildren(svg);
}

// ---------------------------------------------------------------- wiring
// Shows the tab `name`; the hash then follows its board (the Board tab's or the Bear-off
// tab's), unless the tab is shown to follow the hash (`follow`).
function showTab(name, follow) {
  for (const b of document.querySelectorAll(".tab")) b.setAttribute("aria-pressed", String(b.dataset.tab === name));
  for (const s of document.querySelectorAll(".panel")) s.hidden = s.id !== `tab-${name}`;
  if (follow) return;
  if (name === "board" && app.position) updateLink();
  if (name === "bearoff") updateBearLink();
}

async function start() {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("position-form").addEventListener("submit", (e) => { e.preventDefault(); setPosition($("position-input").value.trim()); });
  $("start-position").addEventListener("click", () => setPosition(variantInfo(app.variant).opening));
  $("swap-sides").addEventListener("click", () => setPosition(swapped(app.position)));
  $("edit-mode").addEventListener("change", () => { $("edit-tools").hidden = !$("edit-mode").checked; });
  $("dice").addEventListener("change", showPlays);
  $("hint-cube").addEventListener("change", showPlays);
  $("roll").addEventListener("click", () => { $("dice").value = randomRoll(app.rules, cryptoRandom); showPlays(); });
  $("equity-cube").addEventListener("change", () => { drawAnalysis(); showEquity(); });
  $("jacoby").addEventListener("change", showEquity);
  for (const id of ["score-mode", "score-a", "score-b", "score-crawford", "score-cube", "score-owner"]) $(id).addEventListener("change", scoreChanged);
  for (const id of ["score-a", "score-b"]) $(id).addEventListener("input", () => { if ($(id).value) scoreChanged(); });
  $("variant").addEventListener("change", () => { chooseVariant($("variant").value); setPosition(variantInfo(app.variant).opening); });
  $("game-cube-value").addEventListener("change", () => { $("game-cube-owner").disabled = $("game-cube-value").value === "1"; });
  $("game-new").addEventListener("click", () => guard(newGame()));
  $("game-roll").addEventListener("click", () => guard(humanRoll()));
  $("game-double").addEventListener("click", () => guard(humanDouble()));
  $("game-take").addEventListener("click", () => guard(humanTake()));
  $("game-pass").addEventListener("click", humanPass);
  $("game-undo").addEventListener("click", undo);
  $("game-hint").addEventListener("click", () => guard(gameHint()));
  $("game-review").addEventListener("click", () => guard(reviewGame()));
  $("game-analysis").addEventListener("change", () => renderGame());
  $("game-to-board").addEventListener("click", () => {
    // The game's position from the side on roll, its dice if rolled: in the Board tab.
    showTab("board");
    chooseVariant(game.variant);
    setPosition(game.position, game.turn === "human" ? game.dice : "");
  });
  $("review-form").addEventListener("submit", (e) => { e.preventDefault(); guard(submitReview()); });
  $("review-file").addEventListener("change", () => { if ($("review-file").files[0]) guard(submitReview()); });
  $("review-prev").addEventListener("click", () => { const i = nextStep(-1); if (i !== null) showStep(i); });
  $("review-next").addEventListener("click", () => { const i = nextStep(1); if (i !== null) showStep(i); });
  $("review-errors").addEventListener("change", () => showStep(review.at));
  $("bearoff-form").addEventListener("submit", (e) => { e.preventDefault(); guard(setBearoff($("bearoff-input").value.trim())); });
  $("bearoff-table").addEventListener("change", () => guard(chooseBearoff($("bearoff-table").value)));
  $("bearoff-dice").addEventListener("change", () => guard(bearoffPlays()));
  $("bearoff-roll").addEventListener("click", () => { $("bearoff-dice").value = randomRoll({ faces: [1, 2, 3, 4, 5, 6] }, cryptoRandom); guard(bearoffPlays()); });
  $("bearoff-cube").addEventListener("change", () => guard(setBearoff(bear.position, $("bearoff-dice").value, bear.at)));
  $("bingo-form").addEventListener("submit", (e) => { e.preventDefault(); drawBingo(); });
  try {
    const listing = await api("/api/variants");
    app.variants = listing.variants;
    const tables = guard(bearoffTables(listing));
    const select = $("variant");
    select.replaceChildren(...listing.variants.map((v) => new Option(`${v.title}${v.cube ? "" : " (no cube)"}`, v.variant)));
    for (const b of listing.broken) say(`${b.file}: ${b.error}`);
    // A link to a bear-off position opens the Bear-off tab on it, the Board tab on the
    // variant's opening.
    const link = new URLSearchParams(location.hash.slice(1));
    const bearing = link.has("bearoff");
    const wanted = bearing ? new URLSearchParams() : link;
    window.addEventListener("hashchange", () => guard(followHash()));
    if (bearing) await tables.then(() => followBearoff(link));
    if (!listing.variants.length) {
      say(`No table in ${listing.folder}: build one with \`tabula gammon build --variant hyper2\`, then reload.`);
      if (!bearing) showTab("bingo");
      return;
    }
    const preferred = ["hyper2", "hyper1", "nikoniko", "hyper3"].find((n) => variantInfo(n));
    chooseVariant(wanted.get("variant") && variantInfo(wanted.get("variant")) ? wanted.get("variant") : preferred || listing.variants[0].variant);
    scoreFrom(wanted);
    const opening = variantInfo(app.variant).opening;
    if (!(await setPosition(wanted.get("position") || opening, wanted.get("roll") || ""))) {
      // A bad position in the link: the message stays, the board shows the opening.
      const why = $("message").textContent;
      await setPosition(opening);
      say(why);
    }
  } catch (e) { fail(e); }
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", start);
