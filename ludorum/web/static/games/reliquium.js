// Reliquium board renderer: the map of Sigillum as SVG, the four ownership tracks, and clicks → actions.
//
// The polygons come from /static/games/reliquium-map.json, which is `map_geometry()` of
// ludorum/games/reliquium written out by its browser_map.py (a test keeps the two equal): the view
// itself carries no geometry.  From the seat's view (ludorum/games/reliquium/game.py, `view`) it draws:
//   - every region in its terrain colour with its name (`regions[].terrain/name/polygon` of the map; three
//     players play on the board's other side, `regions[].three_players_terrain`);
//   - castles in their faction's colour, neutral ones pale and dashed (`castle`, `factions`);
//   - units by class (warrior ▲, defender shield, mage ★) in the occupant's colour (`occupant`, `units`);
//   - combat tokens on their borders (`tokens`: melee with swords, ranged with arrows, the units sent up),
//     pointing at the region they attack or support; borders sealed or cleared this round (`blocked`);
//   - creature tokens on their junctions (`creature_tokens`) and junctions used this round (`used_junctions`);
//   - the battle in progress (`battle`, `battle_strengths`), a pending march or summoning (`pending`);
//   - the four ownership tracks: castle tokens left per segment (`track`), the action marker (`marker`),
//     castles on the board (`castles_on_board`) and the army reserve (`reserve`); neutral factions greyed;
//   - round, phase and who decides (`round`, `round_limit`, `phase`, `deciding`), the result (`reason`).
// Clicks: each legal action (ctx.legal) names the board things it stands for (`targetsOf`): regions
// (recruit, build, march/melee/ranged into it, unit choices, losses, flight, victory march, abilities),
// borders (march, melee, ranged, support, token abilities), junctions (summon), a track segment (build a
// castle of that terrain) and your action marker (pass).  One matching action is sent at once; several
// open a small menu beside the thing clicked (Ludorum.placeBeside).  Actions that are no place (pass,
// cancel, forgo, pacts…) are buttons above the map, and the frame's list keeps every action reachable by
// keyboard.  Each part is an SVG with a viewBox; the map's zooms and pans (buttons, pinch, drag,
// Ctrl + wheel), its labels kept legible on the screen (docs/web-client.md, "Phones").
"use strict";
(function () {
  const el = Ludorum.el;
  const MAP_URL = "/static/games/reliquium-map.json";

  // The factions' own colours; tests/web/test_colours.py keeps them apart under simulated colour blindness.
  const FACTIONS = [
    { name: Ludorum.t("Legion of Chaos"), short: Ludorum.t("Legion"), fill: "#b3261e" },
    { name: Ludorum.t("Alliance of Nature"), short: Ludorum.t("Alliance"), fill: "#17804f" },
    { name: Ludorum.t("Order of Light"), short: Ludorum.t("Order"), fill: "#d9a400" },
    { name: Ludorum.t("Brotherhood of the Mountains"), short: Ludorum.t("Brotherhood"), fill: "#2f4fa8" },
  ];
  const TERRAINS = ["plains", "mountains", "forests", "water"];
  const TERRAIN_FILL = { plains: "#ece0a4", mountains: "#c4b29a", forests: "#a9cf90", water: "#93c6ea" };
  const TERRAIN_WORDS = [Ludorum.t("plains"), Ludorum.t("mountains"), Ludorum.t("forests"), Ludorum.t("water")];
  const SEGMENT_WORDS = [Ludorum.t("march or melee combat"), Ludorum.t("recruit or ranged combat"), Ludorum.t("build a castle or summon")];
  const CLASSES = ["warrior", "defender", "mage"];
  const CLASS_WORDS = [Ludorum.t("warrior"), Ludorum.t("defender"), Ludorum.t("mage")];
  const CLASS_PLURALS = [Ludorum.t("warriors"), Ludorum.t("defenders"), Ludorum.t("mages")];
  /** A creature's name as the reader reads it (the names are the data files', in the browser's table). */
  const creatureName = (c) => Ludorum.t(CREATURES[c][0]);
  // The twelve creatures in the game's order (data/creatures.toml) with the shape of their ability's
  // arguments; the pending summoning names only the creature's number.  A test checks this table.
  const CREATURES = [
    ["Ignifer", "burn_ranged"], ["Carnifex", "slay"], ["Mortum", "raise"],
    ["Aquus", "tide"], ["Lignum", "defect"], ["Arboruus", "gather"],
    ["Tempus", "recall"], ["Architectus", "build"], ["Fidei", "call"],
    ["Saxum", "push"], ["Armus", "remove_melee"], ["Frigus", "freeze"],
  ];
  const NO = -1;
  const P_MARCH_UNITS = 1, P_MARCH_ON = 2, P_ABILITY = 3, P_CONSENT = 4, P_PACT = 5;
  const OUTCOMES = { 1: Ludorum.t("the attacker wins"), 2: Ludorum.t("the defender wins"), 3: Ludorum.t("a draw"), 4: Ludorum.t("unopposed") };
  const STAGES = { 1: Ludorum.t("the attacker chooses its losses"), 2: Ludorum.t("the defender chooses its losses"), 3: Ludorum.t("the defeated units flee"), 4: Ludorum.t("victory march") };
  // Kinds that are not a place on the map: buttons above it.
  const TOOL_KINDS = new Set(["pass", "cancel", "halt", "forgo", "pact", "accept", "decline", "consent", "refuse"]);

  // -- small builders ---------------------------------------------------------------------------------

  /** An SVG element: s("rect", {x: 1}, child, ...) — the shared builder of common.js. */
  const s = Ludorum.svg;

  const pts = (poly) => poly.map((p) => p.join(",")).join(" ");
  const factionName = (f) => (FACTIONS[f] ? FACTIONS[f].name : Ludorum.t("nobody"));

  function loadStyles() {
    if (document.getElementById("rl-styles")) return;
    document.head.append(el("link", { id: "rl-styles", rel: "stylesheet", href: "/static/games/reliquium.css" }));
  }

  // -- the map: fetched once, then prepared (centres, border segments) ----------------------------------

  let geometry = null;
  let loading = null;

  /** The area-weighted centre of a polygon: where a region's name, castle and units go. */
  function centroid(poly) {
    let a = 0, x = 0, y = 0;
    for (let i = 0; i < poly.length; i++) {
      const [x0, y0] = poly[i], [x1, y1] = poly[(i + 1) % poly.length];
      const k = x0 * y1 - x1 * y0;
      a += k; x += (x0 + x1) * k; y += (y0 + y1) * k;
    }
    return a ? [x / (3 * a), y / (3 * a)] : poly[0];
  }

  /** The shared edge of two neighbouring regions: their common vertices, farthest pair as the segment. */
  function sharedEdge(pa, pb) {
    const inB = new Set(pb.map((p) => p.join(",")));
    const common = pa.filter((p) => inB.has(p.join(",")));
    let best = null, far = -1;
    for (const p of common) for (const q of common) {
      const d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
      if (d > far) { far = d; best = [p, q]; }
    }
    return best;
  }

  function prepare(g) {
    const centre = g.regions.map((r) => centroid(r.polygon));
    const byPair = new Map();
    const borders = g.borders.map((b) => {
      const [a, c] = b.regions;
      const edge = sharedEdge(g.regions[a].polygon, g.regions[c].polygon) || [centre[a], centre[c]];
      const mid = [(edge[0][0] + edge[1][0]) / 2, (edge[0][1] + edge[1][1]) / 2];
      byPair.set(`${Math.min(a, c)}-${Math.max(a, c)}`, b.id);
      return { id: b.id, regions: b.regions, edge, mid };
    });
    return Object.assign({}, g, { centre, borders, byPair, spot: junctionSpots(g) });
  }

  /** Where each junction's dot or creature token is drawn.  A few junctions lie only a few units apart
   *  (the map avoids four regions meeting at a point), so their tokens are pushed apart until each can
   *  be seen and clicked; all stay whole inside the board. */
  function junctionSpots(g) {
    const MIN = 36; // a creature token's diameter
    const spot = g.junctions.map((j) => j.point.slice());
    for (let round = 0; round < 12; round++) {
      for (let a = 0; a < spot.length; a++) for (let b = a + 1; b < spot.length; b++) {
        const dx = spot[b][0] - spot[a][0], dy = spot[b][1] - spot[a][1];
        const d = Math.hypot(dx, dy);
        if (d >= MIN) continue;
        const ux = d ? dx / d : 1, uy = d ? dy / d : 0, push = (MIN - d) / 2;
        spot[a][0] -= ux * push; spot[a][1] -= uy * push;
        spot[b][0] += ux * push; spot[b][1] += uy * push;
      }
    }
    return spot.map(([x, y]) => [Math.max(20, Math.min(g.width - 26, x)), Math.max(26, Math.min(g.height - 20, y))]);
  }

  function borderOf(a, b) {
    return geometry.byPair.get(`${Math.min(a, b)}-${Math.max(a, b)}`);
  }

  function loadMap() {
    if (!loading) {
      loading = fetch(MAP_URL).then((r) => {
        if (!r.ok) throw new Error(Ludorum.t("the map could not be loaded ({status})", { status: r.status }));
        return r.json();
      }).then((g) => {
        for (const reg of g.regions) reg.name = Ludorum.t(reg.name); // the data files' names, in the reader's language
        geometry = prepare(g);
      });
    }
    return loading;
  }

  /** A region's terrain on the side of the board the game is played on (three players have their own). */
  function terrainOf(view, r) {
    const reg = geometry.regions[r];
    return view.config && view.config.players === 3 ? reg.three_players_terrain : reg.terrain;
  }

  // -- which board things an action stands for -------------------------------------------------------

  /** Keys of the board things a legal action is chosen by: "r5" region, "b12" border, "j3" junction,
   *  "s1" track segment of your own track, "m" your action marker, "tool" a button above the map. */
  function targetsOf(a, view) {
    const t = a.args || [];
    const r = (i) => `r${i}`;
    const b = (x, y) => `b${borderOf(x, y)}`;
    const battle = view.battle || [];
    switch (a.kind) {
      case "march": case "melee": case "ranged": return [b(t[0], t[1]), r(t[1])];
      case "recruit": return [r(t[0])];
      case "build": return [r(t[0]), `s${TERRAINS.indexOf(terrainOf(view, t[0]))}`];
      case "summon": return [`j${t[1]}`];
      case "pass": return ["m", "tool"];
      case "units": return [r(view.pending[2]), b(view.pending[1], view.pending[2])];
      case "onward": return [r(t[0])];
      case "ability": return abilityTargets(view, t);
      case "support": {
        const head = view.ranged[view.queue[0]];
        return sum(t) ? [b(head[2], head[3]), r(head[2])] : [b(head[2], head[3]), "tool"];
      }
      case "lose": return [r(battle[0] === 1 ? battle[3] : battle[4])];
      case "flee": return [r(t[0])];
      case "advance": return sum(t) ? [r(battle[4]), b(battle[3], battle[4])] : [r(battle[4]), "tool"];
      default: return ["tool"];
    }
  }

  function abilityTargets(view, t) {
    const kind = CREATURES[view.pending[1]][1];
    const r = (i) => `r${i}`;
    switch (kind) {
      case "burn_ranged": case "remove_melee": case "recall": case "freeze": return [`b${borderOf(t[0], t[1])}`];
      case "tide": if (t.length === 2) return [`b${borderOf(t[0], t[1])}`]; // a token washed away
        return [r(t[1]), `b${borderOf(t[0], t[1])}`];
      case "gather": return [r(t[1]), `b${borderOf(t[0], t[1])}`];
      case "push": return [r(t[0]), r(t[2])];
      case "call": return [r(t[1]), r(t[0])];
      default: return [r(t[0])]; // slay, raise, defect, build: the target region
    }
  }

  const sum = (xs) => xs.reduce((x, y) => x + y, 0);

  /** key -> [{action, label}] for this seat's legal actions now (nothing in the replay). */
  function optionsByTarget(view, ctx) {
    const out = new Map();
    if (ctx.replay) return out;
    for (const l of ctx.legal) {
      for (const key of targetsOf(l.action, view)) {
        if (!out.has(key)) out.set(key, []);
        out.get(key).push(l);
      }
    }
    return out;
  }

  // -- clicks: one action is sent, several open a menu ---------------------------------------------------

  // The same step is often drawn twice (the answer to our action, then the WebSocket push): an open menu
  // must survive that redraw (Ludorum.keptFor, Ludorum.boardMenu).
  const kept = new Map(); // board element -> {version, menu}

  /** Make an SVG node clickable and keyboard-focusable for `options` (inert when there are none). */
  function hot(node, options, ui, name) {
    if (!options || !options.length) return node;
    node.classList.add("rl-hot");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    const words = options.length === 1 ? options[0].label : Ludorum.tn("{name}: {n} choice", "{name}: {n} choices", options.length, { name });
    node.setAttribute("aria-label", words);
    node.append(s("title", {}, words));
    const go = (event) => { event.stopPropagation(); ui.offer(options, name, node); };
    node.addEventListener("click", go);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(event); }
    });
    return node;
  }

  // -- icons --------------------------------------------------------------------------------------------

  /** A unit of class `cls` centred on (x, y): warrior a spearhead, defender a shield, mage a star. */
  function unitIcon(cls, x, y, fill, extra, scale) {
    const shapes = [
      "M0,-9 L8,7 L0,3 L-8,7 Z",
      "M-7,-8 L7,-8 L7,0 Q7,7 0,10 Q-7,7 -7,0 Z",
      "M0,-10 L2.6,-3.2 L9.5,-3.1 L4,1.3 L6,8.1 L0,4 L-6,8.1 L-4,1.3 L-9.5,-3.1 L-2.6,-3.2 Z",
    ];
    return s("path", Object.assign({ d: shapes[cls], transform: `translate(${x},${y}) scale(${scale || 1})`, fill, class: `rl-unit rl-${CLASSES[cls]}`, "data-effect": CLASSES[cls] }, labelled(extra)));
  }

  function castleIcon(x, y, fill, neutral, extra, scale) {
    const d = "M-9,8 L-9,-4 L-6,-4 L-6,-8 L-3,-8 L-3,-4 L3,-4 L3,-8 L6,-8 L6,-4 L9,-4 L9,8 L2,8 L2,3 L-2,3 L-2,8 Z";
    return s("path", Object.assign({ d, transform: `translate(${x},${y}) scale(${scale || 1})`, fill, class: `rl-castle${neutral ? " neutral" : ""}`, "data-effect": "castle" }, labelled(extra)));
  }

  /** An icon's extra attributes; one that is named is an image to screen readers (an aria-label needs a role). */
  function labelled(extra) {
    return extra && extra["aria-label"] && !extra.role ? Object.assign({ role: "img" }, extra) : extra || {};
  }

  /** `n` little swords (melee) or arrows (ranged) side by side, centred on (x, y). */
  function marks(kind, n, x, y) {
    const out = [];
    for (let i = 0; i < n; i++) {
      const cx = x + (i - (n - 1) / 2) * 8;
      out.push(kind === "melee"
        ? s("path", { d: `M${cx},${y - 9} L${cx},${y + 4} M${cx - 3.5},${y + 3} L${cx + 3.5},${y + 3} M${cx},${y + 4} L${cx},${y + 8}`, class: "rl-mark" })
        : s("path", { d: `M${cx},${y + 9} L${cx},${y - 7} M${cx - 3.5},${y - 3} L${cx},${y - 8} L${cx + 3.5},${y - 3} M${cx - 2.5},${y + 9} L${cx},${y + 6} L${cx + 2.5},${y + 9}`, class: "rl-mark" }));
    }
    return out;
  }

  // -- the map ------------------------------------------------------------------------------------------

  /** A region's name in one or two lines (split at the space nearest the middle). */
  function nameLines(name) {
    if (name.length <= 12 || !name.includes(" ")) return [name];
    const mid = name.length / 2;
    let cut = -1;
    for (let i = 0; i < name.length; i++) if (name[i] === " " && (cut < 0 || Math.abs(i - mid) < Math.abs(cut - mid))) cut = i;
    return [name.slice(0, cut), name.slice(cut + 1)];
  }

  function drawRegion(view, ui, options, marked, r) {
    const reg = geometry.regions[r];
    const terrain = terrainOf(view, r);
    const classes = ["rl-region", `rl-${terrain}`];
    if (marked.has(r)) classes.push("rl-marked");
    const title = `${reg.name} (${TERRAIN_WORDS[TERRAINS.indexOf(terrain)] || terrain})`;
    const shape = s("polygon", { points: pts(reg.polygon), fill: TERRAIN_FILL[terrain], class: "rl-shape" });
    const group = s("g", { class: classes.join(" "), "data-region": r, "data-terrain": terrain }, shape);
    hot(group, options.get(`r${r}`), ui, Ludorum.t("the {region}", { region: reg.name }));
    if (!group.classList.contains("rl-hot")) group.append(s("title", {}, title));
    return group;
  }

  const ICON = 1.3; // units and castles on the map, a little larger than on the tracks

  /** Name, castle and units of a region (drawn above every shape so no neighbour covers them). */
  function drawRegionContent(view, r) {
    const reg = geometry.regions[r];
    const [cx, cy] = geometry.centre[r];
    const lines = nameLines(reg.name);
    // the last line's baseline just above the icons; the lines above it in ems (a name grows on a phone)
    const out = [s("text", { x: cx, y: cy - 12, class: "rl-name", "text-anchor": "middle" },
      lines.map((line, i) => s("tspan", { x: cx, dy: i ? "1em" : `${-(lines.length - 1)}em` }, line)))];
    const items = [];
    const owner = view.castle[r];
    if (owner !== NO) {
      const neutral = !view.factions.includes(owner);
      items.push((x) => castleIcon(x, cy + 14, FACTIONS[owner].fill, neutral,
        { "data-castle": owner, "aria-label": neutral ? Ludorum.t("neutral castle of the {faction}", { faction: factionName(owner) }) : Ludorum.t("castle of the {faction}", { faction: factionName(owner) }) }, ICON));
    }
    const occ = view.occupant[r];
    if (occ !== NO) {
      view.units[r].forEach((n, cls) => {
        for (let i = 0; i < n; i++) items.push((x) => unitIcon(cls, x, cy + 14, FACTIONS[occ].fill, { "data-faction": occ }, ICON));
      });
    }
    const step = 25;
    // A row near the board's edge is moved inwards so that no icon is cut off.
    const half = ((items.length - 1) / 2) * step;
    const mid = Math.max(half + 14, Math.min(geometry.width - half - 14, cx));
    items.forEach((make, i) => out.push(make(mid + i * step - half)));
    return s("g", { class: "rl-content", "data-region": r }, out);
  }

  /** A border: an invisible wide line to click, a visible line when it is clickable or blocked. */
  function drawBorder(view, ui, options, marked, border) {
    const [p, q] = border.edge;
    const [a, b] = border.regions;
    const blocked = view.blocked.includes(border.id);
    const classes = ["rl-border"];
    if (blocked) classes.push("rl-blocked");
    if (marked.has(`b${border.id}`)) classes.push("rl-marked");
    const name = Ludorum.t("the border of the {a} and the {b}", { a: geometry.regions[a].name, b: geometry.regions[b].name });
    const group = s("g", { class: classes.join(" "), "data-border": border.id },
      s("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: "rl-border-line" }),
      s("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: "rl-border-hit" }),
      s("circle", { cx: border.mid[0], cy: border.mid[1], r: 12, class: "rl-border-hit" }));
    if (blocked) group.append(s("title", {}, Ludorum.t("{name}: no combat token may be placed here this round", { name })));
    return hot(group, options.get(`b${border.id}`), ui, name);
  }

  /** A combat token on its border, with a small arrowhead towards the region it attacks or supports. */
  function drawToken(token, clickable) {
    const border = geometry.borders[token.border];
    const [mx, my] = border.mid;
    const [tx, ty] = geometry.centre[token.to];
    const len = Math.hypot(tx - mx, ty - my) || 1;
    const ux = (tx - mx) / len, uy = (ty - my) / len;
    const fill = FACTIONS[token.faction].fill;
    const tip = [mx + ux * 34, my + uy * 34];
    const side = [-uy * 8, ux * 8];
    const arrow = s("polygon", { points: pts([tip, [mx + ux * 19 + side[0], my + uy * 19 + side[1]], [mx + ux * 19 - side[0], my + uy * 19 - side[1]]]), fill, class: "rl-token-arrow" });
    const body = token.kind === "melee"
      ? s("circle", { cx: mx, cy: my, r: 17, fill, class: "rl-token-body" })
      : s("rect", { x: mx - 14, y: my - 14, width: 28, height: 28, rx: 4, fill, class: "rl-token-body", transform: `rotate(45 ${mx} ${my})` });
    const said = { faction: factionName(token.faction), n: token.value, from: geometry.regions[token.from].name, to: geometry.regions[token.to].name };
    const words = token.kind === "melee"
      ? Ludorum.t("melee combat token of the {faction}, {n} sword(s): {from} attacks {to}", said)
      : Ludorum.t("ranged combat token of the {faction}, {n} arrow(s): {from} supports {to}", said);
    // The token covers the middle of its border: when that border is clickable, a ring says so.
    const ring = clickable ? s("circle", { cx: mx, cy: my, r: 23, class: "rl-token-ring" }) : null;
    const parts = [ring, arrow, body, marks(token.kind, token.value, mx, my)];
    if (token.kind === "ranged") {
      const sent = token.units.map((n, c) => (n ? `${n}${"WDM"[c]}` : "")).join("") + (token.militia ? "+mil" : "");
      if (sent) parts.push(s("text", { x: mx, y: my + 33, class: "rl-sent", "text-anchor": "middle" }, sent));
    }
    return s("g", { class: `rl-token rl-${token.kind}`, "data-border": token.border, "data-faction": token.faction, "data-value": token.value, "data-effect": token.kind },
      s("title", {}, words), parts);
  }

  function drawCreature(c) {
    const [x, y] = geometry.spot[c.junction];
    const fill = FACTIONS[c.faction].fill;
    return s("g", { class: "rl-creature", "data-junction": c.junction, "data-creature": c.creature, "data-effect": CREATURES[c.creature][0] },
      s("title", {}, Ludorum.t("{creature} of the {faction} (strengthens {units} where it is present)",
        { creature: c.name, faction: factionName(c.faction), units: CLASS_PLURALS[c.class] })),
      s("circle", { cx: x, cy: y, r: 18, fill, class: "rl-creature-body" }),
      s("text", { x, y: y + 5, class: "rl-creature-name", "text-anchor": "middle" }, c.name.slice(0, 3)),
      s("circle", { cx: x + 15, cy: y - 14, r: 8, fill, class: "rl-creature-body" }),
      unitIcon(c.class, x + 15, y - 14, "#fff", { class: "rl-creature-class" }, 0.55));
  }

  /** Junctions that can be clicked (summons), and the ones used this round (faint). */
  function drawJunctions(view, ui, options) {
    const out = [];
    geometry.junctions.forEach((j) => {
      const opts = options.get(`j${j.id}`);
      // A junction used this round shows its creature token; one whose creature has left, a faint dot.
      const used = view.used_junctions.includes(j.id) && !view.creature_tokens.some((c) => c.junction === j.id);
      if (!opts && !used) return;
      const [x, y] = geometry.spot[j.id];
      const g = s("g", { class: `rl-junction${used ? " used" : ""}`, "data-junction": j.id },
        s("circle", { cx: x, cy: y, r: opts ? 12 : 4, class: "rl-junction-dot" }));
      const names = j.regions.map((r) => geometry.regions[r].name).join(", ");
      out.push(hot(g, opts, ui, Ludorum.t("the junction of the {regions}", { regions: names })));
    });
    return out;
  }

  /** What to outline: the battle's regions and border, a pending march, the head ranged token. */
  function markedThings(view) {
    const marked = new Set();
    const b = view.battle || [];
    if (b.length) { marked.add(b[3]); marked.add(b[4]); marked.add(`b${borderOf(b[3], b[4])}`); }
    const p = view.pending || [];
    if (p[0] === P_MARCH_UNITS || p[0] === P_MARCH_ON) { marked.add(p[1]); marked.add(p[2]); marked.add(`b${borderOf(p[1], p[2])}`); }
    if (view.phase === "support" && view.queue.length) {
      const t = view.ranged[view.queue[0]];
      if (t) marked.add(`b${borderOf(t[2], t[3])}`);
    }
    return marked;
  }

  function drawMap(view, ui, options) {
    const marked = markedThings(view);
    const n = geometry.regions.length;
    const ids = Array.from({ length: n }, (_, r) => r);
    const pending = view.pending || [];
    const ghost = pending[0] === P_ABILITY || (pending[0] === P_CONSENT && pending[2] !== 1)
      ? summoningGhost(view, pending) : null;
    return s("svg", { viewBox: `0 0 ${geometry.width} ${geometry.height}`, class: "rl-svg rl-map", role: "group", "aria-label": Ludorum.t("the map of Sigillum") },
      s("g", { class: "rl-regions" }, ids.map((r) => drawRegion(view, ui, options, marked, r))),
      s("g", { class: "rl-borders" }, geometry.borders.map((b) => drawBorder(view, ui, options, marked, b))),
      s("g", { class: "rl-contents" }, ids.map((r) => drawRegionContent(view, r))),
      s("g", { class: "rl-tokens" }, view.tokens.map((token) => drawToken(token, options.has(`b${token.border}`)))),
      s("g", { class: "rl-creatures" }, view.creature_tokens.map(drawCreature), ghost),
      s("g", { class: "rl-junctions" }, drawJunctions(view, ui, options)));
  }

  /** The creature being summoned, drawn faintly at its junction until the summoning is complete. */
  function summoningGhost(view, pending) {
    const c = pending[0] === P_ABILITY ? pending[1] : pending[3];
    const j = pending[0] === P_ABILITY ? pending[2] : pending[4];
    if (!CREATURES[c] || !geometry.junctions[j]) return null;
    const g = drawCreature({ creature: c, name: creatureName(c), faction: Math.floor(c / 3), class: c % 3, junction: j });
    g.classList.add("rl-ghost");
    return g;
  }

  // -- the ownership tracks --------------------------------------------------------------------------------

  const ROW = 64;

  function drawTracks(view, ctx, ui, options) {
    const mine = ctx.seat === null || ctx.seat === undefined ? null : view.factions[ctx.seat];
    const rows = FACTIONS.map((fac, f) => drawTrack(view, f, f === mine, ui, options, f * ROW));
    return s("svg", { viewBox: `0 0 1000 ${ROW * 4}`, class: "rl-svg rl-tracks", role: "group", "aria-label": Ludorum.t("the ownership tracks") }, rows);
  }

  function drawTrack(view, f, mine, ui, options, y) {
    const fac = FACTIONS[f];
    const playing = view.factions.includes(f);
    const parts = [
      s("rect", { x: 0, y: y + 2, width: 1000, height: ROW - 4, rx: 6, class: `rl-track-bg${view.deciding === f ? " deciding" : ""}` }),
      s("circle", { cx: 16, cy: y + ROW / 2, r: 9, fill: fac.fill }),
      s("text", { x: 32, y: y + 28, class: "rl-track-name" }, mine ? Ludorum.t("{faction} (you)", { faction: fac.short }) : fac.short),
      s("text", { x: 32, y: y + 50, class: "rl-track-small" },
        playing ? Ludorum.t("castles {n}/9", { n: view.castles_on_board[f] }) + (view.militia[f] ? " · " + Ludorum.t("militia") : "")
          : Ludorum.t("neutral · castles {n}", { n: view.castles_on_board[f] })),
    ];
    const x0 = 205, div = 54, gap = 12;
    for (let g = 0; g < 3; g++) {
      const sx = x0 + g * (3 * div + gap);
      const seg = s("g", { class: "rl-segment", "data-faction": f, "data-segment": g },
        s("rect", { x: sx, y: y + 8, width: 3 * div, height: ROW - 16, rx: 4, fill: TERRAIN_FILL[TERRAINS[g]], class: "rl-segment-bg" }));
      for (let d = 0; d < 3; d++) {
        const dx = sx + d * div;
        if (d) seg.append(s("line", { x1: dx, y1: y + 10, x2: dx, y2: y + ROW - 10, class: "rl-division" }));
        if (d < view.track[f][g]) seg.append(castleIcon(dx + div / 2, y + ROW / 2, fac.fill, !playing, { class: "rl-track-castle" }, 1.5));
      }
      seg.append(s("title", {}, Ludorum.t("{terrain} segment: {does}; {n} castle token(s) left", { terrain: TERRAIN_WORDS[g], does: SEGMENT_WORDS[g], n: view.track[f][g] })));
      parts.push(mine ? hot(seg, options.get(`s${g}`), ui, Ludorum.t("build a {terrain} castle", { terrain: TERRAIN_WORDS[g] })) : seg);
    }
    const m = view.marker[f];
    if (playing && m !== NO) {
      const mx = x0 + Math.floor(m / 3) * (3 * div + gap) + (m % 3) * div + div / 2;
      const marker = s("g", { class: `rl-marker${view.done[f] ? " done" : ""}`, "data-faction": f, "data-division": m },
        s("path", { d: `M${mx},${y + 34} l-13,-26 h26 Z`, fill: fac.fill }),
        s("title", {}, Ludorum.t("action marker of the {faction}: {terrain} segment ({does})",
          { faction: fac.name, terrain: TERRAIN_WORDS[Math.floor(m / 3)], does: SEGMENT_WORDS[Math.floor(m / 3)] })));
      parts.push(mine ? hot(marker, options.get("m"), ui, Ludorum.t("your action marker")) : marker);
    }
    const rx = x0 + 3 * (3 * div + gap) + 10;
    parts.push(s("text", { x: rx, y: y + 22, class: "rl-track-small" }, Ludorum.t("reserve")));
    view.reserve[f].forEach((n, c) => {
      parts.push(unitIcon(c, rx + 12 + c * 54, y + 44, playing ? fac.fill : "#aaa", { "aria-label": Ludorum.t("{n} {unit}(s) in reserve", { n, unit: CLASS_WORDS[c] }) }, 1.2));
      parts.push(s("text", { x: rx + 26 + c * 54, y: y + 51, class: "rl-track-small" }, `×${n}`));
    });
    return s("g", { class: `rl-track${playing ? "" : " neutral"}`, "data-faction": f }, parts);
  }

  // -- header, hint and buttons ---------------------------------------------------------------------------

  function phaseWords(view) {
    if (view.phase === "over") return Ludorum.t("Game over: {reason}", { reason: view.reason });
    const who = view.deciding === null || view.deciding === undefined ? "" : " — " + Ludorum.t("the {faction} decides", { faction: factionName(view.deciding) });
    const phase = { peace: Ludorum.t("Peace phase"), support: Ludorum.t("War phase: support stage"), attack: Ludorum.t("War phase: attack stage") }[view.phase] || view.phase;
    return `${phase}${who}`;
  }

  function battleWords(view) {
    const b = view.battle || [];
    if (!b.length) return null;
    const [stage, att, dfn, src, dst, outcome, swords] = b;
    const name = (r) => geometry.regions[r].name;
    const st = view.battle_strengths;
    const fight = st ? " — " + Ludorum.t("strength {a} against {b}: {outcome}", { a: st[0], b: st[1], outcome: OUTCOMES[outcome] })
      : outcome === 4 ? " — " + Ludorum.t("unopposed") : "";
    const said = { attacker: FACTIONS[att].short, from: name(src), to: name(dst), fight, stage: STAGES[stage], defender: dfn === NO ? "" : FACTIONS[dfn].short };
    return dfn === NO
      ? Ludorum.tn("Battle: the {attacker} attack from the {from} ({n} sword) the {to}{fight}; now {stage}.",
        "Battle: the {attacker} attack from the {from} ({n} swords) the {to}{fight}; now {stage}.", swords, said)
      : Ludorum.tn("Battle: the {attacker} attack from the {from} ({n} sword) the {to} held by the {defender}{fight}; now {stage}.",
        "Battle: the {attacker} attack from the {from} ({n} swords) the {to} held by the {defender}{fight}; now {stage}.", swords, said);
  }

  /** A hint in words for this seat's decision: what to click. */
  function hintWords(view, ctx) {
    if (ctx.replay || !ctx.legal.length) return null;
    const p = view.pending || [];
    const name = (r) => geometry.regions[r].name;
    if (view.phase === "peace") {
      if (p[0] === P_MARCH_UNITS) return Ludorum.t("March from the {a} into the {b}: click the {b} to choose the units.", { a: name(p[1]), b: name(p[2]) });
      if (p[0] === P_MARCH_ON) return Ludorum.t("Single March: click a region to go on, or stop here.");
      if (p[0] === P_ABILITY) {
        const targets = ctx.legal.some((l) => l.action.kind === "ability");
        return targets ? Ludorum.t("{creature} is summoned: click a highlighted target for its ability, or do without it.", { creature: creatureName(p[1]) })
          : Ludorum.t("{creature} is summoned: its ability has no target here.", { creature: creatureName(p[1]) });
      }
      if (p[0] === P_CONSENT || p[0] === P_PACT) return Ludorum.t("Your ally asks: answer with the buttons.");
      const f = view.factions[ctx.seat];
      const seg = Math.floor(view.marker[f] / 3);
      const does = [Ludorum.t("click a border to march or attack (melee), or a region to march into"),
        Ludorum.t("click one of your castles' regions to recruit, or a border to give ranged support"),
        Ludorum.t("click a region or a track segment to build, or a junction to summon")][seg];
      return Ludorum.t("Your marker is on the {terrain} segment: {does}; click your marker to pass.", { terrain: TERRAIN_WORDS[seg], does });
    }
    if (view.phase === "support") return Ludorum.t("Support stage: click the highlighted ranged token's border to send units up to it.");
    const stage = (view.battle || [])[0];
    if (stage === 3) return Ludorum.t("Your units must flee: click the region to flee into.");
    if (stage === 4) return Ludorum.t("Victory march: click the conquered region to march in (or decline).");
    return Ludorum.t("Click your region in the battle to choose your losses.");
  }

  function drawTools(view, ctx, options) {
    const hint = hintWords(view, ctx);
    const buttons = (options.get("tool") || []).map((l) => el("button", { class: `rl-tool rl-${l.action.kind}-button`, onclick: () => ctx.submit(l.action) }, l.label));
    if (!hint && !buttons.length) return null;
    return el("div", { class: "rl-tools" }, hint ? el("p", { class: "rl-hint" }, hint) : null, buttons);
  }

  function drawHeader(view) {
    const battle = battleWords(view);
    return el("div", { class: "rl-header" },
      el("span", { class: "rl-round" }, Ludorum.t("Round {n} of {limit}", { n: Math.min(view.round, view.round_limit), limit: view.round_limit })),
      el("span", { class: "rl-phase" }, phaseWords(view)),
      view.pacts.length ? el("span", { class: "rl-pacts" },
        Ludorum.t("Pacts this round: {pacts}", { pacts: view.pacts.map(([a, b]) => `${FACTIONS[a].short} & ${FACTIONS[b].short}`).join(", ") })) : null,
      battle ? el("p", { class: "rl-battle" }, battle) : null);
  }

  // -- zoom and pan: the map's viewBox ------------------------------------------------------------------
  // Buttons (+, −, reset), Ctrl + wheel (a trackpad's pinch), two fingers to pinch, one to drag (a drag is
  // not a click).  The view is kept per board across redraws; none kept is the default: the whole map,
  // or on a narrow board about 0.7 screen pixels per map unit (where the region names, 16 units, read at
  // 11 px) centred on the places this seat may click now (else on the middle of the map).  Labels never read smaller than their minimum in screen
  // pixels (reliquium.css: font sizes in units of --rl-inv, map units per screen pixel).
  const MAX_ZOOM = 6;
  const zooms = new Map(); // board element -> {k, x, y}: k times the whole map, (x, y) the view's top left
  const focus = new Map(); // board element -> [x, y]: the middle of the places to click now

  /** The middle of the map places among `options`' keys (regions, borders, junctions), or null. */
  function focusOf(options) {
    const points = [];
    for (const key of options.keys()) {
      const n = Number(key.slice(1));
      if (key[0] === "r") points.push(geometry.centre[n]);
      else if (key[0] === "b" && geometry.borders[n]) points.push(geometry.borders[n].mid);
      else if (key[0] === "j" && geometry.spot[n]) points.push(geometry.spot[n]);
    }
    if (!points.length) return null;
    return [sum(points.map((p) => p[0])) / points.length, sum(points.map((p) => p[1])) / points.length];
  }

  function clampZoom(k, x, y) {
    k = Math.max(1, Math.min(MAX_ZOOM, k));
    const w = geometry.width / k, h = geometry.height / k;
    return { k, x: Math.max(0, Math.min(geometry.width - w, x)), y: Math.max(0, Math.min(geometry.height - h, y)) };
  }

  function currentZoom(board, svg) {
    if (zooms.has(board)) return zooms.get(board);
    const px = svg.getBoundingClientRect().width || geometry.width;
    const k = px < 600 ? Math.min(MAX_ZOOM, Math.max(1, 700 / px)) : 1; // a phone's board: closer
    const [cx, cy] = focus.get(board) || [geometry.width / 2, geometry.height / 2];
    return clampZoom(k, cx - geometry.width / k / 2, cy - geometry.height / k / 2);
  }

  function applyZoom(board, svg) {
    const z = currentZoom(board, svg);
    const w = geometry.width / z.k, h = geometry.height / z.k;
    svg.setAttribute("viewBox", `${z.x} ${z.y} ${w} ${h}`);
    svg.style.setProperty("--rl-inv", String(w / (svg.getBoundingClientRect().width || geometry.width)));
    svg.dataset.zoom = z.k.toFixed(2);
  }

  /** Zoom by `factor` keeping the map point under (clientX, clientY) in place (the middle by default). */
  function zoomBy(board, svg, factor, clientX, clientY) {
    const z = currentZoom(board, svg);
    const r = svg.getBoundingClientRect();
    const fx = clientX === undefined ? 0.5 : (clientX - r.left) / r.width;
    const fy = clientY === undefined ? 0.5 : (clientY - r.top) / r.height;
    const px = z.x + fx * geometry.width / z.k, py = z.y + fy * geometry.height / z.k;
    const k = Math.max(1, Math.min(MAX_ZOOM, z.k * factor));
    zooms.set(board, clampZoom(k, px - fx * geometry.width / k, py - fy * geometry.height / k));
    applyZoom(board, svg);
  }

  function panBy(board, svg, dx, dy) {
    const z = currentZoom(board, svg);
    const units = geometry.width / z.k / (svg.getBoundingClientRect().width || geometry.width);
    zooms.set(board, clampZoom(z.k, z.x - dx * units, z.y - dy * units));
    applyZoom(board, svg);
  }

  function zoomTools(board) {
    const svg = () => board.querySelector(".rl-map");
    const zoomIn = Ludorum.t("zoom in"), zoomOut = Ludorum.t("zoom out");
    return el("div", { class: "rl-zoom-tools", role: "group", "aria-label": Ludorum.t("zoom the map") },
      el("button", { class: "rl-zoom-in", "aria-label": zoomIn, title: zoomIn, onclick: () => zoomBy(board, svg(), 1.5) }, "+"),
      el("button", { class: "rl-zoom-out", "aria-label": zoomOut, title: zoomOut, onclick: () => zoomBy(board, svg(), 1 / 1.5) }, "−"),
      el("button", { class: "rl-zoom-reset", "aria-label": Ludorum.t("reset the map's zoom"), title: Ludorum.t("reset the zoom"),
        onclick: () => { zooms.delete(board); applyZoom(board, svg()); } }, "⟲"));
  }

  /** Pointer events on the map: one pointer drags the view, two pinch it. */
  function panAndPinch(board, svg) {
    const down = new Map(); // pointerId -> [x, y]
    let moved = false, pinch = null;
    svg.addEventListener("pointerdown", (e) => {
      down.set(e.pointerId, [e.clientX, e.clientY]);
      if (down.size === 1) moved = false;
      if (down.size === 2) {
        const [[ax, ay], [bx, by]] = [...down.values()];
        pinch = Math.hypot(ax - bx, ay - by) || 1;
      }
    });
    svg.addEventListener("pointermove", (e) => {
      const last = down.get(e.pointerId);
      if (!last) return;
      if (down.size >= 2 && pinch) {
        down.set(e.pointerId, [e.clientX, e.clientY]);
        const [[ax, ay], [bx, by]] = [...down.values()];
        const d = Math.hypot(ax - bx, ay - by) || 1;
        zoomBy(board, svg, d / pinch, (ax + bx) / 2, (ay + by) / 2);
        pinch = d;
        moved = true;
        return;
      }
      const dx = e.clientX - last[0], dy = e.clientY - last[1];
      if (!moved && Math.hypot(dx, dy) < 6) return;
      if (!moved) { moved = true; svg.setPointerCapture(e.pointerId); }
      down.set(e.pointerId, [e.clientX, e.clientY]);
      panBy(board, svg, dx, dy);
    });
    const up = (e) => {
      down.delete(e.pointerId);
      if (down.size < 2) pinch = null;
    };
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    // a drag or a pinch ends without a click on what it started on
    svg.addEventListener("click", (e) => { if (moved) { e.stopPropagation(); e.preventDefault(); moved = false; } }, true);
    // a thing reached by Tab outside the view: the view moves to it
    svg.addEventListener("focusin", (e) => {
      const r = e.target.getBoundingClientRect(), v = svg.getBoundingClientRect();
      const mx = (r.left + r.right) / 2, my = (r.top + r.bottom) / 2;
      if (mx >= v.left && mx <= v.right && my >= v.top && my <= v.bottom) return;
      const z = currentZoom(board, svg), u = geometry.width / z.k / (v.width || 1);
      const cx = z.x + (mx - v.left) * u, cy = z.y + (my - v.top) * u;
      zooms.set(board, clampZoom(z.k, cx - geometry.width / z.k / 2, cy - geometry.height / z.k / 2));
      applyZoom(board, svg);
    });
    svg.addEventListener("wheel", (e) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      zoomBy(board, svg, Math.exp(-e.deltaY / 300), e.clientX, e.clientY);
    }, { passive: false });
  }

  window.addEventListener("resize", () => {
    for (const board of drawn.keys()) {
      const svg = board.isConnected && board.querySelector(".rl-map");
      if (svg) applyZoom(board, svg);
    }
  });

  function drawOver(view) {
    if (view.phase !== "over") return null;
    const order = view.factions.slice().sort((a, b) => view.castles_on_board[b] - view.castles_on_board[a]);
    return el("section", { class: "rl-over", "aria-label": Ludorum.t("result") },
      el("h3", {}, Ludorum.t("Game over")),
      el("p", { class: "rl-reason" }, view.reason),
      el("ol", {}, order.map((f) => el("li", { "data-faction": f, class: f === view.winner ? "winner" : null },
        Ludorum.tn("{faction}: {n} castle", "{faction}: {n} castles", view.castles_on_board[f], { faction: FACTIONS[f].name }) + (f === view.winner ? " — " + Ludorum.t("ninth castle") : "")))));
  }

  // -- the whole board --------------------------------------------------------------------------------------

  const drawn = new Map(); // board element -> [view, ctx] last asked for, to draw once the map has loaded

  function draw(board, view, ctx) {
    loadStyles();
    drawn.set(board, [view, ctx]);
    if (!geometry) {
      board.replaceChildren(el("p", { class: "rl-loading muted" }, Ludorum.t("Loading the map of Sigillum…")));
      loadMap().then(() => {
        const last = drawn.get(board);
        if (last && board.isConnected) draw(board, ...last);
      }, (e) => board.replaceChildren(el("p", { class: "error" }, Ludorum.t("The map could not be drawn: {error}", { error: e.message }))));
      return;
    }
    const keep = Ludorum.keptFor(kept, board, ctx);
    const root = el("div", { class: "rl", "data-phase": view.phase, "data-round": view.round });
    const ui = Ludorum.boardMenu(root, ctx, keep, "rl");
    const options = optionsByTarget(view, ctx);
    root.append(
      drawHeader(view),
      drawOver(view) || "",
      drawTools(view, ctx, options) || "",
      el("div", { class: "rl-mapbox" }, drawMap(view, ui, options), zoomTools(board)),
      el("div", { class: "rl-tracksbox" }, drawTracks(view, ctx, ui, options)));
    board.replaceChildren(root);
    const map = root.querySelector(".rl-map");
    focus.set(board, focusOf(options));
    applyZoom(board, map);
    panAndPinch(board, map);
    ui.restore();
  }

  /** The frame's list in short steps: the summons (up to 15: creature × junction) by creature, then
   * where (the board's junctions offer the same by place). */
  function group(action, label) {
    if (action.kind !== "summon" || !CREATURES[action.args[0]]) return null;
    const j = geometry && geometry.junctions[action.args[1]];
    const and = Ludorum.t(", the ");
    const where = j ? Ludorum.t("where the {regions} meet", { regions: j.regions.map((r) => geometry.regions[r].name).join(and) }) : label;
    return { group: Ludorum.t("Summon {creature}…", { creature: creatureName(action.args[0]) }), short: where };
  }

  /** What a choice is about (effects.js): the creature summoned or acting, the castle built, the token
   * placed, the class recruited. */
  function effectOf(action, view) {
    const p = view.pending || [];
    if (action.kind === "summon") return CREATURES[action.args[0]] ? CREATURES[action.args[0]][0] : null;
    if ((action.kind === "ability" || action.kind === "forgo") && p[0] === P_ABILITY) return CREATURES[p[1]] ? CREATURES[p[1]][0] : null;
    if (action.kind === "build") return "castle";
    if (action.kind === "melee" || action.kind === "ranged") return action.kind;
    if (action.kind === "recruit") return CLASSES[action.args[1]] || null;
    return null;
  }

  Ludorum.registerRenderer("reliquium", { draw, group, effectOf });
})();
