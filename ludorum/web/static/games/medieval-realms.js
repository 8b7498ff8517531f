// Medieval Realms board renderer.
//
// Draws, from the seat's view (ludorum/games/medieval_realms/view.py), without any other source:
//   - a header strip: round of 7 (`round`, `rounds`), phase (`phase`), the Turn Order Track
//     (`turn_order`, `start_player`, `acting`), the Warehouse (`deck_size`) and the discard pile (`discards`);
//   - the Victory Point track 0…100+ with every realm's marker (`realms[].vp`), irises at multiples of 5;
//   - the Current Events Panel, 3 price columns × 4 squares (`panel[].square/price/card`), and the Future
//     Events Panel (`future`);
//   - the auction in progress (`auction`: card, high bid, leader, bidder, who is out, and `history`, the
//     bids and passes so far) with bid controls;
//   - the map challenge (`map.areas`, `map.rewards`, `map.strengths` once the walls are down, each realm's
//     `controlled_areas`): per area each realm's combat value and who won its reward;
//   - the recent public events (`events`: `{kind, seat, card, amount, text}` — majority awards, auctions,
//     purchases, plays, passes, reveals, discards; awards are spotted by `kind`);
//   - every realm (`realms[]`): King/Queen card, VP, turn position, leaders, the Manor's resources, the
//     Management Zone and the Realm's Map with the leaders placed (its own placement while it is hidden
//     from the others; anyone's once the walls are down — others show a Defensive Wall until then), the
//     Personal Display, the cards in play, the extra resources and tokens owed;
//   - at the end, the final score breakdown (`final`).
// Clicks become legal actions (from ctx.legal): a resource square → `mayor`, `token` or the `extra` pairs
// holding that resource; a map area → `general`/`admiral`/`buffer`; a panel square → `activate`; a display
// card → `play` (a Tithe offers its resource choices).  When a click matches several actions a small menu
// offers them.  Bids, pass and cancel are buttons on the board; every action also stays in the frame's
// list (keyboard use).  Everything scales: each part is an SVG with a viewBox, and the parts wrap.
"use strict";
(function () {
  const el = Ludorum.el;

  const RESOURCES = ["production", "science", "culture", "religion", "gold", "raw_material", "battle_point"];
  const SQUARES = RESOURCES.slice(0, 6); // the Management Zone has no Battle Point square
  const RES = {
    production: { label: Ludorum.t("Production"), short: Ludorum.t("Prod"), fill: "#8a7f72", ink: "#fff" },
    science: { label: Ludorum.t("Science"), short: Ludorum.t("Sci"), fill: "#2f66b3", ink: "#fff" },
    culture: { label: Ludorum.t("Culture"), short: Ludorum.t("Cult"), fill: "#7d4aa8", ink: "#fff" },
    religion: { label: Ludorum.t("Religion"), short: Ludorum.t("Rel"), fill: "#f3f0e6", ink: "#3b3428" },
    gold: { label: Ludorum.t("Gold"), short: Ludorum.t("Gold"), fill: "#e0b52a", ink: "#3b3428" },
    raw_material: { label: Ludorum.t("Raw Material"), short: Ludorum.t("Raw"), fill: "#8b5a2b", ink: "#fff" },
    battle_point: { label: Ludorum.t("Battle Point"), short: Ludorum.t("Battle"), fill: "#b3312c", ink: "#fff" },
  };
  // The words of the view's codes (card kinds, leaders, end-of-game conditions); names and colours come
  // from the data files, whose words are in the browser's table: Ludorum.t(card.name).
  const KINDS = { realm: Ludorum.t("realm"), majority: Ludorum.t("majority"), auction: Ludorum.t("auction") };
  const LEADERS = { mayor: Ludorum.t("Mayor"), general: Ludorum.t("General"), admiral: Ludorum.t("Admiral") };
  const CONDITIONS = { colour_cards: Ludorum.t("cards of a colour"), admirals: Ludorum.t("Admirals"), generals: Ludorum.t("Generals"),
    mayors: Ludorum.t("Mayors"), colours: Ludorum.t("colours"), resources: Ludorum.t("resources") };
  const word = (table, code) => (code in table ? table[code] : code);
  const colourName = (realm) => Ludorum.t(realm.colour);
  /** A card's name in the reader's language; `short` drops a "Territory: " (or like) prefix. */
  function cardName(card, short) {
    const name = Ludorum.t(card.name);
    const cut = name.indexOf(": ");
    return short && cut >= 0 ? name.slice(cut + 2) : name;
  }
  const STAMP = {
    orange: "#e07b1f", black: "#2a2a2a", red: "#c0392b", violet: "#7d4aa8", white: "#f4f1e8",
    blue: "#2f66b3", yellow: "#e6c229", green: "#3c8d40", grey: "#8e8e8e", turquoise: "#1fa5a0",
  };
  const LIGHT_STAMPS = new Set(["white", "yellow"]);
  // Colour-blind safe (Okabe–Ito hues; tests/web/test_colours.py keeps them apart under simulated CVD).
  const REALM_FILL = { Black: "#2a2a2a", Violet: "#cc79a7", Blue: "#0072b2", Yellow: "#f0e442", Red: "#d55e00" };
  const LEADER_FILL = { mayor: "#e6c229", general: "#c0392b", admiral: "#3c8d40", buffer: "#e6c229" };

  // -- small builders ---------------------------------------------------------------------------------

  /** An SVG element: s("rect", {x: 1}, child, ...) — the shared builder of common.js. */
  const s = Ludorum.svg;

  function text(x, y, content, attrs) {
    return s("text", Object.assign({ x, y }, attrs || {}), content);
  }

  /** An SVG that scales to its box; `label` names it for screen readers. */
  function svgBox(width, height, cls, label, ...children) {
    return s("svg", { viewBox: `0 0 ${width} ${height}`, class: `mr-svg ${cls}`, role: "group", "aria-label": label }, ...children);
  }

  /** Cut a name to fit `max` characters (the full name is in the element's title). */
  function fit(name, max) {
    return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
  }

  function realmFill(realm) {
    return REALM_FILL[realm.colour] || "#555";
  }

  // -- clicks to actions ------------------------------------------------------------------------------

  /** The legal actions `pred` accepts, each with its label. */
  function matching(ctx, pred) {
    return ctx.legal.filter((l) => pred(l.action));
  }

  /** Make an SVG group clickable (and keyboard-focusable) for `options`; inert when there are none. */
  function hot(node, options, ui, name) {
    if (!options.length) return node;
    node.classList.add("mr-hot");
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", options.length === 1 ? options[0].label : Ludorum.tn("{name}: {n} choice", "{name}: {n} choices", options.length, { name }));
    node.append(s("title", {}, options.length === 1 ? options[0].label : Ludorum.tn("{name} ({n} choice)", "{name} ({n} choices)", options.length, { name })));
    const go = () => ui.offer(options, name, node);
    node.addEventListener("click", go);
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); go(event); }
    });
    return node;
  }

  // What the player had open or typed, per board: the same step is often drawn twice (the answer to our
  // submission, then the WebSocket push), and a redraw must not close a menu or clear a typed bid.
  const kept = new Map(); // board element -> {version, menu (Ludorum.boardMenu), bid: string | null}

  // -- stylesheet -------------------------------------------------------------------------------------

  function loadStyles() {
    if (document.getElementById("mr-styles")) return;
    document.head.append(el("link", { id: "mr-styles", rel: "stylesheet", href: "/static/games/medieval-realms.css" }));
  }

  // -- header: round, phase, turn order ------------------------------------------------------------------

  function drawHeader(view) {
    const order = view.turn_order.map((seat, i) => {
      const realm = view.realms[seat];
      const classes = ["mr-chip", seat === view.acting ? "acting" : "", realm.passed && view.phase === "actions" ? "passed" : "", seat === view.you ? "you" : ""];
      return el("li", { class: classes.join(" ").trim(), "data-seat": seat, title: Ludorum.t(realm.king_queen_card) },
        el("span", { class: "mr-dot", style: `background:${realmFill(realm)}` }), `${i + 1}. ${colourName(realm)}`,
        seat === view.you ? " " + Ludorum.t("(you)") : "", realm.passed && view.phase === "actions" ? Ludorum.t(" — passed") : "");
    });
    const rounds = Array.from({ length: view.rounds }, (_, i) => el("span", { class: `mr-round${i + 1 === view.round ? " now" : ""}${i + 1 < view.round ? " done" : ""}` }, String(i + 1)));
    return el("div", { class: "mr-header" },
      el("div", { class: "mr-roundtrack", "aria-label": Ludorum.t("round {n} of {rounds}", { n: view.round, rounds: view.rounds }) }, Ludorum.t("Round") + " ", rounds),
      el("div", { class: "mr-phase", "data-phase": view.phase }, phaseWords(view)),
      el("div", { class: "mr-order" }, el("span", { class: "mr-caption" }, Ludorum.t("Turn order")), el("ol", {}, order)),
      el("div", { class: "mr-deck" }, Ludorum.t("Warehouse: {n} cards · discards: {d}", { n: view.deck_size, d: view.discards.length })));
  }

  function phaseWords(view) {
    if (view.phase === "game over") return Ludorum.t("Game over");
    if (view.phase === "placing leaders") return Ludorum.t("Behind the Defensive Walls: leaders are being placed");
    if (view.phase === "extra resources") return Ludorum.t("Set-up: each realm takes two extra resources");
    if (view.auction) return Ludorum.t("Auction: {card}", { card: cardName(view.auction.card) });
    const owed = view.realms.find((r) => r.tokens_owed);
    if (owed) return Ludorum.tn("{realm} takes {n} token of choice", "{realm} takes {n} tokens of choice", owed.tokens_owed, { realm: colourName(owed) });
    return view.acting === null ? Ludorum.t("Actions") : Ludorum.t("Actions — {realm} to act", { realm: colourName(view.realms[view.acting]) });
  }

  // -- Victory Point track -----------------------------------------------------------------------------

  function drawVpTrack(view, narrow) {
    const top = Math.max(100, Math.ceil((Math.max(...view.realms.map((r) => r.vp)) + 5) / 10) * 10);
    const W = narrow ? 360 : 640, left = 14, right = W - 14, line = 52;
    const x = (vp) => left + (right - left) * (vp / top);
    const ticks = [];
    for (let v = 0; v <= top; v += 5) {
      ticks.push(s("circle", { cx: x(v), cy: line, r: v % 10 === 0 ? 4 : 2.5, class: "mr-iris" }));
      if (v % 20 === 0) ticks.push(text(x(v), line + 18, String(v), { class: "mr-tick", "text-anchor": "middle" }));
    }
    // Markers on one spot stack upwards so that none hides another.
    const stacked = {};
    const markers = view.realms.map((r) => {
      const n = (stacked[r.vp] = (stacked[r.vp] || 0) + 1) - 1;
      return s("g", { class: "mr-vp-marker", "data-seat": r.seat },
        s("circle", { cx: x(r.vp), cy: line - 9 - n * 9, r: 5, fill: realmFill(r), stroke: "#fff", "stroke-width": 1.2 }),
        s("title", {}, Ludorum.t("{realm}: {vp} VP", { realm: colourName(r), vp: r.vp })));
    });
    const legend = view.realms.map((r) => `${colourName(r)} ${r.vp}`).join(" · ");
    return svgBox(W, 76, "mr-vptrack", Ludorum.t("Victory Point track: {legend}", { legend }),
      text(left, 12, Ludorum.t("Victory Points"), { class: "mr-label" }),
      text(right, 12, legend, { class: "mr-small", "text-anchor": "end" }),
      s("line", { x1: left, y1: line, x2: right, y2: line, class: "mr-track" }), ticks, markers);
  }

  // -- cards -------------------------------------------------------------------------------------------

  function costText(card) {
    if (card.cost === "bid") return Ludorum.t("bid {resource}", { resource: RES[card.cost_resource].short });
    if (card.cost === "admirals") return Ludorum.t("1 Admiral/Island");
    return `${card.cost} ${RES[card.cost_resource].short}`;
  }

  /** What the card does beyond its cost, in a few words. */
  function effectText(card) {
    const parts = [];
    if (card.vp) parts.push(Ludorum.t("{vp} VP", { vp: card.vp }));
    if (card.great_person) parts.push(Ludorum.t("Great Person"));
    if (card.leader) parts.push(`+1 ${word(LEADERS, card.leader)}`);
    if (card.city_colour) parts.push(`${Ludorum.t(card.city_colour)}→${RES[card.resource].short}`);
    else if (card.resource) parts.push(card.type === "territory" ? `5 ${RES[card.resource].short}` : Ludorum.t("{resource}/Mayor", { resource: RES[card.resource].short }));
    if (card.condition) {
      const c = card.condition;
      parts.push(Ludorum.t("end: {amount} {colour} {kind}", { amount: c.amount, colour: c.colour ? Ludorum.t(c.colour) : "", kind: word(CONDITIONS, c.kind) }).replace(/\s+/g, " "));
    }
    return parts.join(" · ");
  }

  /** A card face (w × h) at (x, y): colour stamp, name, kind, cost, effect. */
  function cardFace(card, x, y, w, h) {
    const stamp = STAMP[card.colour] || "#999";
    const chars = Math.floor(w / 7.2);
    return s("g", { class: `mr-card kind-${card.kind}`, "data-card": card.id, "data-effect": card.name, transform: `translate(${x},${y})` },
      s("rect", { width: w, height: h, rx: 6, class: "mr-card-bg" }),
      s("rect", { width: w, height: 20, rx: 6, fill: stamp }),
      s("rect", { y: 14, width: w, height: 6, fill: stamp }),
      text(6, 15, fit(word(KINDS, card.kind).toUpperCase(), chars), { class: "mr-card-kind", fill: LIGHT_STAMPS.has(card.colour) ? "#3b3428" : "#fff" }),
      text(6, 37, fit(cardName(card, true), chars), { class: "mr-card-name" }),
      text(6, 55, fit(costText(card), chars), { class: "mr-card-cost" }),
      h > 64 ? text(6, 72, fit(effectText(card), chars + 2), { class: "mr-card-effect" }) : null,
      s("title", {}, Ludorum.t("{card} — {colour} {kind} card, cost {cost}", { card: cardName(card), colour: Ludorum.t(card.colour), kind: word(KINDS, card.kind), cost: costText(card) }) +
        (effectText(card) ? `; ${effectText(card)}` : "")));
  }

  // -- the game board: Current and Future Events Panels ----------------------------------------------------

  function drawCurrentPanel(view, ctx, ui) {
    const W = 3 * 160 + 20, cw = 150, ch = 84;
    const nodes = [text(10, 18, Ludorum.t("Current Events Panel"), { class: "mr-label" })];
    for (let col = 0; col < 3; col += 1) {
      nodes.push(text(10 + col * 160 + cw / 2, 40, Ludorum.t("{n} Production", { n: col + 1 }), { class: "mr-price", "text-anchor": "middle" }));
    }
    for (const sq of view.panel) {
      const col = Math.floor((sq.square - 1) / 4), row = (sq.square - 1) % 4;
      const x = 10 + col * 160, y = 50 + row * (ch + 10);
      const slot = s("g", { class: "mr-square", "data-square": sq.square },
        s("rect", { x, y, width: cw, height: ch, rx: 6, class: "mr-slot" }),
        text(x + cw - 6, y + ch - 6, String(sq.square), { class: "mr-slot-no", "text-anchor": "end" }),
        sq.card ? cardFace(sq.card, x, y, cw, ch - 4) : null);
      const options = matching(ctx, (a) => a.kind === "activate" && a.args[0] === sq.square);
      nodes.push(hot(slot, options, ui, Ludorum.t("Square {n}", { n: sq.square })));
    }
    return svgBox(W, 50 + 4 * (ch + 10), "mr-panel", Ludorum.t("Current Events Panel"), nodes);
  }

  function drawFuturePanel(view) {
    const cw = 150, ch = 84;
    const nodes = [text(10, 18, Ludorum.t("Future Events Panel"), { class: "mr-label" }), text(10, 40, Ludorum.t("fills the panel at the end of the round"), { class: "mr-price" })];
    view.future.forEach((card, i) => {
      const x = 10 + (i % 2) * 160, y = 50 + Math.floor(i / 2) * (ch + 10);
      nodes.push(s("rect", { x, y, width: cw, height: ch, rx: 6, class: "mr-slot" }));
      if (card) nodes.push(cardFace(card, x, y, cw, ch - 4));
    });
    const y = 50 + 3 * (ch + 10);
    nodes.push(text(10, y + 16, Ludorum.t("Warehouse {n} · Discard pile {d}", { n: view.deck_size, d: view.discards.length }), { class: "mr-price" }));
    return svgBox(330, y + 30, "mr-future", Ludorum.t("Future Events Panel"), nodes);
  }

  // -- the auction -------------------------------------------------------------------------------------

  function drawAuction(view, ctx, keep) {
    const a = view.auction;
    if (!a) return null;
    const res = RES[a.card.cost_resource];
    const name = (seat) => colourName(view.realms[seat]);
    const STATES = { out: Ludorum.t("out"), "to bid": Ludorum.t("to bid"), in: Ludorum.t("in") };
    const bidders = view.turn_order.map((seat) => { // the one order of players: the Turn Order Track
      const state = a.out[seat] ? "out" : seat === a.leader ? "high" : seat === a.bidder ? "to bid" : "in";
      return el("li", { class: `mr-bidder ${state.replace(" ", "-")}`, "data-seat": seat },
        el("span", { class: "mr-dot", style: `background:${realmFill(view.realms[seat])}` }),
        name(seat) + ": " + (state === "high" ? Ludorum.t("high bid {n}", { n: a.bid }) : STATES[state]),
        Ludorum.t(" (has {n} {resource})", { n: view.realms[seat].resources[a.card.cost_resource], resource: res.short }));
    });
    const high = a.leader === null ? Ludorum.t("{realm} opens the bidding", { realm: name(a.activator) })
      : Ludorum.t("High bid: {n} {resource} by {realm}", { n: a.bid, resource: res.label, realm: name(a.leader) });
    return el("section", { class: "mr-auction", "aria-live": "polite", "aria-label": Ludorum.t("auction") },
      el("h3", {}, Ludorum.t("Auction: {card} (square {n})", { card: cardName(a.card), n: a.square })),
      el("p", { class: "mr-auction-high" }, high, Ludorum.t(" — {realm} to bid or pass", { realm: name(a.bidder) })),
      el("p", { class: "small" }, Ludorum.t("Paid in {resource}; only the winner pays.", { resource: res.label }) + " " + effectText(a.card)),
      el("ol", { class: "mr-bidders" }, bidders),
      drawBidHistory(view, a, res),
      bidControls(ctx, keep));
  }

  /** The bids and passes so far, in order (`auction.history`: [seat, bid or null for a pass]). */
  function drawBidHistory(view, a, res) {
    const history = a.history || [];
    return el("div", { class: "mr-bid-history", "aria-label": Ludorum.t("bids so far") },
      el("span", { class: "small muted" }, Ludorum.t("Bids:") + " "),
      history.length ? el("ol", {}, history.map(([seat, bid]) => el("li", { class: bid === null ? "passed" : "bid", "data-seat": seat },
        el("span", { class: "mr-dot", style: `background:${realmFill(view.realms[seat])}` }),
        bid === null ? Ludorum.t("{realm} passes", { realm: colourName(view.realms[seat]) }) : `${colourName(view.realms[seat])} ${bid} ${res.short}`)))
        : el("span", { class: "small muted" }, Ludorum.t("none yet")));
  }

  /** A bid stepper (the smallest legal bid first) with Bid, and Pass or Cancel, when it is our bid. */
  function bidControls(ctx, keep) {
    const bids = ctx.legal.filter((l) => l.action.kind === "bid").map((l) => l.action.args[0]);
    const other = ctx.legal.filter((l) => l.action.kind === "pass" || l.action.kind === "cancel");
    if (!bids.length && !other.length) return null;
    const input = bids.length ? el("input", {
      type: "number", id: "mr-bid", min: bids[0], max: bids[bids.length - 1], value: keep.bid || bids[0], "aria-label": Ludorum.t("your bid"),
      oninput: (event) => { keep.bid = event.target.value; event.target.setCustomValidity(""); },
    }) : null;
    const bid = () => {
      const action = { kind: "bid", args: [Math.round(Number(input.value))] };
      if (ctx.isLegal(action)) { ctx.submit(action); return; }
      input.setCustomValidity(Ludorum.t("Bid {low} to {high}.", { low: bids[0], high: bids[bids.length - 1] }));
      input.reportValidity();
    };
    return el("div", { class: "mr-bid-controls" },
      input ? [el("label", { for: "mr-bid" }, Ludorum.t("Your bid") + " "), input, el("button", { class: "primary mr-bid-button", onclick: bid }, Ludorum.t("Bid"))] : null,
      other.map((l) => el("button", { class: `mr-${l.action.kind}-button`, onclick: () => ctx.submit(l.action) }, l.label)));
  }

  // -- the map challenge (the reveal) ---------------------------------------------------------------------

  /** An area's reward, one resource per line. */
  function rewardLines(reward) {
    return Object.entries(reward).filter(([, n]) => n).map(([r, n]) => `${n} ${RES[r].short}`);
  }

  function drawMapChallenge(view, narrow) {
    const areas = view.map.areas;
    const strengths = view.map.strengths; // {area: [combat value per seat]} once the walls are down
    const revealed = Boolean(strengths);
    const W = narrow ? 360 : 640, left = narrow ? 56 : 70, colW = (W - left - 6) / areas, rowH = 20, head = 84;
    const title = revealed ? (narrow ? Ludorum.t("Map challenge: combat values, winners") : Ludorum.t("Realm's Map challenge (walls down): combat values and area winners")) : Ludorum.t("Realm's Map: the reward of each area");
    const nodes = [text(6, 14, title, { class: "mr-label" })];
    if (narrow) nodes.push(text(6, 34, Ludorum.t("Area"), { class: "mr-area-head" }));
    for (let area = 1; area <= areas; area += 1) {
      const cx = left + (area - 1) * colW + colW / 2;
      nodes.push(text(cx, 34, narrow ? String(area) : Ludorum.t("Area {n}", { n: area }), { class: "mr-area-head", "text-anchor": "middle" }));
      rewardLines(view.map.rewards[String(area)]).forEach((line, i) => nodes.push(text(cx, 48 + i * 11, line, { class: narrow ? "mr-area-reward narrow" : "mr-area-reward", "text-anchor": "middle" })));
    }
    if (revealed) {
      view.realms.forEach((realm, i) => {
        const y = head + i * rowH;
        nodes.push(s("circle", { cx: 10, cy: y + 9, r: 5, fill: realmFill(realm) }), text(19, y + 13, colourName(realm), { class: "mr-small" }));
        for (let area = 1; area <= areas; area += 1) {
          const x = left + (area - 1) * colW;
          const won = realm.controlled_areas.includes(area);
          const value = strengths[String(area)][realm.seat];
          nodes.push(s("g", { class: `mr-cell${won ? " won" : ""}`, "data-area": area, "data-seat": realm.seat },
            s("rect", { x: x + 2, y: y + 1, width: colW - 4, height: rowH - 3, rx: 4 }),
            text(x + colW / 2, y + 13, value ? `${value}${won ? " ✓" : ""}` : "·", { "text-anchor": "middle" }),
            s("title", {}, won ? Ludorum.t("{realm}, area {n}: combat value {value}, wins the reward", { realm: colourName(realm), n: area, value })
              : Ludorum.t("{realm}, area {n}: combat value {value}", { realm: colourName(realm), n: area, value }))));
        }
      });
    }
    const H = revealed ? head + 4 + view.realms.length * rowH : head;
    return svgBox(W, H, "mr-challenge", Ludorum.t("Realm's Map challenge"), nodes);
  }

  // -- a realm --------------------------------------------------------------------------------------------

  /** Where the parts of a realm go: side by side when the board is wide, stacked on a phone. */
  function realmLayout(narrow, areas) {
    if (!narrow) {
      return {
        W: 640, statusY: null, manorX: 70, manorY: 36,
        zone: { labelY: 90, x: 10, y: 112, cols: 3, w: 100, h: 56 },
        map: { labelY: 90, x: 330, y: 98, w: 300, per: areas === 10 ? 5 : 4 },
        display: { labelY: 244, y: 250, cols: 4 },
        play: { labelY: 330, x: 100, y: 318, per: 10 },
        wall: { y: 76, h: 160 },
      };
    }
    return {
      W: 360, statusY: 46, manorX: 10, manorY: 54,
      zone: { labelY: 102, x: 10, y: 124, cols: 3, w: 114, h: 52 },
      map: { labelY: 246, x: 10, y: 252, w: 340, per: areas === 10 ? 5 : 4 },
      display: { labelY: 412, y: 418, cols: 2 },
      play: { labelY: 564, x: 10, y: 570, per: 5 },
      wall: { y: 92, h: 300 },
    };
  }

  function drawRealm(view, realm, ctx, ui, narrow) {
    const mine = realm.seat === view.you;
    const hiddenNow = realm.placement === null && view.phase === "placing leaders";
    const L = realmLayout(narrow, view.map.areas);
    const nodes = [
      realmHeader(view, realm, L),
      manor(realm, ctx, ui, mine, L),
      managementZone(realm, ctx, ui, mine, L),
      realmMap(realm, view.map.areas, view.map.rewards, ctx, ui, mine, L),
      display(realm, ctx, ui, mine, L),
      inPlay(realm, L),
    ];
    if (hiddenNow) nodes.push(wall(realm, L));
    const height = L.play.y + 4 + Math.max(1, Math.ceil(realm.in_play.length / L.play.per)) * 20;
    return el("section", { class: `mr-realm${mine ? " mine" : ""}${realm.seat === view.to_move ? " to-move" : ""}`, "data-seat": realm.seat, "aria-label": Ludorum.t("{realm} realm", { realm: colourName(realm) }) },
      svgBox(L.W, height, "mr-realm-svg", Ludorum.t("{realm} realm", { realm: colourName(realm) }), nodes));
  }

  /** The King or Queen card, VP, turn position and status; on a phone the status goes on its own line. */
  function realmHeader(view, realm, L) {
    const status = [];
    status.push(Ludorum.t("{vp} VP", { vp: realm.vp }), Ludorum.t("turn {n}", { n: realm.turn_position }));
    if (view.phase === "actions" && realm.passed) status.push(Ludorum.t("passed"));
    if (view.phase === "actions" && realm.seat === view.acting && !realm.passed) status.push(Ludorum.t("to act"));
    if (realm.tokens_owed) status.push(Ludorum.tn("owed {n} token", "owed {n} tokens", realm.tokens_owed));
    if (realm.extras.length) status.push(Ludorum.t("extras: {resources}", { resources: realm.extras.map((r) => RES[r].short).join(", ") }));
    const ink = realm.colour === "Yellow" ? "#3b3428" : "#fff";
    const statusText = L.statusY === null
      ? text(L.W - 10, 20, status.join(" · "), { class: "mr-realm-status", "text-anchor": "end", fill: ink })
      : text(10, L.statusY, status.join(" · "), { class: "mr-realm-status" });
    return s("g", { class: "mr-realm-head" },
      s("rect", { width: L.W, height: 30, rx: 6, fill: realmFill(realm) }),
      text(10, 20, Ludorum.t(realm.king_queen_card) + (realm.seat === view.you ? " " + Ludorum.t("(you)") : ""), { class: "mr-realm-name", fill: ink }),
      statusText);
  }

  /** The Manor: stored resources; clickable for tokens of choice and the two extra resources. */
  function manor(realm, ctx, ui, mine, L) {
    const nodes = L.manorX > 20 ? [text(10, L.manorY + 14, Ludorum.t("Manor"), { class: "mr-label" })] : [];
    const w = (L.W - L.manorX - 10) / 7, y = L.manorY;
    RESOURCES.forEach((r, i) => {
      const x = L.manorX + i * w;
      const square = s("g", { class: "mr-res", "data-resource": r },
        s("rect", { x: x + 2, y, width: w - 4, height: 30, rx: 5, fill: RES[r].fill, stroke: "#0003" }),
        text(x + w / 2, y + 13, RES[r].short, { "text-anchor": "middle", class: "mr-res-name", fill: RES[r].ink }),
        text(x + w / 2, y + 27, String(realm.resources[r]), { "text-anchor": "middle", class: "mr-res-count", fill: RES[r].ink }));
      const options = mine ? matching(ctx, (a) => (a.kind === "token" && a.args[0] === r) || (a.kind === "extra" && a.args.includes(r))) : [];
      nodes.push(hot(square, options, ui, `${RES[r].label}`));
    });
    return s("g", {}, nodes);
  }

  /** Leader tokens as small circles from (x, y), wrapping every `per` tokens. */
  function tokens(list, x, y, per) {
    return list.map((kind, i) => s("circle", { cx: x + (i % per) * 13, cy: y + Math.floor(i / per) * 13, r: 5.5, fill: LEADER_FILL[kind], stroke: "#0008", class: `mr-leader ${kind}` }));
  }

  /** The Management Zone: six resource squares where Mayors produce. */
  function managementZone(realm, ctx, ui, mine, L) {
    const Z = L.zone;
    const nodes = [text(10, Z.labelY, Ludorum.t("Management Zone"), { class: "mr-label" }),
      text(10, Z.labelY + 14, Ludorum.t("Mayors {m} · Generals {g} · Admirals {a}", { m: realm.mayors, g: realm.generals, a: realm.admirals }), { class: "mr-small" })];
    const placed = realm.placement || [];
    SQUARES.forEach((r, i) => {
      const x = Z.x + (i % Z.cols) * Z.w, y = Z.y + Math.floor(i / Z.cols) * Z.h;
      const mayors = placed.filter((p) => p.leader === "mayor" && p.at === r).map(() => "mayor");
      const square = s("g", { class: "mr-zone", "data-square": r },
        s("rect", { x, y, width: Z.w - 6, height: Z.h - 6, rx: 5, class: "mr-zone-bg" }),
        s("rect", { x, y, width: 8, height: Z.h - 6, rx: 3, fill: RES[r].fill }),
        text(x + 14, y + 16, RES[r].label, { class: "mr-small" }),
        tokens(mayors, x + 20, y + 30, Math.floor((Z.w - 30) / 13)));
      const options = mine ? matching(ctx, (a) => a.kind === "mayor" && a.args[0] === r) : [];
      nodes.push(hot(square, options, ui, Ludorum.t("Management Zone: {resource}", { resource: RES[r].label })));
    });
    return s("g", {}, nodes);
  }

  /** The Realm's Map: areas with the leaders placed there and the areas controlled. */
  function realmMap(realm, areas, rewards, ctx, ui, mine, L) {
    const M = L.map;
    const nodes = [text(M.x, M.labelY, Ludorum.t("Realm's Map"), { class: "mr-label" })];
    const w = M.w / M.per;
    const placed = realm.placement || [];
    for (let area = 1; area <= areas; area += 1) {
      const x = M.x + ((area - 1) % M.per) * w, y = M.y + Math.floor((area - 1) / M.per) * 70;
      const present = placed.filter((p) => p.at === area);
      const here = present.map((p) => p.leader);
      const won = realm.controlled_areas.includes(area);
      const spot = s("g", { class: `mr-area${won ? " won" : ""}`, "data-area": area },
        s("rect", { x: x + 2, y, width: w - 4, height: 64, rx: 8, class: "mr-area-bg" }),
        text(x + 8, y + 15, Ludorum.t("Area {n}", { n: area }), { class: "mr-small mr-bold" }),
        text(x + 8, y + 27, fit(rewardLines(rewards[String(area)]).join(" "), Math.floor(w / 5.4)), { class: "mr-area-reward small" }),
        won ? text(x + 8, y + 58, w < 70 ? "✓" : Ludorum.t("won"), { class: "mr-small mr-won" }) : null,
        tokens(here, x + 12, y + 41, Math.max(1, Math.floor((w - 16) / 13))),
        here.length ? text(x + w - 8, y + 58, `⚔${present.reduce((t, p) => t + p.combat, 0)}`, { class: "mr-small", "text-anchor": "end" }) : null);
      const options = mine ? matching(ctx, (a) => ["general", "admiral", "buffer"].includes(a.kind) && a.args[0] === area) : [];
      nodes.push(hot(spot, options, ui, Ludorum.t("Area {n}", { n: area })));
    }
    return s("g", {}, nodes);
  }

  /** The Personal Display (up to 4 cards): a card is clickable to put it into play. */
  function display(realm, ctx, ui, mine, L) {
    const D = L.display;
    const nodes = [text(10, D.labelY, Ludorum.t("Personal Display ({n}/4)", { n: realm.display.length }), { class: "mr-label" })];
    const w = (L.W - 20) / D.cols;
    for (let i = 0; i < 4; i += 1) {
      const x = 10 + (i % D.cols) * w, y = D.y + Math.floor(i / D.cols) * 68;
      const card = realm.display[i];
      if (!card) { nodes.push(s("rect", { x: x + 2, y, width: w - 4, height: 62, rx: 6, class: "mr-slot" })); continue; }
      const face = s("g", { class: "mr-display-card", "data-card": card.id }, cardFace(card, x + 2, y, w - 4, 62));
      const options = mine ? matching(ctx, (a) => a.kind === "play" && a.args[0] === card.id) : [];
      nodes.push(hot(face, options, ui, cardName(card)));
    }
    return s("g", {}, nodes);
  }

  /** Cards in play beside the realm, as coloured chips. */
  function inPlay(realm, L) {
    const P = L.play;
    const nodes = [text(10, P.labelY, Ludorum.t("In play ({n})", { n: realm.in_play.length }), { class: "mr-label" })];
    const w = (L.W - P.x - 10) / P.per;
    const y0 = P.x > 20 ? P.y : P.y + 2;
    realm.in_play.forEach((card, i) => {
      const x = P.x + (i % P.per) * w, y = y0 + Math.floor(i / P.per) * 20;
      nodes.push(s("g", { class: "mr-played", "data-card": card.id, "data-effect": card.name },
        s("rect", { x, y, width: w - 3, height: 17, rx: 3, fill: STAMP[card.colour] || "#999", stroke: "#0004" }),
        text(x + 3, y + 12, fit(cardName(card, true), Math.floor(w / 6)), { class: "mr-chip-text", fill: LIGHT_STAMPS.has(card.colour) ? "#3b3428" : "#fff" }),
        s("title", {}, `${cardName(card)} (${Ludorum.t(card.colour)})`)));
    });
    return s("g", {}, nodes);
  }

  /** Another realm's Defensive Wall while it places its leaders. */
  function wall(realm, L) {
    const mid = L.wall.y + L.wall.h / 2;
    return s("g", { class: "mr-wall" },
      s("rect", { x: 0, y: L.wall.y, width: L.W, height: L.wall.h, rx: 6 }),
      text(L.W / 2, mid - 4, Ludorum.t("Behind the Defensive Wall"), { "text-anchor": "middle", class: "mr-wall-title" }),
      text(L.W / 2, mid + 20, realm.placed ? Ludorum.t("leaders placed — waiting for the others") : Ludorum.t("placing leaders…"), { "text-anchor": "middle", class: "mr-wall-sub" }));
  }

  // -- events, own turn tools, the end --------------------------------------------------------------------

  let lastEvents = [];

  /** Whether two events of two views are the same entry (views are fresh objects each time). */
  function sameEvent(a, b) {
    return a.kind === b.kind && a.seat === b.seat && a.amount === b.amount && a.text === b.text
      && (a.card ? a.card.id : null) === (b.card ? b.card.id : null);
  }

  /** Majority awards and auction results: the events the board announces as they happen. */
  const AWARD_KINDS = ["majority", "auction"];
  const isAward = (e) => AWARD_KINDS.includes(e.kind);

  /** The public events that arrived since the previous drawing (the view keeps the last 16). */
  function freshEvents(events) {
    const before = lastEvents;
    lastEvents = events;
    for (let keep = Math.min(before.length, events.length); keep > 0; keep -= 1) {
      const tail = before.slice(before.length - keep);
      if (tail.every((e, i) => sameEvent(e, events[i]))) return events.slice(keep);
    }
    return before.length ? events : [];
  }

  const NEWS_MS = 8000; // how long an award stays in the banner (bots may act many times meanwhile)
  let news = []; // {text, at}

  /** Majority awards and auction results as they happen: a banner with what just came about. */
  function drawNews(view, replay) {
    if (replay) return null;
    const now = Date.now();
    const fresh = freshEvents(view.events).filter(isAward);
    news = news.filter((n) => now - n.at < NEWS_MS).concat(fresh.map((e) => ({ text: e.text, kind: e.kind, at: now }))).slice(-4);
    if (!news.length) return null;
    return el("div", { class: "mr-news", role: "status", "aria-label": Ludorum.t("just happened") },
      el("strong", {}, Ludorum.t("Just now:") + " "), news.map((n) => el("p", { "data-kind": n.kind }, n.text)));
  }

  function drawEvents(view) {
    const recent = view.events.slice(-8).reverse();
    return el("section", { class: "mr-events", "aria-label": Ludorum.t("recent events") },
      el("h3", {}, Ludorum.t("On the table")),
      recent.length ? el("ol", {}, recent.map((e, i) => el("li", { class: `${i === 0 ? "latest " : ""}${isAward(e) ? "award" : ""}`.trim() || null, "data-kind": e.kind }, e.text)))
        : el("p", { class: "muted small" }, Ludorum.t("Nothing has happened yet.")));
  }

  /** How many of our leaders are still to be placed this round (the two-player buffers are Mayors). */
  function leftToPlace(view) {
    const realm = view.realms[view.you];
    return realm.mayors + realm.generals + realm.admirals - (realm.placement || []).length;
  }

  /** Buttons for the actions that are not a place on the board: pass, and taking back the placement. */
  function drawTools(view, ctx) {
    if (view.auction) return null;
    const extra = ctx.legal.filter((l) => l.action.kind === "pass" || l.action.kind === "cancel");
    const next = ctx.legal.find((l) => ["mayor", "general", "admiral", "buffer"].includes(l.action.kind));
    const HINTS = {
      mayor: Ludorum.t("Place your mayor: click a Management Zone square of your realm ({n} left to place)."),
      general: Ludorum.t("Place your general: click a map area of your realm ({n} left to place)."),
      admiral: Ludorum.t("Place your admiral: click a map area of your realm ({n} left to place)."),
      buffer: Ludorum.t("Place your buffer Mayor: click a map area of your realm ({n} left to place)."),
    };
    const hint = next ? Ludorum.format(HINTS[next.action.kind], { n: leftToPlace(view) }) : null;
    const extras = ctx.legal.some((l) => l.action.kind === "extra") ? Ludorum.t("Choose your two extra resources: click a Manor square.") : null;
    const token = ctx.legal.some((l) => l.action.kind === "token") ? Ludorum.t("Take a token of your choice: click a Manor square.") : null;
    const play = ctx.legal.some((l) => l.action.kind === "activate") ? Ludorum.t("Click a panel square to activate its card, a display card to put it into play, or pass.") : null;
    const words = hint || extras || token || play;
    if (!words && !extra.length) return null;
    return el("div", { class: "mr-tools" }, words ? el("p", { class: "mr-hint" }, words) : null,
      extra.map((l) => el("button", { class: `mr-${l.action.kind}-button`, onclick: () => ctx.submit(l.action) }, l.label)));
  }

  function drawFinal(view) {
    if (!view.final) return null;
    const rows = view.final.slice().sort((a, b) => b.total - a.total).map((f) => el("tr", { "data-seat": f.seat },
      el("th", {}, colourName(view.realms[f.seat])), el("td", {}, f.track), el("td", {}, f.end_effects), el("td", {}, f.resources), el("td", {}, f.great_persons), el("td", { class: "mr-bold" }, f.total)));
    const heads = [Ludorum.t("Realm"), Ludorum.t("VP track"), Ludorum.t("End-of-game effects"), Ludorum.t("Resources (1 per 2)"), Ludorum.t("Great Persons"), Ludorum.t("Total")];
    return el("section", { class: "mr-final", "aria-label": Ludorum.t("final scores") },
      el("h3", {}, Ludorum.t("Final scoring")),
      el("table", {}, el("thead", {}, el("tr", {}, heads.map((h) => el("th", {}, h)))),
        el("tbody", {}, rows)));
  }

  // -- the whole board ------------------------------------------------------------------------------------

  const NARROW = 480; // board width (px) under which the parts are laid out for a phone
  const drawn = new Map(); // board element -> the arguments of its last drawing, to redraw on resize

  function draw(board, view, ctx) {
    loadStyles();
    drawn.set(board, [view, ctx]);
    const narrow = (board.clientWidth || 800) < NARROW;
    board.dataset.mrNarrow = String(narrow);
    const root = el("div", { class: "mr", "data-phase": view.phase, "data-round": view.round });
    const keep = Ludorum.keptFor(kept, board, ctx, { bid: null });
    const ui = Ludorum.boardMenu(root, ctx, keep, "mr");
    // The one order of players is the Turn Order Track's; your own realm comes first (it is where you
    // place and play) and the others follow it round the track from you.
    const track = view.turn_order;
    const from = view.you === null || view.you === undefined ? 0 : Math.max(0, track.indexOf(view.you));
    const ordered = track.slice(from).concat(track.slice(0, from));
    root.append(
      drawHeader(view),
      drawFinal(view) || "",
      drawNews(view, ctx.replay) || "",
      drawTools(view, ctx) || "",
      drawAuction(view, ctx, keep) || "",
      drawVpTrack(view, narrow),
      el("div", { class: "mr-boards" }, drawCurrentPanel(view, ctx, ui), drawFuturePanel(view), drawEvents(view)),
      drawMapChallenge(view, narrow),
      el("div", { class: "mr-realms" }, ordered.map((seat) => drawRealm(view, view.realms[seat], ctx, ui, narrow))));
    board.replaceChildren(root);
    ui.restore();
  }

  // A phone turned sideways (or a resized window) crosses the narrow width: draw again in the other layout.
  window.addEventListener("resize", () => {
    for (const [board, [view, ctx]] of drawn) {
      if (!board.isConnected) { drawn.delete(board); continue; }
      if (String((board.clientWidth || 800) < NARROW) !== board.dataset.mrNarrow) draw(board, view, ctx);
    }
  });

  /** The frame's list in short steps: the extra resources (21 pairs) by their first resource, then the
   * second; a token of one's choice (7) as one entry, then which. */
  function group(action) {
    const name = (r) => (RES[r] ? RES[r].label : String(r));
    if (action.kind === "extra") {
      const [a, b] = action.args;
      return { group: Ludorum.t("Extra resources: {a} and…", { a: name(a) }), short: Ludorum.t("{a} and {b}", { a: name(a), b: name(b) }) };
    }
    if (action.kind === "token") return { group: Ludorum.t("A token of your choice…"), short: name(action.args[0]) };
    return null;
  }

  /** The card a choice is about (effects.js): the card activated on its square, put into play, or bid for. */
  function effectOf(action, view) {
    if (action.kind === "activate") {
      const sq = view.panel.find((x) => x.square === action.args[0]);
      return sq && sq.card ? sq.card.name : null;
    }
    if (action.kind === "play") {
      const cards = [...view.realms.flatMap((realm) => realm.display || []), ...view.panel.map((sq) => sq.card)];
      const card = cards.find((c) => c && c.id === action.args[0]);
      return card ? card.name : null;
    }
    if (action.kind === "bid" || (action.kind === "pass" && view.auction)) return view.auction ? view.auction.card.name : null;
    return null;
  }

  Ludorum.registerRenderer("medieval-realms", { draw, group, effectOf });
})();
