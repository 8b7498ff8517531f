// The game page frame: players, whose turn, the board (a game's renderer or the readable fallback),
// the legal actions as a list, the log in words, errors in words, and the replay of a finished game.
"use strict";
(function () {
  const { api, el } = Ludorum;
  const $ = (id) => document.getElementById(id);
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  let snap = null; // the latest snapshot from the server
  let log = []; // the whole game log as this seat may see it
  let renderer = null;
  let rendererName = null;
  let socket = null;
  let retry = 500;
  let busy = false;
  let replayStep = null;
  let logFilter = ""; // "" = everyone, else a seat number as text
  let hintsAllowed = null; // whether this game allows hints (asked once, by a seat's page)
  let hint = null; // the last suggestion: {version, action, label, win}
  let hinting = false;
  let analysis = null; // the search bots' analysis of a finished game, once fetched
  let openGroup = null; // the group of choices opened in the list: {label, version}

  let clockRead = 0; // when the snapshot's clocks were read (performance.now())

  function showError(e) {
    $("error").textContent = e ? e.message || String(e) : "";
  }

  /** A seat's clock in the players list ("" without one). */
  function clockOf(seat) {
    if (!snap.clock) return "";
    const left = Ludorum.clockLeft(snap.clock, seat, performance.now() - clockRead);
    if (left === null) return "";
    const running = snap.clock.running === seat;
    return el("span", { class: ["clock", running ? "running" : "", left < 10000 ? "low" : ""].join(" ").trim(),
      "data-clock-seat": seat, title: Ludorum.clockSetting(snap.clock) }, ` ⏱ ${Ludorum.clockTime(left)}`);
  }

  /** Tick: redraw the running clock's time (the server times the seat out; the page only shows it). */
  function tick() {
    if (!snap || !snap.clock || snap.clock.running === null) return;
    const seat = snap.clock.running;
    const shown = document.querySelector(`#players [data-clock-seat="${seat}"]`);
    if (shown) shown.replaceWith(clockOf(seat));
  }

  function nameOf(seat) {
    const p = snap.players.find((q) => q.seat === seat);
    return p ? p.name : Ludorum.t("Seat {n}", { n: seat + 1 });
  }

  async function resync() {
    try {
      absorb(await api("GET", `/api/games/${gameId}`));
    } catch (e) {
      showError(e);
    }
  }

  /** Take in a snapshot whose log starts at `since`. */
  function absorb(next) {
    // The answer to our own action and the WebSocket pushes can arrive in either order: never go back.
    if (snap && next.version < snap.version) return;
    if (next.since > log.length) {
      resync(); // we missed steps: fetch everything again
      return;
    }
    log = log.slice(0, next.since).concat(next.log);
    const first = snap === null;
    snap = next;
    document.body.dataset.version = String(snap.version); // which position the page shows (tests wait on it)
    clockRead = performance.now(); // the clocks count down from here
    if (first || rendererName !== snap.game) {
      rendererName = snap.game;
      Ludorum.effects.load(snap.game);
      Ludorum.aid.setUp(snap.game, snap.title);
      Ludorum.loadRenderer(snap.game).then((r) => { renderer = r; draw(); });
    }
    draw();
  }

  function context(legal, replay) {
    return {
      game: snap.game,
      seat: snap.seat,
      toMove: snap.to_move,
      players: snap.players,
      version: snap.version,
      replay,
      legal,
      openKinds: replay ? {} : snap.open || {},
      isLegal: (action) => legal.some((l) => Ludorum.sameAction(l.action, action)),
      labelOf: (action) => { const l = legal.find((x) => Ludorum.sameAction(x.action, action)); return l ? l.label : null; },
      submit: (action) => submit(action),
      hint: !replay && hint && hint.version === snap.version ? hint.action : null,
      isHint: (action) => !replay && hint !== null && hint.version === snap.version && Ludorum.sameAction(hint.action, action),
    };
  }

  function drawBoard(boardEl, view, ctx) {
    if (renderer) {
      try {
        renderer.draw(boardEl, view, ctx);
        return;
      } catch (e) {
        console.error(e);
        showError(new Error(Ludorum.t("The board could not be drawn ({error}); showing the plain view.", { error: e.message })));
      }
    }
    Ludorum.drawView(boardEl, view);
  }

  /** Whose turn, for the page title (seen on the browser's tab while another tab is in front). */
  function turnWords() {
    if (snap.result) return Ludorum.t("Game over") + " · ";
    if (snap.to_move === null || snap.to_move === undefined) return "";
    if (snap.to_move === snap.seat) return "▶ " + Ludorum.t("Your turn") + " · ";
    return Ludorum.t("{name}'s turn", { name: nameOf(snap.to_move) }) + " · ";
  }

  function drawStatus() {
    const status = $("status");
    status.classList.remove("yours");
    if (snap.result) {
      const winners = snap.result.ranking.map((r, i) => (r === 1 ? nameOf(i) : null)).filter(Boolean);
      status.textContent = winners.length > 1
        ? Ludorum.t("Game over ({reason}). Winners: {names}.", { reason: snap.result.reason, names: winners.join(" & ") })
        : Ludorum.t("Game over ({reason}). Winner: {names}.", { reason: snap.result.reason, names: winners.join(" & ") });
    } else if (snap.to_move === null) {
      status.textContent = Ludorum.t("Chance is deciding…");
    } else if (snap.to_move === snap.seat) {
      status.textContent = Ludorum.t("Your turn.");
      status.classList.add("yours");
    } else {
      const p = snap.players[snap.to_move];
      const who = p.kind === "bot" ? Ludorum.t("{name} (bot) is thinking…", { name: p.name }) : p.claimed ? Ludorum.t("Waiting for {name}.", { name: p.name })
        : Ludorum.t("Waiting for someone to take {name}'s seat.", { name: p.name });
      status.textContent = (snap.seat === null ? Ludorum.t("You are watching.") + " " : "") + who;
    }
  }

  /** The players in the game's one order: its turn order when the view has one (Medieval Realms'
   * Turn Order Track), else by seat. */
  function orderedPlayers() {
    const order = snap.view && Array.isArray(snap.view.turn_order) ? snap.view.turn_order : null;
    if (!order || order.length !== snap.players.length) return snap.players;
    return order.map((seat) => snap.players.find((p) => p.seat === seat)).filter(Boolean);
  }

  function drawPlayers() {
    $("players").replaceChildren(...orderedPlayers().map((p) => {
      const kind = p.kind === "bot" ? Ludorum.t("bot: {name}", { name: p.bot }) : p.claimed ? Ludorum.t("player") : Ludorum.t("open seat");
      const score = snap.result ? " — " + Ludorum.t("{score} (rank {rank})", { score: snap.result.scores[p.seat], rank: snap.result.ranking[p.seat] }) : "";
      return el("li", { class: [p.seat === snap.to_move ? "turn" : "", p.you ? "you" : ""].join(" ").trim() || null,
        "aria-current": p.seat === snap.to_move ? "step" : null },
        `${p.name} (${kind})${score}`, p.you ? el("span", { class: "muted" }, " " + Ludorum.t("(you)")) : null, clockOf(p.seat));
    }));
  }

  function drawTools() {
    const tools = [];
    if (snap.resumable === false) { // stored under another rules version: shown as it was played, never resumed
      tools.push(el("p", { class: "warning old-rules", role: "status" }, snap.retired)); // the server's words, naming both versions
    }
    if (snap.seat === null && snap.status === "open") {
      if (snap.seed_chosen) {
        tools.push(el("p", { class: "warning chosen-seed" },
          Ludorum.t("This game was resumed from an uploaded record: its uploader chose the seed, so they know the order of every deck and every future roll.")));
      }
      for (const p of snap.players) {
        const label = snap.seed_chosen ? Ludorum.t("Take {name}'s seat anyway", { name: p.name }) : Ludorum.t("Take {name}'s seat", { name: p.name });
        if (p.kind === "human" && !p.claimed) tools.push(el("button", { onclick: () => claim(p.seat) }, label));
      }
    } else if (snap.seed_chosen) {
      tools.push(el("p", { class: "muted small chosen-seed" }, Ludorum.t("Resumed from an uploaded record: its seed was chosen by the uploader.")));
    }
    const open = snap.players.filter((p) => p.kind === "human" && !p.claimed);
    if (snap.seat !== null && open.length && !snap.result) {
      const or = Ludorum.t(" or ");
      tools.push(el("p", { class: "muted small invite" },
        Ludorum.t("To invite a friend, send them this page's address: they take {names}'s seat here or from the lobby.",
          { names: open.map((p) => p.name).join(or) })));
    }
    if (snap.seat !== null && !snap.result) {
      tools.push(el("button", { onclick: leave, title: Ludorum.t("a bot plays your seat from now on") }, Ludorum.t("Leave (a bot takes over)")));
    }
    if (snap.result && snap.seat !== null) { // only a player of the game may ask for its rematch
      tools.push(el("button", { onclick: rematch }, Ludorum.t("Rematch")));
      for (const id of snap.rematches || []) tools.push(el("a", { href: `/game/${id}` }, Ludorum.t("Go to the rematch")));
    }
    $("seat-tools").replaceChildren(...tools);
  }

  /** The choices as the list shows them: the renderer's groups (`group(action, label, view)` →
   * `{group, short}`) become one entry each, opened in a second step; the rest stay as they are. */
  function listed() {
    const groups = new Map();
    const entries = [];
    for (const l of snap.legal) {
      let g = null;
      try { g = renderer && renderer.group ? renderer.group(l.action, l.label, snap.view) : null; } catch (e) { g = null; }
      if (!g) { entries.push({ label: l.label, actions: [l] }); continue; }
      if (!groups.has(g.group)) { const entry = { label: g.group, actions: [] }; groups.set(g.group, entry); entries.push(entry); }
      groups.get(g.group).actions.push(Object.assign({}, l, { short: g.short || l.label }));
    }
    // a group of one is just its action, in its own words
    return entries.map((e) => (e.actions.length === 1 ? { label: e.actions[0].label, actions: e.actions } : e));
  }

  function drawActions() {
    const panel = $("actions-panel");
    panel.hidden = !snap.legal.length;
    const current = hint && hint.version === snap.version ? hint : null;
    const isHint = (l) => current !== null && Ludorum.sameAction(current.action, l.action);
    const entries = listed();
    if (openGroup && (openGroup.version !== snap.version || !entries.some((e) => e.label === openGroup.label && e.actions.length > 1))) openGroup = null;
    const opened = openGroup && entries.find((e) => e.label === openGroup.label);
    const effect = (actions) => ({ "data-effect": Ludorum.effects.keyOf(renderer, actions, snap.view) }); // effects.js
    const button = (i, attrs, text) => el("li", {}, el("button", Object.assign({ "data-index": i, disabled: busy || null }, attrs),
      i < 9 ? el("kbd", {}, String(i + 1)) : null, ` ${text}`));
    if (opened) {
      $("actions").replaceChildren(
        el("li", { class: "group-title" }, opened.label),
        ...opened.actions.map((l, i) => button(i, { onclick: () => submit(l.action), "aria-label": l.label, class: isHint(l) ? "suggested" : null, ...effect([l]) }, l.short)),
        button(opened.actions.length, { onclick: () => { openGroup = null; drawActions(); }, class: "back" }, "◂ " + Ludorum.t("Back")));
    } else {
      $("actions").replaceChildren(...entries.map((e, i) => (e.actions.length === 1
        ? button(i, { onclick: () => submit(e.actions[0].action), class: isHint(e.actions[0]) ? "suggested" : null, ...effect(e.actions) }, e.label)
        : button(i, { onclick: () => { openGroup = { label: e.label, version: snap.version }; drawActions(); focusFirstChoice(); },
          "aria-haspopup": "true", class: ["group", e.actions.some(isHint) ? "suggested" : ""].join(" ").trim(), ...effect(e.actions) }, `${e.label} (${e.actions.length}) ▸`))));
    }
    drawHint(current);
  }

  function focusFirstChoice() {
    const first = document.querySelector("#actions button");
    if (first) first.focus();
  }

  // -- hints: the search bot's suggestion for this seat's turn -----------------------------------------
  function drawHint(current) {
    let box = $("hint-box");
    if (!box) {
      box = el("div", { id: "hint-box", class: "hint-box" });
      $("actions-panel").insertBefore(box, $("actions"));
    }
    if (!hintsAllowed || !snap.legal.length) { box.replaceChildren(); return; }
    const chance = current && current.win !== null ? " " + Ludorum.t("(estimated win chance {percent}%)", { percent: Math.round(current.win * 100) }) : "";
    box.replaceChildren(...[ // (replaceChildren would write out a null)
      el("button", { id: "hint-button", onclick: askHint, disabled: hinting || busy || current !== null || null,
        title: Ludorum.t("the medium search bot looks at what you know and suggests a move") }, hinting ? Ludorum.t("Thinking…") : Ludorum.t("Suggest a move")),
      current ? el("p", { id: "hint", class: "hint", role: "status" }, Ludorum.t("Suggested: {label}{chance}.", { label: current.label, chance })) : null].filter(Boolean));
  }

  async function askHint() {
    if (hinting) return;
    hinting = true;
    showError(null);
    drawActions();
    try {
      hint = await api("POST", `/api/games/${gameId}/hint`);
    } catch (e) {
      showError(e);
    }
    hinting = false;
    draw();
  }

  async function checkHints() {
    if (hintsAllowed !== null || snap.seat === null || snap.result) return;
    hintsAllowed = false;
    try {
      hintsAllowed = (await api("GET", `/api/games/${gameId}/hints`)).allowed;
    } catch (e) {
      hintsAllowed = false;
    }
    if (hintsAllowed) drawActions();
  }

  /** A seat's name after its first mention: the part before a comma ("P1, Holy Empire…" → "P1") or
   * before " of " ("Legion of Chaos" → "Legion"). */
  function shortName(name) {
    const comma = name.indexOf(",");
    if (comma > 0) return name.slice(0, comma);
    const of = name.indexOf(" of ");
    return of > 0 ? name.slice(0, of) : name;
  }

  /** Which log entries a player reads: a `cancel` and the steps it backed out of (its seat's steps
   * just before it that each left a compound decision open) are not shown; the record keeps them. */
  function shownEntries() {
    const shown = log.map(() => true);
    log.forEach((e, i) => {
      if (!e.action || e.action.kind !== "cancel") return;
      shown[i] = false;
      for (let j = i - 1; j >= 0 && log[j].seat === e.seat && log[j].opens === true; j--) shown[j] = false;
    });
    return shown;
  }

  function drawLogFilter() {
    const select = $("log-filter");
    const want = ["", ...snap.players.map((p) => String(p.seat))];
    if ([...select.options].map((o) => o.value).join("|") !== want.join("|")) {
      select.replaceChildren(el("option", { value: "" }, Ludorum.t("everyone")),
        ...orderedPlayers().map((p) => el("option", { value: String(p.seat) }, p.name)));
      select.value = logFilter;
    }
  }

  function drawLog() {
    drawLogFilter();
    const list = $("log");
    const shown = shownEntries();
    const named = new Set();
    let stage = null;
    // One <li> per step (its number is the step's), so that the list stays the record's order;
    // hidden steps stay in the list, hidden from eyes and screen readers alike.
    list.replaceChildren(...log.map((e, i) => {
      const visible = shown[i] && (logFilter === "" || String(e.seat) === logFilter);
      let who = e.who;
      if (shown[i]) {
        if (named.has(e.seat)) who = shortName(e.who);
        named.add(e.seat);
      }
      const marker = shown[i] && e.stage && e.stage !== stage ? el("span", { class: "stage" }, e.stage) : null;
      if (shown[i] && e.stage) stage = e.stage;
      const text = e.action ? `${who}: ${e.label}` : Ludorum.t("{name} made a secret decision", { name: who });
      return el("li", { class: [e.action ? "" : "secret", shown[i] ? "" : "cancelled"].join(" ").trim() || null,
        value: e.index + 1, hidden: !visible, "data-index": e.index, "data-seat": e.seat }, marker, text);
    }));
    list.scrollTop = list.scrollHeight;
  }

  function draw() {
    if (!snap) return;
    document.title = `${turnWords()}${snap.title} — Ludorum`;
    $("title").textContent = `${snap.title}`;
    drawStatus();
    drawPlayers();
    drawTools();
    drawActions();
    drawBoard($("board"), snap.view, context(snap.legal, false));
    drawLog();
    $("record-link").href = `/api/games/${gameId}/record`;
    $("record-link").textContent = snap.result ? Ludorum.t("Download the record") : Ludorum.t("Download what you have seen (the full record comes at the end)");
    if (snap.result) setUpReplay();
    else checkHints();
  }

  async function submit(action) {
    if (busy) return;
    busy = true;
    showError(null);
    drawActions();
    let answer = null;
    let failure = null;
    try {
      answer = await api("POST", `/api/games/${gameId}/actions`, { version: snap.version, action });
    } catch (e) {
      failure = e;
    }
    busy = false; // before drawing, so the new choices are usable at once
    if (answer) {
      absorb(answer);
      // a push newer than the answer may have drawn the choices while we were busy: draw them usable
      drawActions();
    } else {
      showError(failure);
      drawActions();
      if (["stale_version", "not_your_turn", "game_over"].includes(failure.code)) await resync();
    }
  }

  async function claim(seat) {
    showError(null);
    try {
      // the seat's button of a chosen-seed game says so, beside the warning: pressing it accepts
      await api("POST", `/api/games/${gameId}/seats/${seat}/claim${snap.seed_chosen ? "?accept_chosen_seed=true" : ""}`);
      reconnect();
      await resync();
    } catch (e) {
      showError(e);
    }
  }

  async function leave() {
    showError(null);
    const bot = "random";
    try {
      const catalog = await api("GET", "/api/catalog");
      const entry = catalog.find((g) => g.name === snap.game);
      await api("POST", `/api/games/${gameId}/leave`, { bot: entry ? entry.default_bot : bot });
      reconnect();
      await resync();
    } catch (e) {
      showError(e);
    }
  }

  async function rematch() {
    showError(null);
    try {
      const made = await api("POST", `/api/games/${gameId}/rematch`);
      location.href = `/game/${made.id}`;
    } catch (e) {
      showError(e);
    }
  }

  // -- the replay of a finished game -------------------------------------------------------------
  function setUpReplay() {
    const section = $("replay");
    if (!section.hidden) return;
    section.hidden = false;
    const range = $("replay-step");
    range.max = String(snap.version);
    const seatSelect = $("replay-seat");
    for (const p of snap.players) seatSelect.append(el("option", { value: String(p.seat) }, p.name));
    range.addEventListener("input", () => showStep(Number(range.value)));
    seatSelect.addEventListener("change", () => showStep(replayStep));
    $("replay-first").addEventListener("click", () => showStep(0));
    $("replay-prev").addEventListener("click", () => showStep(replayStep - 1));
    $("replay-next").addEventListener("click", () => showStep(replayStep + 1));
    $("replay-last").addEventListener("click", () => showStep(snap.version));
    const tools = el("div", { id: "analysis", class: "analysis" },
      el("button", { id: "analyse-button", onclick: analyse, title: Ludorum.t("the search bots replay the game and look for each player's biggest mistakes") }, Ludorum.t("Analyse the game")),
      el("div", { id: "analysis-result", "aria-live": "polite" }));
    section.append(tools);
    showStep(0);
  }

  // -- the search bots' analysis, shown in the replay -------------------------------------------------
  function percent(x) {
    return x === null || x === undefined ? "?" : `${Math.round(x * 100)}%`;
  }

  async function analyse() {
    const out = $("analysis-result");
    $("analyse-button").disabled = true;
    out.textContent = Ludorum.t("The search bots are analysing the game…");
    try {
      for (;;) {
        const data = await api("GET", `/api/games/${gameId}/analysis`);
        if (data.status !== "running") { analysis = data; break; }
        await new Promise((r) => setTimeout(r, 1500));
      }
    } catch (e) {
      out.textContent = "";
      $("analyse-button").disabled = false;
      showError(e);
      return;
    }
    drawAnalysis();
    drawJudgement(replayStep);
  }

  function drawAnalysis() {
    const out = $("analysis-result");
    const unknown = Ludorum.t("unknown error");
    if (analysis.status !== "done") { out.textContent = Ludorum.t("The analysis failed: {why}.", { why: analysis.message || unknown }); return; }
    const byStep = new Map(analysis.judgements.map((j) => [j.step, j]));
    const note = analysis.complete
      ? Ludorum.t("{analysed} of {decisions} decisions analysed by the {level} search bot.", analysis)
      : Ludorum.t("{analysed} of {decisions} decisions analysed by the {level} search bot (it ran out of time).", analysis);
    out.replaceChildren(el("p", { class: "muted small" }, note),
      ...orderedPlayers().map((p) => {
        const steps = analysis.mistakes[String(p.seat)] || [];
        return el("div", { class: "mistakes", "data-seat": p.seat },
          el("h3", {}, steps.length ? Ludorum.t("{name}: biggest mistakes", { name: p.name }) : Ludorum.t("{name}: no clear mistake found", { name: p.name })),
          steps.length ? el("ol", {}, steps.map((s) => {
            const j = byStep.get(s);
            return el("li", {}, el("button", { class: "link", onclick: () => showStep(s) }, Ludorum.t("Step {n}", { n: s + 1 })),
              " " + Ludorum.t("played {played}; better: {best} (win chance {before} → {after})",
                { played: j.played_label, best: j.best_label, before: percent(j.before), after: percent(j.after) }));
          })) : null);
      }));
  }

  /** The analysis of the decision taken from this step of the replay, if it was analysed. */
  function drawJudgement(step) {
    let line = $("replay-judgement");
    if (!line) {
      line = el("p", { id: "replay-judgement", class: "judgement" });
      $("replay-caption").after(line);
    }
    const j = analysis && analysis.status === "done" ? analysis.judgements.find((x) => x.step === step) : null;
    if (!j) { line.textContent = ""; line.className = "judgement"; return; }
    const mistake = (analysis.mistakes[String(j.seat)] || []).includes(j.step);
    line.className = mistake ? "judgement mistake" : "judgement";
    const said = { name: nameOf(j.seat), played: j.played_label, best: j.best_label, before: percent(j.before), after: percent(j.after) };
    line.textContent = j.loss > 0
      ? Ludorum.t("Next, {name} plays {played} (win chance {before} → {after}); the search preferred {best}.", said)
      : Ludorum.t("Next, {name} plays {played}: the search's choice too (win chance {before}).", said);
  }

  async function showStep(step) {
    step = Math.max(0, Math.min(snap.version, step));
    replayStep = step;
    $("replay-step").value = String(step);
    const seat = $("replay-seat").value;
    try {
      const data = await api("GET", `/api/games/${gameId}/replay/${step}${seat === "" ? "" : `?seat=${seat}`}`);
      if (replayStep !== step) return;
      const entry = step > 0 ? log[step - 1] : null;
      $("replay-caption").textContent = Ludorum.t("Step {n} of {steps}", { n: step, steps: data.steps }) + (entry ? ` — ${entry.who}: ${entry.label}` : " — " + Ludorum.t("the start"));
      drawJudgement(step);
      drawBoard($("replay-board"), data.view, context([], true));
    } catch (e) {
      showError(e);
    }
  }

  // -- live updates --------------------------------------------------------------------------------
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
    socket = ws;
    ws.onopen = () => {
      retry = 500;
      $("conn").classList.remove("down");
      $("conn").title = Ludorum.t("connected");
      ws.send(JSON.stringify({ type: "hello", version: snap ? snap.version : 0 }));
    };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") absorb(message);
    };
    ws.onclose = (event) => {
      if (socket !== ws) return;
      if (event.code === 4409 && event.reason === "other_rules") { // played under other rules: shown as stored, nothing moves
        api("GET", `/api/games/${gameId}`).then(absorb).catch(showError);
        return;
      }
      $("conn").classList.add("down");
      $("conn").title = Ludorum.t("reconnecting…");
      if (snap && snap.result) return;
      setTimeout(connect, retry);
      retry = Math.min(10000, retry * 2);
    };
  }

  function reconnect() {
    const old = socket;
    socket = null;
    if (old) old.close();
    connect();
  }

  document.addEventListener("keydown", (event) => {
    const tag = (event.target && event.target.tagName) || "";
    if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (/^[1-9]$/.test(event.key)) {
      const button = document.querySelector(`#actions button[data-index="${Number(event.key) - 1}"]`);
      if (button && !button.disabled) { event.preventDefault(); button.click(); }
    } else if (!$("replay").hidden && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
      event.preventDefault();
      showStep(replayStep + (event.key === "ArrowLeft" ? -1 : 1));
    }
  });

  // -- phones: the choices are a bottom sheet (app.css, under 600 px) ---------------------------------
  // The sheet can be folded to its title; its height is the page's --sheet-height, so that the page
  // scrolls the board clear of it and the board's pop-ups are placed above it.
  function setUpSheet() {
    const panel = $("actions-panel");
    const toggle = el("button", { id: "sheet-toggle", class: "sheet-toggle", "aria-controls": "actions", "aria-expanded": "true" }, Ludorum.t("Hide"));
    toggle.addEventListener("click", () => {
      const folded = panel.classList.toggle("collapsed");
      toggle.setAttribute("aria-expanded", String(!folded));
      toggle.textContent = folded ? Ludorum.t("Show") : Ludorum.t("Hide");
    });
    $("actions-title").append(toggle);
    const measure = () => {
      const fixed = !panel.hidden && getComputedStyle(panel).position === "fixed";
      document.documentElement.style.setProperty("--sheet-height", `${fixed ? Math.ceil(panel.getBoundingClientRect().height) : 0}px`);
    };
    new ResizeObserver(measure).observe(panel);
    window.addEventListener("resize", measure);
  }

  setUpSheet();
  setInterval(tick, 250);
  $("log-filter").addEventListener("change", () => { logFilter = $("log-filter").value; drawLog(); });
  resync().then(connect);
})();
