// A game's rules page: the HTML the server renders from the packaged Markdown, with a contents list.
"use strict";
(function () {
  const { api, el } = Ludorum;
  const game = new URLSearchParams(location.search).get("game") || "";

  async function start() {
    const article = document.getElementById("rules");
    try {
      const page = await api("GET", `/api/rules/${encodeURIComponent(game)}`);
      document.title = Ludorum.t("Rules of {game} — Ludorum", { game: page.title });
      // the server's own rendering of its packaged text (raw HTML in the Markdown is not passed through)
      article.innerHTML = page.html;
      article.lang = page.lang;
      // A page not yet written in the reader's language is read in English: say so, in theirs.
      if (page.lang !== Ludorum.lang) article.prepend(el("p", { class: "muted", role: "note" }, Ludorum.t("These rules are not yet written in your language: here they are in English.")));
    } catch (e) {
      article.replaceChildren(el("p", { class: "error", role: "alert" }, e.message));
      return;
    }
    const items = [];
    article.querySelectorAll("h2").forEach((h, i) => {
      h.id = `s${i + 1}`;
      items.push(el("li", {}, el("a", { href: `#${h.id}` }, h.textContent)));
    });
    document.getElementById("rules-contents").replaceChildren(el("h2", {}, Ludorum.t("Contents")), el("ol", {}, items));
  }

  start();
})();
