// The game page's rules at hand: a link to the game's rules page (opened beside the game, in a new tab)
// and a one-screen player aid — turn structure, phases, how to win — in a dialog, one click away.
// The aid's words are the rules pages' (ludorum/web/rules/<game>.md), in short.
"use strict";
(function () {
  const el = Ludorum.el;

  /** Each game's aid: sections of a heading and its lines, in the reader's language. */
  function aid(game) {
    const aids = {
      reliquium: [
        [Ludorum.t("A round"), [
          Ludorum.t("Peace phase: in faction initiative order (Legion, Alliance, Order, Brotherhood), each player moves the action marker to the next free division of the ownership track and takes one of its two actions, or passes."),
          Ludorum.t("War phase: first the support stage (ranged combat tokens send units' support), then the attack stage (melee combat tokens start battles)."),
        ]],
        [Ludorum.t("Actions by segment"), [
          Ludorum.t("Plains: march, or a melee combat order."),
          Ludorum.t("Mountains: recruit a unit, or a ranged combat order."),
          Ludorum.t("Forests: build a castle, or summon a legendary creature (its ability acts at once, its aura strengthens its class)."),
        ]],
        [Ludorum.t("Battles"), [
          Ludorum.t("Each side's strength: its units by their role, creatures' auras, support and the attacking token's swords. The stronger wins; each side loses a unit per 10 enemy strength, the loser one more; a beaten defender flees, a winning attacker may march in."),
        ]],
        [Ludorum.t("How to win"), [
          Ludorum.t("The first to raise a ninth castle wins. At the round limit, the most castles on the board wins (then units)."),
        ]],
      ],
      "medieval-realms": [
        [Ludorum.t("A round (7 rounds)"), [
          Ludorum.t("1–2. Behind your wall, place your leaders: Mayors on resource squares, Generals and Admirals on the areas of your Realm's Map."),
          Ludorum.t("3. The walls come down: each Mayor gives its resource; the strongest military force in an area takes its reward; your cards produce."),
          Ludorum.t("4. Everyone gains 2 Production. 5. The most Production starts next."),
          Ludorum.t("6. Actions in turn order, until all pass: activate a card of the Current Events Panel (pay its square's Production), put a card of your Personal Display into play, or pass."),
        ]],
        [Ludorum.t("Cards"), [
          Ludorum.t("Realm cards go to your Personal Display (at most 4, no two of a colour); majority cards go to the player with the most of their cost resource; auction cards are bid for."),
        ]],
        [Ludorum.t("How to win"), [
          Ludorum.t("After the seventh round, end-of-game effects and Great Persons score; the most Victory Points wins."),
        ]],
      ],
      signum: [
        [Ludorum.t("Your turn"), [
          Ludorum.t("1. Start of turn: your creatures are refreshed; gain 2 prosperity plus your buildings' income; draw a card."),
          Ludorum.t("2. Building phase: build at most one building you can afford."),
          Ludorum.t("3. Terrain: you may lay one terrain card in the middle band."),
          Ludorum.t("4. Activation: play cards (characters, spells, relics, face-down tactics) and activate each creature once: move, run, fight in melee, shoot or use an ability."),
        ]],
        [Ludorum.t("Fighting"), [
          Ludorum.t("Melee: both split their strength dice between attack and defence; Axe or Shield/Axe hits, Shield/Axe or Bullseye parries. Shots: each Bullseye hits."),
        ]],
        [Ludorum.t("How to win"), [
          Ludorum.t("Kill the enemy hero, or reach 51 prosperity."),
        ]],
      ],
    };
    return aids[game] || null;
  }

  /** The header's links: the rules page beside the game and the aid's button (once the game is known). */
  function setUp(game, title) {
    if (document.getElementById("rules-link")) return;
    const bar = document.querySelector("header.bar .title");
    const sections = aid(game);
    const rules = el("a", { id: "rules-link", class: "bar-link", href: `/static/rules.html?game=${encodeURIComponent(game)}`,
      target: "_blank", rel: "noopener" }, Ludorum.t("Rules"));
    const links = [rules];
    if (sections) {
      const dialog = el("dialog", { id: "aid", class: "aid", "aria-labelledby": "aid-title" },
        el("h2", { id: "aid-title" }, Ludorum.t("Player aid: {game}", { game: title })),
        sections.map(([heading, lines]) => el("section", {}, el("h3", {}, heading), el("ul", {}, lines.map((line) => el("li", {}, line))))),
        el("form", { method: "dialog" }, el("button", { id: "aid-close", class: "primary" }, Ludorum.t("Close"))));
      document.body.append(dialog);
      links.push(el("button", { id: "aid-button", class: "bar-button", "aria-haspopup": "dialog", onclick: () => dialog.showModal() },
        Ludorum.t("Player aid")));
    }
    bar.after(el("span", { class: "bar-links" }, links));
  }

  Ludorum.aid = { setUp };
})();
