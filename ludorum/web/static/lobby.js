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

  function seatChoice(game, i) {
    const select = el("select", { "aria-label": `seat ${i + 1}`, "data-seat": i },
      el("option", { value: "you" }, "You"),
      el("option", { value: "human" }, "A friend (open seat)"),
      game.bots.map((b) => el("option", { value: `bot:${b}` }, `Bot: ${b}`)));
    select.value = i === 0 ? "you" : `bot:${game.default_bot}`;
    select.addEventListener("change", () => {
      // Only one seat can be yours in one browser: moving "You" frees the other one.
      if (select.value !== "you") return;
      for (const other of document.querySelectorAll("#seats select")) {
        if (other !== select && other.value === "you") other.value = "human";
      }
    });
    return el("li", {}, select);
  }

  function drawSetup() {
    const game = current();
    if (!game) return;
    $("game-blurb").textContent = `${game.title}: ${game.min_players}–${game.max_players} players.`;
    const players = $("players");
    players.min = game.min_players;
    players.max = game.max_players;
    let n = Number(players.value) || game.min_players;
    n = Math.min(game.max_players, Math.max(game.min_players, n));
    players.value = n;
    const variants = Object.entries(game.variants);
    $("variants").replaceChildren(el("legend", {}, "Variants"),
      ...(variants.length ? variants.map(([name, text]) => el("label", {},
        el("input", { type: "checkbox", name: "variant", value: name }), ` ${name} — ${text}`))
        : [el("p", { class: "muted" }, "This game has no variants.")]));
    $("seats").replaceChildren(...Array.from({ length: n }, (_, i) => seatChoice(game, i)));
  }

  async function create(event) {
    event.preventDefault();
    showError(null);
    const game = current();
    const seats = [];
    let claim = null;
    for (const select of document.querySelectorAll("#seats select")) {
      const v = select.value;
      if (v === "you") { claim = seats.length; seats.push({ kind: "human" }); }
      else if (v === "human") seats.push({ kind: "human" });
      else seats.push({ kind: "bot", bot: v.slice(4) });
    }
    const variants = [...document.querySelectorAll("#variants input:checked")].map((c) => c.value);
    $("create").disabled = true;
    try {
      const made = await api("POST", "/api/games", {
        game: game.name, config: { players: seats.length, variants }, seats, claim,
      });
      location.href = `/game/${made.id}`;
    } catch (e) {
      showError(e);
    } finally {
      $("create").disabled = false;
    }
  }

  function describe(g) {
    const seats = g.players.map((p) => (p.kind === "bot" ? `bot (${p.bot})` : p.claimed ? "player" : "open seat"));
    let text = `${g.title} · ${g.config.players} players · ${seats.join(", ")} · ${g.version} steps`;
    if (g.result) text += ` · winner: ${g.result.ranking.map((r, i) => (r === 1 ? `seat ${i + 1}` : null)).filter(Boolean).join(" & ")}`;
    // resumed from an uploaded record: its uploader chose the seed and knows every future draw
    if (g.seed_chosen) text += " · ⚠ seed chosen by the uploader (they know the decks and rolls)";
    return text;
  }

  async function refresh() {
    try {
      const games = await api("GET", `/api/games?status=${status}&limit=30`);
      const list = $("game-list");
      if (!games.length) {
        list.replaceChildren(el("li", { class: "muted" }, `No ${status} games.`));
        return;
      }
      list.replaceChildren(...games.map((g) => {
        const open = g.players.filter((p) => p.kind === "human" && !p.claimed);
        const buttons = [];
        if (g.status === "open") {
          for (const p of open) {
            const label = g.seed_chosen ? `Join anyway as seat ${p.seat + 1}` : `Join as seat ${p.seat + 1}`;
            buttons.push(el("button", { onclick: () => join(g.id, p.seat, g.seed_chosen) }, label));
          }
        }
        const verb = g.status === "finished" ? "Replay" : "Watch";
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
      showError(new Error("That file is not a record: it is not JSON."));
      return;
    }
    const game = catalog.find((g) => g.name === record.game);
    const players = record.config && record.config.players;
    if (!game || !players) {
      showError(new Error(record.format === "ludorum-partial-record"
        ? "This file was saved before the game ended and holds only one seat's view; only a full record resumes."
        : "That file is not a record of a game this server offers."));
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
      select.append(el("option", { value: "" }, "No games are installed yet"));
      $("create").disabled = true;
    }
    for (const g of catalog) select.append(el("option", { value: g.name }, g.title));
    select.addEventListener("change", drawSetup);
    $("players").addEventListener("change", drawSetup);
    $("players").addEventListener("input", () => { if ($("players").checkValidity()) drawSetup(); });
    $("new-game").addEventListener("submit", create);
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
