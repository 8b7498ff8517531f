// Legends of Signum board renderer: the 60×60 cm Battlefield top-down as SVG, the zones of every side,
// the latest dice as faces, and clicks → actions.
//
// The SVG's viewBox is the field in millimetres (0 0 600 600), north up: P1's edge is the bottom (y = 0
// in the game), P2's the top.  From the seat's view (ludorum/games/signum/game.py `view`: the state's
// fields plus `cards`, summaries of every visible card) it draws:
//   - terrain (`terrain`, `cards[id].radius/impassable/difficult/blocks_sight`): impassable solid grey,
//     difficult hatched brown, sight-blocking with a dark dashed rim (and a symbol per property);
//   - every model (`models`): its round base at its true size (`cards[id].base_mm`) in its side's colour,
//     the hero with a gold rim and a crown, wounds as a red arc and "wounds/health" (`wounds`,
//     `cards[id].health`), activated ones dimmed, hidden ones dashed, controlled ones ringed;
//   - while a creature acts (`acting`, `stage`): its movement rings (the reference distances S/M/L/XL up
//     to its run, the allowance bold), the finite destinations (legal `move`/`run`) as markers (a move
//     and a run ending at the same point share one), lines to contact targets, and line-of-sight lines
//     to shooting/magic targets (blocked enemies in range dashed).  The view names no destination point
//     nor sight line, so `destination` and `sees` mirror battlefield.py for drawing only: the click
//     still sends the legal action itself.  When the open kind `move_to` is offered (ctx.openKinds, or
//     the same rule read from the view by an older frame), a click anywhere inside the allowance ring
//     sends `move_to` (x, y in mm) — the server validates it exactly and the frame shows its refusal;
//     the point tried stays marked;
//   - a pending melee (`pending`): the two fighters joined, the attacker's open split; dice waiting
//     (`rolls`) and finished groups (`rolled`) as die faces;
//   - the latest dice from the game log as faces (Bullseye, Axe, Shield/Axe; see `latestDice`);
//   - per side: prosperity, hand (own as card tiles, others as a count), face-down tactics, deck size,
//     City, Graveyard, kills (`prosperity`, `hands`, `tactics`, `deck_sizes`, `city`, `graveyard`,
//     `kills`); the building and terrain cards to choose from (`building_hands`, `terrain_hands`).
// Clicks: every legal action (ctx.legal) is attached to one board thing — a model (activate, melee,
// shoot, contact, heal, cast on it…), a destination marker, an entry point on your edge (recruit), a
// terrain spot (lay terrain), a card tile (recruit/cast/equip/set/build/terrain/stack; a recruit's entry
// points and a terrain card's spots show once its tile is chosen) — or, when it is no
// place (end the turn, pass, done, a melee split…), a button above the field.  One action is sent at
// once; several open a small menu.  The frame's list keeps every action reachable by keyboard.
"use strict";
(function () {
  const el = Ludorum.el;
  const FIELD = 600; // mm
  const STEPS = [["S", 8], ["M", 10], ["L", 15], ["XL", 25]]; // cm (DESIGN.md §5)
  // Side colours by seat (the view names no faction colour).
  // Colour-blind safe (Okabe–Ito hues; tests/web/test_colours.py keeps them apart under simulated CVD).
  const SIDES = [{ fill: "#d55e00" }, { fill: "#0072b2" }, { fill: "#009e73" }, { fill: "#cc79a7" }];
  const DIRECTIONS = [...Array(8).keys()].map((i) => [Math.cos((i * Math.PI) / 4), Math.sin((i * Math.PI) / 4)]);
  const TERRAIN_SPOTS = [20, 30, 40].flatMap((y) => [12, 30, 48].map((x) => [x, y])); // turn.py
  const ENTRY_X = [6, 18, 30, 42, 54]; // turn.py
  const FACES = ["Bullseye", "Axe", "Shield/Axe"]; // the die's faces as data-face names them
  const FACE_WORDS = [Ludorum.t("Bullseye"), Ludorum.t("Axe"), Ludorum.t("Shield/Axe")]; // as the reader reads them
  // The groups of dice by their tags (render.DICE_GROUPS: English names them by the tag, aa = the attacker's
  // attack dice…; other languages in words); a Backstab's are b0, b1, …
  const DICE_GROUPS = { aa: Ludorum.t("aa"), ad: Ludorum.t("ad"), da: Ludorum.t("da"), dd: Ludorum.t("dd"), hit: Ludorum.t("hit"),
    block: Ludorum.t("block"), boiler: Ludorum.t("boiler"), find: Ludorum.t("find") };
  const diceGroup = (tag) => DICE_GROUPS[tag] || (/^b\d+$/.test(tag) ? Ludorum.t("b{i}", { i: Number(tag.slice(1)) }) : tag);
  const KINDS = { hero: Ludorum.t("hero"), character: Ludorum.t("character"), spell: Ludorum.t("spell"), relic: Ludorum.t("relic"),
    tactic: Ludorum.t("tactic"), building: Ludorum.t("building"), terrain: Ludorum.t("terrain") };
  const kindWord = (kind) => KINDS[kind] || kind;
  const BENEFITS = { discount_characters: Ludorum.t("characters cost {n} less"), discount_mercenaries: Ludorum.t("mercenaries cost {n} less"),
    draw: Ludorum.t("draw {n} more card(s)"), heal_hero: Ludorum.t("heal your hero {n} at the start of your turn"),
    hero_armour: Ludorum.t("your hero Armour {n}"), hero_strength: Ludorum.t("your hero +{n} strength") };
  const PLACES = { "": Ludorum.t("the centre"), north: Ludorum.t("the north"), south: Ludorum.t("the south"), west: Ludorum.t("the west"),
    east: Ludorum.t("the east"), "north-west": Ludorum.t("the north-west"), "north-east": Ludorum.t("the north-east"),
    "south-west": Ludorum.t("the south-west"), "south-east": Ludorum.t("the south-east") };
  const seatName = (seat) => Ludorum.t("P{n}", { n: seat + 1 });
  // Kinds whose first argument is a model on the field.
  const MODEL_KINDS = new Set(["activate", "melee", "shoot", "magic_shot", "strike", "control", "heal", "detect", "contact", "pursue", "clink"]);
  const CARD_KINDS = new Set(["recruit", "cast", "equip", "set", "build", "terrain", "stack"]);
  const OR = " " + Ludorum.t("or") + " "; // between the labels of the actions one click offers
  const SIGHT_KINDS = { shoot: "shot", magic_shot: "magic", control: "control", strike: "magic", heal: "heal" };

  let lastTry = null; // the last free point clicked {x, y} in mm, kept until the next successful draw
  let lastVersion = -1;
  let selectedCard = null; // a hand card whose entry points (a terrain card whose spots) are shown
  let logWatcher = null;

  // -- small builders ---------------------------------------------------------------------------------

  /** An SVG element: s("rect", {x: 1}, child, ...) — the shared builder of common.js. */
  const s = Ludorum.svg;

  // Game coordinates are cm with y north; the SVG is mm with y down.
  // Positions are kept to 0.01 cm; rounding keeps the SVG's numbers clean (no 85.70000000000005).
  const X = (cm) => Math.round(cm * 1000) / 100;
  const Y = (cm) => Math.round((60 - cm) * 1000) / 100;

  function loadStyles() {
    if (document.getElementById("sg-styles")) return;
    document.head.append(el("link", { id: "sg-styles", rel: "stylesheet", href: "/static/games/signum.css" }));
  }

  const card = (view, id) => view.cards[id] || { name_en: id, kind: "?" };
  /** A card's name in the reader's language (the data files' names are in the browser's table). */
  const cardName = (view, id) => Ludorum.t(card(view, id).name_en);
  const radiusCm = (view, m) => (card(view, m.card).base_mm || 30) / 20;
  const isHero = (view, m) => view.heroes[m.owner] === m.card;
  const side = (m) => (m.controller >= 0 ? m.controller : m.owner);
  /** A point of the Battlefield in words, by ninths (as the game's labels say it: render.place). */
  function place(x, y) {
    const ns = y < 25 ? "south" : y > 35 ? "north" : "";
    const we = x < 21 ? "west" : x > 39 ? "east" : "";
    return PLACES[[ns, we].filter(Boolean).join("-")];
  }

  /** A creature by its name; where several of that name stand, by whose it is and where (no internal id). */
  function modelName(view, m) {
    const name = cardName(view, m.card);
    const twins = view.models.filter((o) => o.card === m.card && o.uid !== m.uid);
    if (!twins.length) return name;
    if (twins.every((o) => o.owner !== m.owner)) return Ludorum.t("{seat}'s {name}", { seat: seatName(m.owner), name });
    return Ludorum.t("{seat}'s {name} in {place}", { seat: seatName(m.owner), name, place: place(m.x, m.y) });
  }

  /** Make an SVG or HTML thing clickable and keyboard usable. */
  function clickable(node, label, onActivate) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    node.classList.add("sg-hot");
    node.addEventListener("click", (e) => { e.stopPropagation(); anchor = node; onActivate(e); });
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); anchor = node; onActivate(e); }
    });
    return node;
  }

  // -- the menu for a click that matches several actions -------------------------------------------------

  let anchor = null; // the thing last clicked: its menu goes beside it, never over it

  function closeMenu(root) {
    const old = root.querySelector(".sg-menu");
    if (old) old.remove();
  }

  /** Send the action, or offer a menu when several match. */
  function choose(root, ctx, actions, title) {
    if (!actions.length || ctx.replay) return;
    if (actions.length === 1) { ctx.submit(actions[0].action); return; }
    closeMenu(root);
    const menu = el("div", { class: "sg-menu", role: "menu", "aria-label": title },
      el("p", { class: "sg-menu-title" }, title),
      actions.map((l) => el("button", { role: "menuitem", onclick: () => { closeMenu(root); ctx.submit(l.action); } }, l.label)),
      el("button", { class: "sg-menu-close", onclick: () => closeMenu(root) }, Ludorum.t("Close")));
    root.append(menu);
    Ludorum.placeBeside(menu, anchor && anchor.isConnected ? anchor : root, root);
    const first = menu.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }

  // -- which board thing each legal action belongs to -----------------------------------------------------

  /** Sort the legal actions by the thing they are attached to. */
  function sortActions(legal) {
    const out = { models: new Map(), cards: new Map(), moves: [], runs: [], entries: new Map(), spots: new Map(), tools: [] };
    const add = (map, key, l) => { if (!map.has(key)) map.set(key, []); map.get(key).push(l); };
    for (const l of legal) {
      const { kind, args } = l.action;
      if (kind === "move") out.moves.push(l);
      else if (kind === "run") out.runs.push(l);
      else if (MODEL_KINDS.has(kind) && typeof args[0] === "number") add(out.models, args[0], l);
      else if (CARD_KINDS.has(kind)) {
        add(out.cards, String(args[0]), l);
        if (kind === "recruit") add(out.entries, args[1], l);
        if (kind === "terrain") add(out.spots, args[1], l);
        if (kind === "cast" && args[1] !== -1) add(out.models, args[1], l);
      } else out.tools.push(l);
    }
    return out;
  }

  /** Open kinds: the frame's (ctx.openKinds) when it passes them; else what the view shows (the same rule
   *  as SignumGame.open_kinds: a creature acting, before it did anything, nothing pending). */
  function openKinds(view, ctx) {
    if (ctx.replay || ctx.seat === null || ctx.toMove !== ctx.seat) return {};
    if (ctx.openKinds) return ctx.openKinds;
    const moving = view.phase === "activation" && view.acting >= 0 && view.stage === 0 &&
      !view.pending.length && !view.rolls.length && !view.coins_due.length;
    return moving ? { move_to: Ludorum.t("x and y in mm") } : {};
  }

  // -- geometry the view does not carry (mirrors battlefield.py, for drawing only) ---------------------------

  function obstacles(view) {
    return view.terrain.map((t) => Object.assign({ x: t.x, y: t.y, r: card(view, t.card).radius || 5 }, card(view, t.card)));
  }

  const inTerrain = (x, y, r, o) => Math.hypot(x - o.x, y - o.y) <= r + o.r + 0.02;

  /** Whether the model has Flight (ignores difficult terrain): on its card, a relic it bears, or granted.
   *  Matched on the property ids (`cards[id].property_ids`, `granted`): their words are in the reader's
   *  language, which the browser's table need not spell as the server does. */
  function flies(view, m) {
    const hasFlight = (id) => (card(view, id).property_ids || []).includes("flight");
    return hasFlight(m.card) || (m.relics || []).some(hasFlight) || m.granted.some((g) => g.split(" ")[0] === "flight");
  }

  /** Where a move of `cm` along direction i ends: shortened at the board edge and on entering difficult
   *  terrain, as paths.destination_groups does (the action itself names only direction and length). */
  function destination(view, m, i, cm) {
    const [ux, uy] = DIRECTIONS[i];
    const r = radiusCm(view, m);
    let go = cm;
    for (const [pos, u] of [[m.x, ux], [m.y, uy]]) {
      if (u > 1e-9) go = Math.min(go, (60 - r - pos) / u);
      else if (u < -1e-9) go = Math.min(go, (r - pos) / u);
    }
    for (const o of obstacles(view)) {
      if (!o.difficult || inTerrain(m.x, m.y, r, o) || flies(view, m)) continue;
      const reach = r + o.r, fx = m.x - o.x, fy = m.y - o.y;
      const b = fx * ux + fy * uy, c = fx * fx + fy * fy - reach * reach, d = b * b - c;
      if (d < 0) continue;
      const t = -b - Math.sqrt(d);
      if (t >= 0 && t < go) go = t;
    }
    return [m.x + ux * Math.max(0, go), m.y + uy * Math.max(0, go)];
  }

  /** Terrain-only line of sight between two centres (battlefield.sees). */
  function sees(view, a, b) {
    for (const o of obstacles(view)) {
      if (!o.blocks_sight) continue;
      if (Math.hypot(a.x - o.x, a.y - o.y) < o.r || Math.hypot(b.x - o.x, b.y - o.y) < o.r) continue;
      const dx = b.x - a.x, dy = b.y - a.y, den = dx * dx + dy * dy;
      const t = den ? Math.max(0, Math.min(1, ((o.x - a.x) * dx + (o.y - a.y) * dy) / den)) : 0;
      if (Math.hypot(a.x + t * dx - o.x, a.y + t * dy - o.y) < o.r - 0.02) return false;
    }
    return true;
  }

  // -- the field ------------------------------------------------------------------------------------------

  function drawDefs() {
    return s("defs", {},
      s("pattern", { id: "sg-hatch", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("rect", { width: 12, height: 12, fill: "#c9a46a" }),
        s("line", { x1: 0, y1: 0, x2: 0, y2: 12, stroke: "#8a6a36", "stroke-width": 4 })));
  }

  function drawGround() {
    const lines = [];
    for (let v = 100; v < FIELD; v += 100) {
      lines.push(s("line", { x1: v, y1: 0, x2: v, y2: FIELD, class: "sg-grid" }));
      lines.push(s("line", { x1: 0, y1: v, x2: FIELD, y2: v, class: "sg-grid" }));
    }
    return s("g", { class: "sg-ground" },
      s("rect", { x: 0, y: 0, width: FIELD, height: FIELD, class: "sg-field" }), lines,
      s("text", { x: 596, y: 592, class: "sg-edge" }, Ludorum.t("{seat}'s edge ↓", { seat: seatName(0) })),
      s("text", { x: 596, y: 16, class: "sg-edge" }, Ludorum.t("{seat}'s edge ↑", { seat: seatName(1) })),
      s("text", { x: 4, y: 300, class: "sg-edge sg-scale" }, Ludorum.t("grid: 10 cm")));
  }

  function drawTerrain(view) {
    return s("g", { class: "sg-terrain" }, view.terrain.map((t) => {
      const c = card(view, t.card);
      const kinds = [c.impassable && Ludorum.t("impassable"), c.difficult && Ludorum.t("difficult"), c.blocks_sight && Ludorum.t("blocks line of sight")].filter(Boolean);
      const cls = ["sg-ter", c.impassable ? "sg-impassable" : c.difficult ? "sg-difficult" : "sg-open", c.blocks_sight ? "sg-blocks" : ""].join(" ");
      const marks = `${c.impassable ? "✕" : ""}${c.difficult ? "≈" : ""}${c.blocks_sight ? "◉" : ""}`; // see the legend
      return s("g", { class: cls, "data-card": t.card, "data-effect": t.card },
        s("title", {}, cardName(view, t.card) + ": " + (kinds.join(", ") || Ludorum.t("no effect on movement"))),
        s("circle", { cx: X(t.x), cy: Y(t.y), r: X(c.radius || 5) }),
        s("text", { x: X(t.x), y: Y(t.y) - 4, class: "sg-ter-name" }, cardName(view, t.card)),
        s("text", { x: X(t.x), y: Y(t.y) + 16, class: "sg-ter-marks" }, marks));
    }));
  }

  /** One model: base at its true size, side colour, hero rim, wounds arc and count. */
  function drawModel(view, m, root, ctx, sorted) {
    const c = card(view, m.card);
    const r = X(radiusCm(view, m));
    const hero = isHero(view, m);
    const cx = X(m.x), cy = Y(m.y);
    const health = c.health || 1;
    const colour = SIDES[m.owner % SIDES.length];
    const cls = ["sg-model", hero ? "sg-hero" : "", m.activated ? "sg-spent" : "", m.hidden ? "sg-hidden" : "",
      m.uid === view.acting ? "sg-acting" : "", m.controller >= 0 ? "sg-controlled" : ""].join(" ");
    const initials = cardName(view, m.card).split(/\s+/).map((w) => w[0]).join("").slice(0, 2);
    const said = { name: modelName(view, m), seat: seatName(m.owner), wounds: m.wounds, health, strength: c.strength, movement: c.movement };
    const who = hero ? Ludorum.t("{name} ({seat}, hero)", said) : Ludorum.t("{name} ({seat})", said);
    const props = (c.properties || []).length ? "; " + c.properties.join("; ") : "";
    const relics = m.relics.length ? "; " + Ludorum.t("relics: {names}", { names: m.relics.map((id) => cardName(view, id)).join(", ") }) : "";
    const g = s("g", { class: cls, "data-uid": m.uid, "data-owner": m.owner, "data-wounds": m.wounds, "data-effect": m.card },
      s("title", {}, who + ": " + Ludorum.t("wounds {wounds}/{health}, strength {strength}, movement {movement} cm", said) + props + relics),
      s("circle", { cx, cy, r, fill: colour.fill, class: "sg-base" }),
      hero ? s("circle", { cx, cy, r: r - 3, class: "sg-hero-rim" }) : null,
      woundArc(cx, cy, r, m.wounds / health),
      s("text", { x: cx, y: cy + (hero ? -1 : 4), class: "sg-initials" }, hero ? "♛" : initials),
      s("text", { x: cx, y: cy + r * 0.62, class: "sg-wounds" }, `${m.wounds}/${health}`));
    const actions = sorted.models.get(m.uid) || [];
    if (actions.length && !ctx.replay) {
      clickable(g, `${modelName(view, m)}: ${actions.map((l) => l.label).join(OR)}`,
        () => choose(root, ctx, actions, modelName(view, m)));
    } else {
      // while a creature chooses where to go, a click passes to the movement ring below; else the
      // pointer shows what the creature does (effects.js)
      if (sorted.moves.length || sorted.runs.length || openKinds(view, ctx).move_to) g.style.pointerEvents = "none";
      g.setAttribute("role", "img"); // a screen reader names it by its <title>
      g.setAttribute("aria-label", who + ", " + Ludorum.t("wounds {wounds} of {health}, in {place}", Object.assign({ place: place(m.x, m.y) }, said)));
    }
    return g;
  }

  /** A red arc around the base, as long as the share of health lost. */
  function woundArc(cx, cy, r, share) {
    if (share <= 0) return null;
    if (share >= 1) return s("circle", { cx, cy, r: r - 1.5, class: "sg-wound-arc" });
    const a = share * 2 * Math.PI;
    const x = cx + (r - 1.5) * Math.sin(a), y = cy - (r - 1.5) * Math.cos(a);
    return s("path", { d: `M ${cx} ${cy - r + 1.5} A ${r - 1.5} ${r - 1.5} 0 ${share > 0.5 ? 1 : 0} 1 ${x} ${y}`, class: "sg-wound-arc" });
  }

  // -- the acting creature: rings, destinations, sight lines --------------------------------------------------

  /** How far the acting creature may move now (cm): the longest legal move, else its card's movement. */
  function allowanceOf(view, m, sorted) {
    const longest = Math.max(0, ...sorted.moves.map((l) => l.action.args[1] / 10));
    if (longest) return longest;
    let reach = card(view, m.card).movement || 0;
    if (!flies(view, m) && obstacles(view).some((o) => o.difficult && inTerrain(m.x, m.y, radiusCm(view, m), o))) reach = Math.min(reach, 8);
    return reach;
  }

  function drawRings(view, m, root, ctx, sorted, open) {
    const allowance = allowanceOf(view, m, sorted);
    const run = sorted.runs.length ? (STEPS.find(([, d]) => d > allowance + 1e-9) || STEPS[3])[1] : 0;
    const cx = X(m.x), cy = Y(m.y);
    const parts = [];
    for (const [name, d] of STEPS) {
      if (d > Math.max(allowance, run) + 1e-9) continue;
      parts.push(s("circle", { cx, cy, r: X(d), class: "sg-ring-ref" }),
        s("text", { x: cx + X(d) * 0.71 + 4, y: cy - X(d) * 0.71 - 4, class: "sg-ring-label" }, name));
    }
    if (run) parts.push(s("circle", { cx, cy, r: X(run), class: "sg-ring-run", "data-cm": run }, s("title", {}, Ludorum.t("Run: {cm} cm", { cm: run }))));
    const ring = s("circle", { cx, cy, r: X(allowance), class: "sg-ring-move", "data-cm": allowance },
      s("title", {}, open.move_to ? Ludorum.t("Move: up to {cm} cm — click any point inside to move there", { cm: allowance }) : Ludorum.t("Move: up to {cm} cm", { cm: allowance })));
    if (open.move_to) {
      ring.classList.add("sg-free");
      ring.addEventListener("click", (e) => freeMove(e, root, ctx));
    }
    parts.push(ring);
    return s("g", { class: "sg-rings" }, parts);
  }

  /** A click inside the ring: the exact point in mm, sent as move_to. */
  function freeMove(event, root, ctx) {
    const svg = root.querySelector("svg.sg-field-svg");
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    const q = p.matrixTransform(svg.getScreenCTM().inverse());
    const x = Math.round(q.x), y = Math.round(FIELD - q.y);
    lastTry = { x, y };
    const mark = svg.querySelector(".sg-try");
    if (mark) mark.remove();
    svg.append(tryMark());
    ctx.submit({ kind: "move_to", args: [x, y] });
  }

  function tryMark() {
    if (!lastTry) return null;
    return s("g", { class: "sg-try" }, s("title", {}, Ludorum.t("tried ({x}, {y}) cm", { x: lastTry.x / 10, y: lastTry.y / 10 })),
      s("path", { d: `M ${lastTry.x - 8} ${FIELD - lastTry.y - 8} l 16 16 m 0 -16 l -16 16` }));
  }

  /** The finite destinations as markers; a move and a run that end at the same point (both stopped by
   *  the edge or difficult terrain) share one marker, whose click offers both. */
  function drawDestinations(view, m, root, ctx, sorted) {
    const r = X(radiusCm(view, m));
    const groups = new Map();
    const add = (l, run) => {
      const [dir, mm] = l.action.args; // a run names only its direction: it goes the run distance
      const [x, y] = destination(view, m, dir, run ? runLength(view, m, sorted) : mm / 10);
      const key = `${Math.round(x * 10)},${Math.round(y * 10)}`;
      if (!groups.has(key)) groups.set(key, { x, y, actions: [] });
      groups.get(key).actions.push(l);
    };
    sorted.moves.forEach((l) => add(l, false));
    sorted.runs.forEach((l) => add(l, true));
    const points = [...groups.values()];
    // The click target is 9 mm wide where markers stand 2 cm apart; where difficult terrain brings two
    // closer, each shrinks to half the gap so that neither covers the other's centre.
    const hit = (p) => Math.min(9, ...points.filter((q) => q !== p).map((q) => X(Math.hypot(q.x - p.x, q.y - p.y)) / 2));
    const marks = points.map((p) => {
      const { x, y, actions } = p;
      const first = actions[0].action;
      const run = actions.every((l) => l.action.kind === "run");
      const g = s("g", { class: run ? "sg-dest sg-dest-run" : "sg-dest", "data-kind": first.kind, "data-args": JSON.stringify(first.args) },
        s("circle", { cx: X(x), cy: Y(y), r, class: "sg-dest-base" }), // where the base would stand: a picture
        s("circle", { cx: X(x), cy: Y(y), r: hit(p), class: "sg-dest-hit" }),
        s("circle", { cx: X(x), cy: Y(y), r: 4, class: "sg-dest-dot" }));
      const label = actions.map((l) => l.label).join(OR);
      return clickable(g, label, () => choose(root, ctx, actions, label));
    });
    return s("g", { class: "sg-dests" }, marks);
  }

  function runLength(view, m, sorted) {
    const allowance = allowanceOf(view, m, sorted);
    return (STEPS.find(([, d]) => d > allowance + 1e-9) || STEPS[3])[1];
  }

  /** Lines from the acting creature to what it may reach or target; blocked shots dashed red. */
  function drawLines(view, m, sorted) {
    const lines = [];
    const line = (t, cls, title) => lines.push(s("line", { x1: X(m.x), y1: Y(m.y), x2: X(t.x), y2: Y(t.y), class: cls }, s("title", {}, title)));
    const targeted = new Set();
    let shooter = false;
    for (const [uid, actions] of sorted.models) {
      const t = view.models.find((o) => o.uid === uid);
      if (!t || t.uid === m.uid) continue;
      for (const l of actions) {
        const kind = l.action.kind;
        if (SIGHT_KINDS[kind]) { line(t, `sg-los sg-los-${SIGHT_KINDS[kind]}`, Ludorum.t("{action}: clear line of sight", { action: l.label })); targeted.add(uid); }
        if (kind === "shoot" || kind === "magic_shot") shooter = true;
        if (kind === "contact") line(t, "sg-reach", l.label);
      }
    }
    if (shooter) {
      for (const t of view.models) {
        if (side(t) === side(m) || targeted.has(t.uid) || t.hidden) continue;
        const d = Math.hypot(t.x - m.x, t.y - m.y) - radiusCm(view, m) - radiusCm(view, t);
        if (d <= 25 && !sees(view, m, t)) line(t, "sg-los sg-los-blocked", Ludorum.t("{name}: terrain blocks the line of sight", { name: modelName(view, t) }));
      }
    }
    return s("g", { class: "sg-lines" }, lines);
  }

  // -- a pending melee, entry points, terrain spots --------------------------------------------------------

  function drawMelee(view) {
    const p = view.pending.length ? view.pending[view.pending.length - 1] : null;
    if (!p || p.kind !== "melee") return null;
    const a = view.models.find((m) => m.uid === p.actor), d = view.models.find((m) => m.uid === p.target);
    if (!a || !d) return null;
    return s("g", { class: "sg-melee" },
      s("line", { x1: X(a.x), y1: Y(a.y), x2: X(d.x), y2: Y(d.y) }),
      s("circle", { cx: (X(a.x) + X(d.x)) / 2, cy: (Y(a.y) + Y(d.y)) / 2, r: 14 }),
      s("text", { x: (X(a.x) + X(d.x)) / 2, y: (Y(a.y) + Y(d.y)) / 2 + 7, class: "sg-swords" }, "⚔"));
  }

  /** Entry points on your edge for recruiting the chosen hand card (none before a card is chosen: they
   *  would cover the models standing on the edge). */
  function drawEntries(view, root, ctx, sorted) {
    const seat = ctx.seat;
    const marks = [];
    for (const [spot, actions] of sorted.entries) {
      const shown = actions.filter((l) => l.action.args[0] === selectedCard);
      if (!shown.length) continue;
      const along = ENTRY_X[spot];
      const [x, y] = seat === 1 ? [along, 57] : seat === 2 ? [3, along] : seat === 3 ? [57, along] : [along, 3];
      const g = s("g", { class: "sg-entry", "data-spot": spot },
        s("circle", { cx: X(x), cy: Y(y), r: 26 }), s("text", { x: X(x), y: Y(y) + 7, class: "sg-entry-label" }, "+"));
      const title = Ludorum.t("Enter at x={x}", { x: along });
      marks.push(clickable(g, `${title}: ${shown.map((l) => l.label).join(OR)}`, () => choose(root, ctx, shown, title)));
    }
    return s("g", { class: "sg-entries" }, marks);
  }

  function drawSpots(view, root, ctx, sorted) {
    const marks = [];
    for (const [spot, all] of sorted.spots) {
      const actions = selectedCard ? all.filter((l) => l.action.args[0] === selectedCard) : all;
      if (!actions.length) continue;
      const [x, y] = TERRAIN_SPOTS[spot];
      const g = s("g", { class: "sg-spot", "data-spot": spot },
        s("circle", { cx: X(x), cy: Y(y), r: 30 }), s("text", { x: X(x), y: Y(y) + 6, class: "sg-entry-label" }, "▣"));
      const spotName = Ludorum.t("Terrain spot ({x}, {y})", { x, y });
      marks.push(clickable(g, `${spotName}: ${actions.map((l) => l.label).join(OR)}`,
        () => choose(root, ctx, actions, Ludorum.t("Terrain at ({x}, {y})", { x, y }))));
    }
    return s("g", { class: "sg-spots" }, marks);
  }

  function drawField(view, root, ctx, sorted) {
    const acting = view.acting >= 0 ? view.models.find((m) => m.uid === view.acting) : null;
    const mine = acting && !ctx.replay && ctx.toMove === ctx.seat && ctx.seat !== null;
    const open = openKinds(view, ctx);
    // Rings only while it may still choose where to go (not during its melee's split, say).
    const moving = mine && (open.move_to || sorted.moves.length || sorted.runs.length);
    const svg = s("svg", { viewBox: `0 0 ${FIELD} ${FIELD}`, class: "sg-field-svg", role: "group",
      "aria-label": Ludorum.t("the Battlefield, 60 by 60 cm, north up") },
    drawDefs(), drawGround(), drawTerrain(view),
    moving ? drawRings(view, acting, root, ctx, sorted, open) : null,
    mine ? drawLines(view, acting, sorted) : null,
    // Destinations below the models: an enemy to charge stays clickable where a marker overlaps it, and
    // models with nothing to do let clicks through.
    moving ? drawDestinations(view, acting, root, ctx, sorted) : null,
    s("g", { class: "sg-models" }, view.models.map((m) => drawModel(view, m, root, ctx, sorted))),
    drawMelee(view), // above the bases, which touch
    drawEntries(view, root, ctx, sorted), drawSpots(view, root, ctx, sorted), tryMark());
    return el("div", { class: "sg-field-wrap" }, svg, legend());
  }

  function legend() {
    return el("p", { class: "sg-legend small" },
      el("span", { class: "sg-key sg-key-impassable" }), "✕ " + Ludorum.t("impassable") + " ",
      el("span", { class: "sg-key sg-key-difficult" }), "≈ " + Ludorum.t("difficult") + " ",
      el("span", { class: "sg-key sg-key-blocks" }), "◉ " + Ludorum.t("blocks line of sight") + " · ",
      Ludorum.t("♛ hero · red arc: wounds · rings: S/M/L/XL, move (solid), run (dashed)"));
  }

  // -- dice -------------------------------------------------------------------------------------------------

  /** One die face as a small SVG: Bullseye (rings), Axe (a blade on a haft), Shield/Axe (a shield and axe). */
  function die(face) {
    const name = FACES[face] || "?";
    const word = FACE_WORDS[face] || "?";
    const glyph = face === 0
      ? [s("circle", { cx: 20, cy: 20, r: 11, class: "sg-ink-line" }), s("circle", { cx: 20, cy: 20, r: 4, class: "sg-ink" })]
      : face === 1
        ? [s("line", { x1: 12, y1: 32, x2: 27, y2: 10, class: "sg-ink-line" }), s("path", { d: "M 22 8 Q 34 10 32 22 L 24 15 Z", class: "sg-ink" })]
        : face === 2
          ? [s("path", { d: "M 9 9 L 31 9 L 31 20 Q 31 30 20 34 Q 9 30 9 20 Z", class: "sg-ink-line" }),
            s("line", { x1: 15, y1: 28, x2: 25, y2: 13, class: "sg-ink-line" }), s("path", { d: "M 22 11 Q 29 12 28 19 L 24 16 Z", class: "sg-ink" })]
          : [s("text", { x: 20, y: 27, class: "sg-die-q" }, "?")];
    return s("svg", { viewBox: "0 0 40 40", class: "sg-die", "data-face": name, role: "img", "aria-label": word },
      s("title", {}, word), s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7 }), glyph);
  }

  function diceRow(counts, caption, extra) {
    const dice = [];
    counts.forEach((n, face) => { for (let i = 0; i < n; i += 1) dice.push(die(face)); });
    return el("div", { class: "sg-dice-row" }, el("span", { class: "sg-dice-caption" }, caption), dice, extra || null);
  }

  /** Dice in the view: groups waiting to roll (blank, or a re-roll's earlier faces) and finished groups. */
  function viewDice(view) {
    const rows = [];
    for (const r of view.rolled) rows.push(diceRow(r.faces, Ludorum.t("{group}: {n} success(es)", { group: diceGroup(r.tag), n: r.hits })));
    for (const r of view.rolls) {
      rows.push(r.stage ? diceRow(r.faces, Ludorum.t("{group}: re-rolling {n}", { group: diceGroup(r.tag), n: r.n })) : el("div", { class: "sg-dice-row" },
        el("span", { class: "sg-dice-caption" }, Ludorum.t("{group}: {n} dice to roll", { group: diceGroup(r.tag), n: r.n })), [...Array(r.n)].map(() => die(-1))));
    }
    return rows;
  }

  // A chance step's label as the log reads it, in the reader's language (render.describe: "Dice: {faces}").
  const quote = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const DICE_LABEL = new RegExp(quote(Ludorum.t("Dice: {faces}")).replace(quote("{faces}"),
    FACE_WORDS.map((face) => quote(Ludorum.t("{n}× {face}", { face })).replace(quote("{n}"), "(\\d+)")).join(", ")));

  /** The latest run of dice in the game log, as faces.  The game resolves finished dice in the same step
   *  (the view's `rolled` is empty again by the time a page sees it), so the log's chance labels are
   *  the only record of the faces; the frame draws the log after the board, hence the observer. */
  function latestDice() {
    const items = [...document.querySelectorAll("#log li")].map((li) => li.textContent);
    let end = items.length - 1;
    while (end >= 0 && !DICE_LABEL.test(items[end])) end -= 1;
    if (end < 0) return null;
    let start = end;
    while (start > 0 && DICE_LABEL.test(items[start - 1])) start -= 1;
    const rows = [];
    for (let i = start; i <= end; i += 1) {
      const m = DICE_LABEL.exec(items[i]);
      rows.push(diceRow([Number(m[1]), Number(m[2]), Number(m[3])], rows.length ? Ludorum.t("then") : Ludorum.t("rolled")));
    }
    // What caused them: the last step before them taken by a player (a secret roll names nothing).
    const chance = Ludorum.t("Chance");
    const cause = items.slice(0, start).reverse().find((text) => !text.startsWith(chance)) || "";
    return el("div", { class: "sg-latest-dice", "data-rolls": end - start + 1 },
      el("p", { class: "sg-dice-title" }, Ludorum.t("Latest dice"), cause ? el("span", { class: "muted" }, Ludorum.t(" — after “{step}”", { step: cause })) : null),
      rows);
  }

  function refreshLatestDice(root) {
    const slot = root.querySelector(".sg-dice-slot");
    if (slot) slot.replaceChildren(latestDice() || el("p", { class: "muted small" }, Ludorum.t("No dice rolled yet.")));
  }

  function watchLog(root) {
    const log = document.getElementById("log");
    if (!log || logWatcher) return;
    logWatcher = new MutationObserver(() => refreshLatestDice(document.getElementById("board") || root));
    logWatcher.observe(log, { childList: true });
  }

  function drawDice(view) {
    const slot = el("div", { class: "sg-dice-slot" });
    return el("section", { class: "sg-dice", "aria-label": Ludorum.t("dice") }, viewDice(view), slot);
  }

  // -- the sides: prosperity, hands, City, Graveyard --------------------------------------------------------

  function cardTile(view, id, actions, root, ctx, showEntries) {
    const c = card(view, id);
    const name = cardName(view, id);
    const stats = c.strength !== undefined ? `⚔${c.strength} ➜${c.movement} ♥${c.health}` : kindWord(c.kind);
    const benefit = c.benefit ? Ludorum.format(BENEFITS[c.benefit] || c.benefit, { n: c.amount }) : "";
    const tile = el("div", { class: `sg-card sg-card-${c.kind}${selectedCard === id ? " sg-selected" : ""}`, "data-card": id, "data-effect": id,
      title: (c.properties || []).join("; ") || (c.benefit ? Ludorum.t("{benefit}, income {income}", { benefit, income: c.income }) : name) },
    el("span", { class: "sg-card-name" }, name), el("span", { class: "sg-card-cost" }, `${c.cost}◈`),
    el("span", { class: "sg-card-stats" }, stats));
    if (actions && actions.length && !ctx.replay) {
      clickable(tile, `${name}: ${actions.map((l) => l.label).join(OR)}`, () => {
        // A recruit (a terrain card) shows only this card's entry points (spots) on the board; the menu
        // offers them by name too.
        selectedCard = actions.some((l) => l.action.kind === "recruit" || l.action.kind === "terrain") ? id : null;
        for (const other of root.querySelectorAll(".sg-card.sg-selected")) other.classList.remove("sg-selected");
        if (selectedCard) tile.classList.add("sg-selected");
        showEntries();
        choose(root, ctx, actions, name);
      });
    }
    return tile;
  }

  function zone(title, cards, view, className) {
    const list = Array.isArray(cards) ? cards : [];
    return el("div", { class: `sg-zone ${className || ""}` }, el("span", { class: "sg-zone-title" }, `${title} (${list.length})`),
      list.length ? list.map((id) => el("span", { class: "sg-chip", title: kindWord(card(view, id).kind), "data-effect": id }, cardName(view, id))) : el("span", { class: "muted" }, " —"));
  }

  const count = (x) => (Array.isArray(x) ? x.length : x && typeof x === "object" ? x.hidden : 0);

  /** Card choices of no zone shown (the Experienced Architect's stacking names buildings of no hand). */
  function otherChoices(view, seat, sorted, tiles) {
    const shown = new Set([view.hands[seat], view.building_hands[seat], view.terrain_hands[seat]].filter(Array.isArray).flat());
    const rest = [...sorted.cards.keys()].filter((id) => !shown.has(id));
    return rest.length ? el("div", { class: "sg-hand" }, el("span", { class: "sg-zone-title" }, Ludorum.t("Cards to choose")), tiles(rest)) : null;
  }

  function drawSide(view, seat, root, ctx, sorted, showEntries) {
    const player = ctx.players[seat] || { name: seatName(seat) };
    const mine = seat === ctx.seat;
    const hand = view.hands[seat];
    const colour = SIDES[seat % SIDES.length];
    const hero = view.models.find((m) => m.owner === seat && m.card === view.heroes[seat]);
    const tiles = (ids) => [...new Set(ids)].map((id) => cardTile(view, id, sorted.cards.get(id), root, ctx, showEntries));
    return el("section", { class: `sg-side${mine ? " sg-mine" : ""}${view.out[seat] ? " sg-out" : ""}`, "data-seat": seat, style: `border-color: ${colour.fill}` },
      el("h3", {}, el("span", { class: "sg-swatch", style: `background: ${colour.fill}` }), player.name, mine ? " " + Ludorum.t("(you)") : "",
        view.active === seat && view.phase !== "over" ? el("span", { class: "sg-active" }, Ludorum.t(" — to play")) : null),
      el("p", { class: "sg-stats" },
        el("span", { class: "sg-prosperity", "data-value": view.prosperity[seat] }, Ludorum.t("Prosperity {n}", { n: view.prosperity[seat] })),
        Ludorum.t(" · deck {deck} · kills {kills}", { deck: view.deck_sizes[seat], kills: view.kills[seat] }),
        hero ? Ludorum.t(" · hero {wounds}/{health} wounds", { wounds: hero.wounds, health: card(view, hero.card).health }) : Ludorum.t(" · hero fallen")),
      Array.isArray(hand)
        ? el("div", { class: "sg-hand" }, el("span", { class: "sg-zone-title" }, Ludorum.t("Hand ({n})", { n: hand.length })), tiles(hand))
        : el("p", { class: "sg-hand sg-hand-count", "data-count": count(hand) }, Ludorum.t("Hand: {n} card(s)", { n: count(hand) })),
      Array.isArray(view.tactics[seat]) ? zone(Ludorum.t("Tactics face down"), view.tactics[seat], view) : el("p", { class: "sg-zone" }, Ludorum.t("Tactics face down: {n}", { n: count(view.tactics[seat]) })),
      mine && view.building_hands[seat].length ? el("div", { class: "sg-hand" }, el("span", { class: "sg-zone-title" }, Ludorum.t("Buildings to build")), tiles(view.building_hands[seat])) : null,
      mine && view.terrain_hands[seat].length ? el("div", { class: "sg-hand" }, el("span", { class: "sg-zone-title" }, Ludorum.t("Terrain to lay")), tiles(view.terrain_hands[seat])) : null,
      mine ? otherChoices(view, seat, sorted, tiles) : null,
      zone(Ludorum.t("City"), view.city[seat], view, "sg-city"),
      zone(Ludorum.t("Graveyard"), view.graveyard[seat], view, "sg-graveyard"));
  }

  // -- the whole board ---------------------------------------------------------------------------------------

  function drawHeader(view, ctx) {
    const words = { roll_first: Ludorum.t("the opening die"), choose_first: Ludorum.t("choosing the first player"),
      stack: Ludorum.t("stacking buildings"), build: Ludorum.t("building phase"), terrain: Ludorum.t("terrain phase"),
      activation: Ludorum.t("activation phase"), over: Ludorum.t("game over") };
    const acting = view.acting >= 0 ? view.models.find((m) => m.uid === view.acting) : null;
    const pend = view.pending.length ? view.pending[view.pending.length - 1] : null;
    let detail = "";
    if (acting) detail = view.stage ? Ludorum.t("{name} is acting (it has moved).", { name: modelName(view, acting) }) : Ludorum.t("{name} is acting.", { name: modelName(view, acting) });
    if (pend && pend.kind === "melee") {
      const a = view.models.find((m) => m.uid === pend.actor), d = view.models.find((m) => m.uid === pend.target);
      const split = pend.data[1] >= 0 ? " " + Ludorum.t("The attacker put {n} dice into attack.", { n: pend.data[1] }) : "";
      detail = Ludorum.t("Melee: {attacker} attacks {defender}.", { attacker: a ? modelName(view, a) : "?", defender: d ? modelName(view, d) : "?" }) + split;
    }
    return el("div", { class: "sg-header" },
      el("p", { class: "sg-turn" }, Ludorum.t("Turn {n} · {seat} · {phase}", { n: view.turn, seat: seatName(view.active), phase: words[view.phase] || view.phase }),
        view.reason ? el("strong", { class: "sg-result" }, ` — ${view.reason}`) : null),
      detail ? el("p", { class: "sg-detail" }, detail) : null,
      view.log.length ? el("p", { class: "sg-lastlog muted small" }, view.log.slice(-2).join(" · ")) : null);
  }

  function drawTools(root, ctx, sorted) {
    if (ctx.replay || !sorted.tools.length) return null;
    return el("div", { class: "sg-tools" }, sorted.tools.map((l) =>
      el("button", { class: "sg-tool", "data-kind": l.action.kind, "data-args": JSON.stringify(l.action.args), onclick: () => ctx.submit(l.action) }, l.label)));
  }

  /** The card a choice is about (effects.js): the card played, or the creature acting. */
  function effectOf(action, view) {
    if (CARD_KINDS.has(action.kind)) return String(action.args[0]);
    if (MODEL_KINDS.has(action.kind) && typeof action.args[0] === "number") {
      const m = view.models.find((x) => x.uid === action.args[0]);
      return m ? m.card : null;
    }
    return null;
  }

  Ludorum.registerRenderer("signum", {
    effectOf,
    draw(board, view, ctx) {
      loadStyles();
      if (ctx.version !== lastVersion) { lastTry = null; lastVersion = ctx.version; }
      const sorted = sortActions(ctx.legal);
      if (selectedCard && !sorted.cards.has(selectedCard)) selectedCard = null;
      const root = el("div", { class: "sg-board" });
      const showEntries = () => {
        const entries = root.querySelector(".sg-entries"), spots = root.querySelector(".sg-spots");
        if (entries) entries.replaceWith(drawEntries(view, root, ctx, sorted));
        if (spots) spots.replaceWith(drawSpots(view, root, ctx, sorted));
      };
      const seats = view.prosperity.map((_, i) => i);
      // Your own side first (nearest the field's bottom for P1), the others after.
      const order = ctx.seat === null ? seats : [ctx.seat, ...seats.filter((i) => i !== ctx.seat)];
      root.append(drawHeader(view, ctx), drawTools(root, ctx, sorted) || "",
        el("div", { class: "sg-main" }, drawField(view, root, ctx, sorted),
          el("div", { class: "sg-panel" }, drawDice(view), order.map((i) => drawSide(view, i, root, ctx, sorted, showEntries)))));
      board.replaceChildren(root);
      if (!ctx.replay) {
        watchLog(board);
        refreshLatestDice(root);
      }
    },
  });
})();
