// What a thing does, at the moment of choosing: the effect texts of a game's cards, creatures, buildings
// and properties (GET /api/effects/<game>, fetched once per game kind in the reader's language) shown
// beside whatever names one.
//
// A renderer marks a board piece with data-effect="<key>" (the key the game's content names it by: a
// Signum card id, a Reliquium creature's or a Medieval Realms card's name) and may offer
// effectOf(action, view) for the list of choices.  Every marked element then gets:
//   - aria-describedby pointing at a hidden description (name and text), read by screen readers on focus;
//   - a visible popover (role="tooltip") on hover, on keyboard focus and on a long press (touch), closed
//     by moving away, by Escape or by touching elsewhere.
// The texts are static content: they say what a card does, never which card a seat holds; a piece the
// page may not name (an opponent's face-down card) carries no key, so it gets no text.
"use strict";
(function () {
  const el = Ludorum.el;
  const LONG_PRESS_MS = 500;
  let game = null;
  let texts = {}; // key → {name, text}
  let ids = new Map(); // key → id of its hidden description
  let tip = null;
  let shownFor = null;
  let pressTimer = null;
  let pressed = null; // the element a long press opened the popover for: its click is swallowed

  /** The descriptions' hidden home and the popover, made once. */
  function setUp() {
    if (tip) return;
    document.body.append(el("div", { id: "effect-texts", hidden: true }));
    tip = el("div", { id: "effect-tip", class: "effect-tip", role: "tooltip", hidden: true });
    document.body.append(tip);
  }

  /** Fetch the texts of `name`'s game once; the page is decorated again when they arrive. */
  function load(name) {
    if (!name || name === game) return;
    game = name;
    setUp();
    Ludorum.api("GET", `/api/effects/${encodeURIComponent(name)}`).then((data) => {
      if (game !== name) return;
      texts = data.effects || {};
      ids = new Map();
      document.getElementById("effect-texts").replaceChildren();
      decorate(document);
    }).catch(() => { texts = {}; }); // no texts: the page works as before, with names alone
  }

  /** The effect of a key, or null. */
  function of(key) {
    return key !== null && key !== undefined && Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : null;
  }

  /** The id of the hidden description of `key` (made on first use). */
  function describedBy(key) {
    if (!ids.has(key)) {
      const id = `effect-${ids.size + 1}`;
      const e = of(key);
      document.getElementById("effect-texts").append(el("span", { id }, `${e.name}: ${e.text}`));
      ids.set(key, id);
    }
    return ids.get(key);
  }

  /** Link every marked element under `root` to its description. */
  function decorate(root) {
    if (!tip) return;
    for (const node of root.querySelectorAll("[data-effect]")) {
      const key = node.getAttribute("data-effect");
      if (!of(key)) continue;
      const id = describedBy(key);
      const said = (node.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && !x.startsWith("effect-"));
      node.setAttribute("aria-describedby", [...said, id].join(" "));
      node.classList.add("has-effect");
    }
  }

  /** The key a choice of the list (its actions) is about: the renderer's, when all its actions agree.
   * Kept even before the texts arrive: the list is not drawn again when they do. */
  function keyOf(renderer, actions, view) {
    if (!renderer || typeof renderer.effectOf !== "function" || !actions.length) return null;
    let key = null;
    try {
      const keys = actions.map((l) => renderer.effectOf(l.action, view));
      key = keys.every((k) => k === keys[0]) ? keys[0] : null;
    } catch (e) {
      key = null;
    }
    return key === undefined ? null : key; // linked to its text when the texts are in (decorate)
  }

  function marked(target) {
    const node = target && target.closest ? target.closest("[data-effect]") : null;
    return node && of(node.getAttribute("data-effect")) ? node : null;
  }

  /** The marked thing under the pointer: the target itself, else the smallest board piece whose box holds
   * the point — board pieces let clicks through to the places beneath them (pointer-events: none), so
   * the pointer never targets them. */
  function at(event) {
    const node = marked(event.target);
    if (node || !event.target.closest || !event.target.closest(".board")) return node;
    let best = null;
    let area = Infinity;
    for (const piece of event.target.closest(".board").querySelectorAll("[data-effect]")) {
      const box = piece.getBoundingClientRect();
      const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
      if (inside && box.width * box.height < area && of(piece.getAttribute("data-effect"))) {
        best = piece;
        area = box.width * box.height;
      }
    }
    return best;
  }

  /** Show the popover beside `node`: below it, else above, kept inside the window. */
  function show(node) {
    const e = of(node.getAttribute("data-effect"));
    if (!e) return;
    shownFor = node;
    tip.replaceChildren(el("strong", {}, e.name), " ", el("span", {}, e.text));
    tip.hidden = false;
    const box = node.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    tip.style.maxWidth = `${width}px`;
    const height = tip.offsetHeight;
    const below = box.bottom + 6 + height <= window.innerHeight;
    const top = below ? box.bottom + 6 : Math.max(4, box.top - 6 - height);
    const left = Math.min(Math.max(4, box.left), window.innerWidth - tip.offsetWidth - 4);
    tip.style.top = `${top + window.scrollY}px`;
    tip.style.left = `${left + window.scrollX}px`;
  }

  function hide() {
    if (!tip) return;
    tip.hidden = true;
    shownFor = null;
  }

  let moved = null; // the latest pointer move, looked at once per frame
  document.addEventListener("mousemove", (event) => {
    if (moved === null) {
      requestAnimationFrame(() => {
        const node = at(moved);
        moved = null;
        if (node && node !== shownFor) show(node);
        else if (!node && shownFor && !pressed && shownFor !== document.activeElement) hide();
      });
    }
    moved = event;
  });
  document.addEventListener("focusin", (event) => {
    const node = marked(event.target);
    if (node) show(node);
    else hide();
  });
  document.addEventListener("focusout", () => { if (!pressed) hide(); });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  window.addEventListener("scroll", () => { if (!pressed) hide(); }, { passive: true });

  // A long press on a touch screen shows the text; the click that ends it does not choose.
  document.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    clearTimeout(pressTimer);
    pressed = null; // a new touch: only its own long press swallows its click
    const node = at(event);
    if (!node) { hide(); return; }
    pressTimer = setTimeout(() => { pressed = node; show(node); }, LONG_PRESS_MS);
  });
  for (const type of ["pointerup", "pointercancel", "pointermove"]) {
    document.addEventListener(type, (event) => {
      if (type !== "pointermove" || Math.abs(event.movementX) + Math.abs(event.movementY) > 8) clearTimeout(pressTimer);
    });
  }
  document.addEventListener("click", (event) => {
    if (pressed) {
      event.preventDefault();
      event.stopPropagation();
      pressed = null; // the popover stays open until the next touch elsewhere
    }
  }, true);
  document.addEventListener("contextmenu", (event) => { if (at(event)) event.preventDefault(); });

  // Boards are redrawn on every step: new pieces are linked to their descriptions as they appear.
  let queued = false;
  new MutationObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      decorate(document);
      if (shownFor && !shownFor.isConnected) hide();
    });
  }).observe(document.documentElement, { childList: true, subtree: true });

  Ludorum.effects = { load, of, keyOf, decorate, show, hide };
})();
