// Ludorum web client: helpers shared by the lobby and the game page.  No framework, no CDN.
"use strict";

window.Ludorum = window.Ludorum || {};

// -- the reader's language (docs/i18n.md) --------------------------------------------------------------
// Chosen in the page's language menu and remembered in localStorage and the `ludorum_lang` cookie, which
// the server reads too (so the labels, names and refusals it sends come in the same language); else the
// browser's languages.  The table (/static/locale/<lang>.json, built by `python -m ludorum.locale.build`)
// is loaded before any page script runs, so that Ludorum.t works everywhere at once.
Ludorum.LANGUAGES = { en: "English", ru: "Русский" };
Ludorum.lang = (function () {
  const spoken = (code) => (code && Object.prototype.hasOwnProperty.call(Ludorum.LANGUAGES, code) ? code : null);
  let saved = null;
  try { saved = localStorage.getItem("ludorum_lang"); } catch (e) { saved = null; }
  const cookie = (document.cookie.match(/(?:^|;\s*)ludorum_lang=([^;]*)/) || [])[1];
  const browser = (navigator.languages || [navigator.language || ""]).map((l) => spoken(String(l).toLowerCase().split("-")[0])).find(Boolean);
  return spoken(saved) || spoken(cookie) || browser || "en";
})();
document.cookie = `ludorum_lang=${Ludorum.lang}; path=/; max-age=31536000; SameSite=Lax`;
document.documentElement.lang = Ludorum.lang;
Ludorum.messages = (function () {
  if (Ludorum.lang === "en") return {};
  try {
    const request = new XMLHttpRequest();
    request.open("GET", `/static/locale/${Ludorum.lang}.json`, false); // before the page's scripts run
    request.send();
    return request.status === 200 ? JSON.parse(request.responseText) : {};
  } catch (e) {
    return {};
  }
})();

/** `text` with its {name} placeholders filled from `params`. */
Ludorum.format = function (text, params) {
  return params ? text.replace(/\{(\w+)\}/g, (m, k) => (Object.prototype.hasOwnProperty.call(params, k) ? String(params[k]) : m)) : text;
};

/** A message in the reader's language: Ludorum.t("Seat {n}", {n: 2}).  Write the message as a plain
 * string literal, never inside a template literal's ${}: the catalog build extracts it from there. */
Ludorum.t = function (msgid, params) {
  const s = Ludorum.messages[msgid];
  return Ludorum.format(typeof s === "string" && s ? s : msgid, params);
};

/** The plural form of a language for the number n (the index into a message's translations). */
Ludorum.pluralIndex = function (lang, n) {
  if (lang === "ru") return n % 10 === 1 && n % 100 !== 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 10 || n % 100 >= 20) ? 1 : 2;
  return n === 1 ? 0 : 1;
};

/** A message with plural forms: Ludorum.tn("{n} step", "{n} steps", n, {...}); `n` is a parameter too. */
Ludorum.tn = function (singular, plural, n, params) {
  const forms = Ludorum.messages[singular];
  const all = Object.assign({ n }, params || {});
  if (Array.isArray(forms) && forms.every(Boolean)) return Ludorum.format(forms[Ludorum.pluralIndex(Ludorum.lang, n)] || forms[forms.length - 1], all);
  return Ludorum.format(n === 1 ? singular : plural, all);
};

// -- clocks (docs/server.md, "Clocks") ------------------------------------------------------------------

/** Milliseconds as a clock shows them: 4:05, 1:02:03 (rounded up: 0:00 only once the time is up). */
Ludorum.clockTime = function (ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
};

/** A clock setting in words (the lobby line, the game page). */
Ludorum.clockSetting = function (clock) {
  const time = clock.mode === "move"
    ? Ludorum.t("clock: {seconds} s per decision", { seconds: clock.per_move })
    : Ludorum.t("clock: {time} + {increment} s per turn", { time: Ludorum.clockTime(clock.base * 1000), increment: clock.increment });
  const then = clock.on_expiry === "lose" ? Ludorum.t("out of time loses") : Ludorum.t("out of time: a bot takes over");
  return `${time} (${then})`;
};

/** A seat's time left now, from a snapshot's clock read `sinceMs` milliseconds ago (the running clock
 * counts down from the server's reading, so the browser's own clock setting does not matter). */
Ludorum.clockLeft = function (clock, seat, sinceMs) {
  const left = clock.left[seat];
  if (left === null || left === undefined) return null;
  return clock.running === seat ? left - sinceMs : left;
};

/** Remember a language and read the page again in it. */
Ludorum.setLanguage = function (lang) {
  try { localStorage.setItem("ludorum_lang", lang); } catch (e) { /* private mode: the cookie remembers */ }
  document.cookie = `ludorum_lang=${lang}; path=/; max-age=31536000; SameSite=Lax`;
  location.reload();
};

/** Translate the page's own HTML: the first text of each [data-t] element, and the attributes named in
 * its data-t-attr (the build extracts the same from the .html files). */
Ludorum.translatePage = function (root) {
  for (const node of (root || document).querySelectorAll("[data-t], [data-t-attr]")) {
    if (node.hasAttribute("data-t")) {
      const text = [...node.childNodes].find((c) => c.nodeType === Node.TEXT_NODE && c.nodeValue.trim());
      if (text) text.nodeValue = text.nodeValue.replace(text.nodeValue.trim(), Ludorum.t(text.nodeValue.trim()));
    }
    for (const attr of (node.getAttribute("data-t-attr") || "").split(/\s+/).filter(Boolean)) {
      if (node.hasAttribute(attr)) node.setAttribute(attr, Ludorum.t(node.getAttribute(attr)));
    }
  }
};

/** The language menu of the page's top bar. */
Ludorum.languageMenu = function () {
  const select = document.createElement("select");
  select.id = "language";
  select.className = "language";
  select.style.marginLeft = "auto";
  select.setAttribute("aria-label", Ludorum.t("Language"));
  for (const [code, name] of Object.entries(Ludorum.LANGUAGES)) select.append(new Option(name, code, false, code === Ludorum.lang));
  select.addEventListener("change", () => Ludorum.setLanguage(select.value));
  return select;
};

// The scripts are deferred: the page's HTML is all there, and the page's own script has not run yet.
Ludorum.translatePage();
(function () {
  const bar = document.querySelector("header.bar");
  if (bar) bar.append(Ludorum.languageMenu());
})();

/** Call the API: JSON in and out; a refusal throws an Error whose message is the server's words. */
Ludorum.api = async function (method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw Object.assign(new Error(Ludorum.t("The server cannot be reached; check that Ludorum is still running.")), { code: "offline" });
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const err = (data && data.error) || {};
    const message = err.message || Ludorum.t("The server refused ({status}).", { status: response.status });
    throw Object.assign(new Error(err.rule ? `${message} (${err.rule})` : message), { code: err.code, status: response.status, data: err });
  }
  return data;
};

/** Build an element: el("li", {class: "x", onclick: f}, "text", child, ...). */
Ludorum.el = function (tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
};

/** Renderers register here: Ludorum.registerRenderer("game-name", {draw(boardEl, view, ctx) {...}}). */
/** An SVG element, for renderers: svg("rect", {x: 1, onclick: f}, child, ...); null/false skipped. */
Ludorum.svg = function (tag, attrs, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
};

Ludorum.renderers = Ludorum.renderers || {};
Ludorum.registerRenderer = function (name, renderer) {
  if (!renderer || typeof renderer.draw !== "function") throw new Error("a renderer needs draw(boardEl, view, ctx)");
  Ludorum.renderers[name] = renderer;
};

/** Load a game's renderer script if it has one; resolves to the renderer or null (the fallback). */
Ludorum.loadRenderer = function (name) {
  if (Ludorum.renderers[name]) return Promise.resolve(Ludorum.renderers[name]);
  return new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = `/static/games/${encodeURIComponent(name)}.js`;
    script.onload = () => resolve(Ludorum.renderers[name] || null);
    script.onerror = () => resolve(null);
    document.head.append(script);
  });
};

/** The fallback board: the view as nested, readable lists (any game, no renderer needed). */
Ludorum.drawView = function (boardEl, view) {
  const el = Ludorum.el;
  const words = (key) => String(key).replace(/_/g, " ");
  function node(value) {
    if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
    if (Array.isArray(value)) {
      if (value.every((v) => v === null || typeof v !== "object")) return el("span", {}, value.map((v) => (v === null ? "—" : String(v))).join(", ") || Ludorum.t("none"));
      return el("ol", { start: 0 }, value.map((v) => el("li", {}, node(v))));
    }
    if (typeof value === "object") {
      if (Object.keys(value).length === 1 && "hidden" in value) return el("span", { class: "muted" }, value.hidden === true ? Ludorum.t("hidden") : Ludorum.t("hidden ({what})", { what: value.hidden }));
      return el("dl", {}, Object.entries(value).map(([k, v]) => [el("dt", {}, words(k)), el("dd", {}, node(v))]));
    }
    return el("span", {}, String(value));
  }
  // The setup is shown by the frame already; the rest of the view is the board.
  const shown = view && typeof view === "object" && !Array.isArray(view)
    ? Object.fromEntries(Object.entries(view).filter(([k]) => k !== "config")) : view;
  boardEl.replaceChildren(el("div", { class: "view" }, node(shown)));
};

/** Place a board pop-up beside the thing it is about, never over it.  `popup` is absolutely positioned
 * inside `container` (position: relative) and already appended; `anchor` is the clicked element (its
 * visible part: clipped by the boxes that scroll or clip it) or a box {left, top, right, bottom} in
 * `container`'s coordinates (a menu reopened after a redraw).  It goes below the anchor, else above,
 * right or left, whichever first fits in the window above the phone's bottom sheet; else below.
 * Returns the anchor's box in `container`'s coordinates, to reopen the pop-up in the same place. */
Ludorum.placeBeside = function (popup, anchor, container) {
  const c = container.getBoundingClientRect();
  let a;
  if (anchor instanceof Element) {
    const r = anchor.getBoundingClientRect();
    a = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    for (let p = anchor.parentElement; p && p !== container; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflow === "visible" && p.tagName.toLowerCase() !== "svg") continue;
      const q = p.getBoundingClientRect();
      a = { left: Math.max(a.left, q.left), top: Math.max(a.top, q.top), right: Math.min(a.right, q.right), bottom: Math.min(a.bottom, q.bottom) };
    }
    if (a.right < a.left) a.right = a.left;
    if (a.bottom < a.top) a.bottom = a.top;
  } else {
    a = { left: anchor.left + c.left, top: anchor.top + c.top, right: anchor.right + c.left, bottom: anchor.bottom + c.top };
  }
  const sheet = document.getElementById("actions-panel");
  const floor = sheet && !sheet.hidden && getComputedStyle(sheet).position === "fixed" ? sheet.getBoundingClientRect().top : window.innerHeight;
  const width = document.documentElement.clientWidth;
  const w = popup.offsetWidth, h = popup.offsetHeight, gap = 6;
  const x = Math.max(2, Math.min(a.left, width - w - 2));
  const y = Math.max(2, Math.min(a.top, floor - h - 2));
  const spots = [
    [x, a.bottom + gap, a.bottom + gap + h <= floor],
    [x, a.top - gap - h, a.top - gap - h >= 0],
    [a.right + gap, y, a.right + gap + w <= width],
    [a.left - gap - w, y, a.left - gap - w >= 0],
  ];
  const [left, top] = (spots.find((s) => s[2]) || spots[0]);
  popup.style.left = `${left - c.left}px`;
  popup.style.top = `${top - c.top}px`;
  return { left: a.left - c.left, top: a.top - c.top, right: a.right - c.left, bottom: a.bottom - c.top };
};

/** What a renderer keeps for one board across redraws of the same step (the answer to our action, then
 * the WebSocket push, draw it twice; so does a resize): the kept object while `ctx.version` holds (never
 * in a replay), else a fresh `{version, menu: null, ...fresh}`.  `kept` is the renderer's Map of board
 * element → kept object. */
Ludorum.keptFor = function (kept, board, ctx, fresh) {
  const old = kept.get(board);
  const k = old && old.version === ctx.version && !ctx.replay ? old : Object.assign({ version: ctx.version, menu: null }, fresh);
  kept.set(board, k);
  return k;
};

/** A board's clicks: `offer(options, name, anchor)` submits a single {label, action} at once and opens a
 * small menu for several (`${prefix}-menu`, titled `name`, beside `anchor` and never over it:
 * Ludorum.placeBeside), focused on its first choice; Escape or Close shuts it.  The open menu is kept
 * in `keep.menu` (Ludorum.keptFor) so that `restore()`, called once the board is drawn again for the
 * same step, reopens it in the same place with the choices still legal. */
Ludorum.boardMenu = function (root, ctx, keep, prefix) {
  const el = Ludorum.el;
  let menu = null;
  function close() {
    if (menu) menu.remove();
    menu = null;
    keep.menu = null;
  }
  /** `anchor`: the clicked element, or its box kept from before a redraw. */
  function open(name, options, anchor) {
    if (!options.length) return;
    menu = el("div", { class: `${prefix}-menu`, role: "menu", "aria-label": name },
      el("div", { class: `${prefix}-menu-title` }, name),
      options.map((o) => el("button", { role: "menuitem", onclick: () => { close(); ctx.submit(o.action); } }, o.label)),
      el("button", { class: `${prefix}-menu-close`, onclick: close }, Ludorum.t("Close")));
    menu.addEventListener("keydown", (event) => { if (event.key === "Escape") close(); });
    root.append(menu);
    keep.menu = { name, options, box: Ludorum.placeBeside(menu, anchor, root) };
  }
  function offer(options, name, anchor) {
    close();
    if (options.length === 1) { ctx.submit(options[0].action); return; }
    open(name, options, anchor);
    const first = menu && menu.querySelector("button");
    if (first) first.focus({ preventScroll: true });
  }
  function restore() {
    const m = keep.menu;
    if (m) open(m.name, m.options.filter((o) => ctx.isLegal(o.action)), m.box);
  }
  return { offer, close, restore };
};

/** Same-valued JSON? (actions are small; key order is the server's). */
Ludorum.sameAction = function (a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
};
