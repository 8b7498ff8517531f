// The lobby: start a game against bots or friends, join an open seat, watch or replay a game.
"use strict";
(function () {
  const { api, el } = Ludorum;
  const $ = (id) => document.getElementById(id);
  let catalog = [];
  let status = "open";

  function current() {
    return catalog.find((g) => g.name === $("game-select").value);
  }

  function showError(e) {
    $("lobby-error").textContent = e ? e.message || String(e) : "";
  }

  // -- options: each drawn from its structured description (/api/catalog "options") -------------------
  const seatOptions = (game) => game.options.filter((o) => o.seat !== null || o.kind === "per_seat");
  const gameOptions = (game) => game.options.filter((o) => o.seat === null && o.kind !== "per_seat");

  /** The value an option takes with n players when the lobby sends nothing. */
  function defaultOf(option, n) {
    const byPlayers = option.defaults[String(n)];
    return byPlayers !== undefined ? byPlayers : option.default;
  }

  /** A control for a whole-game option (a choice, a number or text with suggestions). */
  function optionControl(option, n) {
    const value = defaultOf(option, n);
    const attrs = { "data-option": option.name, id: `option-${option.name}` };
    let control;
    if (option.kind === "choice") {
      control = el("select", attrs, option.choices.map((c) => el("option", { value: c.value }, c.label)));
    } else if (option.kind === "int") {
      control = el("input", { ...attrs, type: "number", step: 1, min: option.minimum, max: option.maximum, required: true });
    } else {
      control = el("input", { ...attrs, type: "text", list: option.choices.length ? `${attrs.id}-list` : null });
    }
    if (value !== null && value !== undefined) control.value = String(value);
    const list = option.kind === "text" && option.choices.length
      ? el("datalist", { id: `${attrs.id}-list` }, option.choices.map((c) => el("option", { value: c.value }, c.label))) : null;
    return el("label", { class: "option" }, `${option.description} `, control, list);
  }

  /** A seat's own choices: its part of a per-seat option (a faction) or its option (a deck). */
  function seatControls(game, i, n) {
    return seatOptions(game).filter((o) => o.seat === null || o.seat === i).map((o) => {
      const label = Ludorum.t("{option} of seat {n}", { option: optionWord(o.name.replace(/\d+$/, "")), n: i + 1 });
      if (o.kind === "per_seat") {
        const picked = String(defaultOf(o, n) || "").split(",");
        const select = el("select", { "aria-label": label, "data-option": o.name, "data-part": i, class: "seat-option" },
          o.choices.map((c) => el("option", { value: c.value }, c.label)));
        select.value = picked[i] || o.choices[i % o.choices.length].value;
        select.dataset.was = select.value;
        select.addEventListener("change", () => {
          // every seat's choice differs: the seat that had this one takes this seat's old one
          for (const other of document.querySelectorAll(`#seats select[data-option="${o.name}"]`)) {
            if (other !== select && other.value === select.value) { other.value = select.dataset.was; other.dataset.was = other.value; }
          }
          select.dataset.was = select.value;
        });
        return select;
      }
      // a seat's own option: its suggested values, or text of one's own (a Signum deck spelled out)
      const own = el("input", { type: "text", "aria-label": Ludorum.t("{label}: your own", { label }), "data-own": o.name, hidden: true,
        placeholder: o.description, class: "own" });
      const select = el("select", { "aria-label": label, "data-option": o.name, class: "seat-option", title: o.description },
        o.choices.map((c) => el("option", { value: c.value }, c.label)), el("option", { value: "" }, Ludorum.t("your own…")));
      const value = defaultOf(o, n);
      select.value = value === null || value === undefined ? "" : String(value);
      select.addEventListener("change", () => { own.hidden = select.value !== ""; if (!own.hidden) own.focus(); });
      return [select, own];
    });
  }

  /** The options chosen in the form: only those that differ from what the game does without them. */
  function chosenOptions(game, rows, n) {
    const options = {};
    for (const o of gameOptions(game)) {
      const control = document.querySelector(`#options [data-option="${o.name}"]`);
      if (!control || control.value === "") continue;
      const value = o.kind === "int" ? Number(control.value) : control.value;
      if (value !== defaultOf(o, n)) options[o.name] = value;
    }
    for (const o of seatOptions(game)) {
      if (o.kind === "per_seat") {
        const value = rows.map((r) => r.parts[o.name]).join(",");
        if (value !== defaultOf(o, n)) options[o.name] = value;
      } else if (o.seat < n) {
        const row = rows.find((r) => r.seat === o.seat);
        const value = row.own[o.name];
        if (value !== undefined && value !== defaultOf(o, n)) options[o.name] = value;
      }
    }
    return options;
  }

  /** An option's name as a player reads it (the names are the API's; those the lobby shows are here). */
  function optionWord(name) {
    const words = { faction: Ludorum.t("faction"), factions: Ludorum.t("factions"), deck: Ludorum.t("deck"), realm: Ludorum.t("realm") };
    return words[name] || name;
  }

  function seatChoice(game, i, n) {
    const select = el("select", { "aria-label": Ludorum.t("seat {n}", { n: i + 1 }), "data-seat": i },
      el("option", { value: "you" }, Ludorum.t("You")),
      el("option", { value: "human" }, Ludorum.t("A friend (open seat)")),
      game.bots.map((b) => el("option", { value: `bot:${b}` }, Ludorum.t("Bot: {name}", { name: b }))));
    select.value = i === 0 ? "you" : `bot:${game.default_bot}`;
    select.addEventListener("change", () => {
      // Only one seat can be yours in one browser: moving "You" frees the other one.
      if (select.value !== "you") return;
      for (const other of document.querySelectorAll("#seats select[data-seat]")) {
        if (other !== select && other.value === "you") other.value = "human";
      }
    });
    return el("li", {}, select, seatControls(game, i, n));
  }

  function drawSetup() {
    const game = current();
    if (!game) return;
    const players = game.min_players === game.max_players ? Ludorum.tn("{n} player", "{n} players", game.min_players)
      : Ludorum.t("{min}–{max} players", { min: game.min_players, max: game.max_players });
    $("game-blurb").replaceChildren(
      game.blurb ? el("span", { class: "blurb" }, game.blurb, " ") : "",
      el("span", { class: "facts" }, [players, game.length].filter(Boolean).join(" · ") + "."),
      " ",
      game.rules ? el("a", { href: `/static/rules.html?game=${encodeURIComponent(game.name)}`, target: "_blank", rel: "noopener" }, Ludorum.t("Rules of {game}", { game: game.title })) : "");
    const playersInput = $("players");
    playersInput.min = game.min_players;
    playersInput.max = game.max_players;
    let n = Number(playersInput.value) || game.min_players;
    n = Math.min(game.max_players, Math.max(game.min_players, n));
    playersInput.value = n;
    const variants = Object.entries(game.variants);
    $("variants").replaceChildren(el("legend", {}, Ludorum.t("Variants")),
      ...(variants.length ? variants.map(([name, text]) => el("label", {},
        el("input", { type: "checkbox", name: "variant", value: name }), Ludorum.lang === "en" ? ` ${name} — ${text}` : ` ${text}`))
        : [el("p", { class: "muted" }, Ludorum.t("This game has no variants."))]));
    $("options").hidden = !gameOptions(game).length;
    $("options").replaceChildren(el("legend", {}, Ludorum.t("Options")), ...gameOptions(game).map((o) => optionControl(o, n)));
    $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => seatChoice(game, i, n)));
    const ordered = seatOptions(game).find((o) => o.seat_order);
    $("seat-note").textContent = ordered
      ? Ludorum.t("Seats play in the order of their {option} ({choices}): the game seats everyone by that order.",
        { option: optionWord(ordered.name.replace(/s$/, "")), choices: ordered.choices.map((c) => c.label).join(", ") })
      : "";
  }

  /** Show the clock's fields that its mode uses. */
  function drawClock() {
    const mode = $("clock-mode").value;
    for (const [cls, shown] of [["clock-fischer", mode === "fischer"], ["clock-move", mode === "move"], ["clock-any", mode !== ""]]) {
      for (const label of document.querySelectorAll(`#clock .${cls}`)) label.hidden = !shown;
    }
  }

  /** The clock chosen in the form (the API's seconds), or null for none. */
  function chosenClock() {
    const mode = $("clock-mode").value;
    if (!mode) return null;
    const clock = { mode, on_expiry: $("clock-expiry").value };
    if (mode === "fischer") {
      clock.base = Math.round(Number($("clock-base").value) * 60);
      clock.increment = Number($("clock-increment").value);
    } else {
      clock.per_move = Number($("clock-per-move").value);
    }
    return clock;
  }

  async function create(event) {
    event.preventDefault();
    showError(null);
    const game = current();
    let rows = [...document.querySelectorAll("#seats li")].map((li, i) => ({
      seat: i,
      who: li.querySelector("select[data-seat]").value,
      parts: Object.fromEntries([...li.querySelectorAll("select[data-part]")].map((s) => [s.dataset.option, s.value])),
      own: Object.fromEntries([...li.querySelectorAll("select.seat-option:not([data-part])")].map((s) => [s.dataset.option,
        s.value !== "" ? s.value : li.querySelector(`input[data-own="${s.dataset.option}"]`).value.trim()])),
    }));
    const ordered = seatOptions(game).find((o) => o.seat_order);
    if (ordered) {
      // the game seats players in the order of this option's choices: the seats follow their choice
      const rank = (row) => ordered.choices.findIndex((c) => c.value === row.parts[ordered.name]);
      rows = rows.slice().sort((a, b) => rank(a) - rank(b));
    }
    const seats = [];
    let claim = null;
    for (const row of rows) {
      const v = row.who;
      if (v === "you") { claim = seats.length; seats.push({ kind: "human" }); }
      else if (v === "human") seats.push({ kind: "human" });
      else seats.push({ kind: "bot", bot: v.slice(4) });
    }
    const options = chosenOptions(game, rows.map((r, i) => ({ ...r, seat: ordered ? i : r.seat })), seats.length);
    const variants = [...document.querySelectorAll("#variants input:checked")].map((c) => c.value);
    $("create").disabled = true;
    try {
      const made = await api("POST", "/api/games", {
        game: game.name, config: { players: seats.length, variants, options }, seats, claim,
        hints: { on: true, off: false }[$("hints").value], // left out: the server's default for these seats
        clock: chosenClock(),
      });
      location.href = `/game/${made.id}`;
    } catch (e) {
      showError(e);
    } finally {
      $("create").disabled = false;
    }
  }

  function describe(g) {
    const seats = g.players.map((p) => (p.kind === "bot" ? Ludorum.t("bot ({name})", { name: p.bot }) : p.claimed ? Ludorum.t("player") : Ludorum.t("open seat")));
    let text = [g.title, Ludorum.tn("{n} player", "{n} players", g.config.players), seats.join(", "), Ludorum.tn("{n} step", "{n} steps", g.version)].join(" · ");
    if (g.result) {
      const winners = g.result.ranking.map((r, i) => (r === 1 ? Ludorum.t("seat {n}", { n: i + 1 }) : null)).filter(Boolean);
      text += " · " + Ludorum.t("winner: {seats}", { seats: winners.join(" & ") });
    }
    if (g.clock) text += " · " + Ludorum.clockSetting(g.clock);
    // resumed from an uploaded record: its uploader chose the seed and knows every future draw
    if (g.seed_chosen) text += " · " + Ludorum.t("⚠ seed chosen by the uploader (they know the decks and rolls)");
    // stored under another rules version: viewable as it was played, never resumed
    if (g.resumable === false) text += " · ⚠ " + g.retired; // the server's words, naming both versions
    return text;
  }

  async function refresh() {
    try {
      const games = await api("GET", `/api/games?status=${status}&limit=30`);
      const list = $("game-list");
      if (!games.length) {
        list.replaceChildren(el("li", { class: "muted" }, { open: Ludorum.t("No open games."), running: Ludorum.t("No running games."), finished: Ludorum.t("No finished games.") }[status]));
        return;
      }
      list.replaceChildren(...games.map((g) => {
        const open = g.players.filter((p) => p.kind === "human" && !p.claimed);
        const buttons = [];
        if (g.status === "open") {
          for (const p of open) {
            const label = g.seed_chosen ? Ludorum.t("Join anyway as seat {n}", { n: p.seat + 1 }) : Ludorum.t("Join as seat {n}", { n: p.seat + 1 });
            buttons.push(el("button", { onclick: () => join(g.id, p.seat, g.seed_chosen) }, label));
          }
        }
        const verb = g.status === "finished" ? Ludorum.t("Replay") : Ludorum.t("Watch");
        buttons.push(el("a", { href: `/game/${g.id}` }, verb));
        return el("li", { "data-game": g.id }, el("span", { class: "what" }, describe(g)), buttons);
      }));
    } catch (e) {
      showError(e);
    }
  }

  async function join(id, seat, seedChosen) {
    showError(null);
    try {
      // the button of a chosen-seed game says so, and the lobby line warns: pressing it accepts
      await api("POST", `/api/games/${id}/seats/${seat}/claim${seedChosen ? "?accept_chosen_seed=true" : ""}`);
      location.href = `/game/${id}`;
    } catch (e) {
      showError(e);
      refresh();
    }
  }

  async function upload(event) {
    event.preventDefault();
    showError(null);
    const file = $("upload-file").files[0];
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (e) {
      showError(new Error(Ludorum.t("That file is not a record: it is not JSON.")));
      return;
    }
    const game = catalog.find((g) => g.name === record.game);
    const players = record.config && record.config.players;
    if (!game || !players) {
      showError(new Error(record.format === "ludorum-partial-record"
        ? Ludorum.t("This file was saved before the game ended and holds only one seat's view; only a full record resumes.")
        : Ludorum.t("That file is not a record of a game this server offers.")));
      return;
    }
    const seats = Array.from({ length: players }, (_, i) => (i === 0 ? { kind: "human" } : { kind: "bot", bot: game.default_bot }));
    try {
      const made = await api("POST", "/api/records", { record, seats, claim: 0 });
      location.href = `/game/${made.id}`;
    } catch (e) {
      showError(e);
    }
  }

  async function start() {
    try {
      catalog = await api("GET", "/api/catalog");
    } catch (e) {
      showError(e);
      return;
    }
    const select = $("game-select");
    if (!catalog.length) {
      select.append(el("option", { value: "" }, Ludorum.t("No games are installed yet")));
      $("create").disabled = true;
    }
    for (const g of catalog) select.append(el("option", { value: g.name }, g.title));
    select.addEventListener("change", drawSetup);
    $("players").addEventListener("change", drawSetup);
    $("players").addEventListener("input", () => { if ($("players").checkValidity()) drawSetup(); });
    $("new-game").addEventListener("submit", create);
    $("clock-mode").addEventListener("change", drawClock);
    drawClock();
    $("upload-form").addEventListener("submit", upload);
    for (const tab of document.querySelectorAll(".tabs [role=tab]")) {
      tab.addEventListener("click", () => {
        status = tab.dataset.status;
        for (const t of document.querySelectorAll(".tabs [role=tab]")) t.setAttribute("aria-selected", String(t === tab));
        refresh();
      });
    }
    drawSetup();
    refresh();
    setInterval(refresh, 5000);
  }

  start();
})();
