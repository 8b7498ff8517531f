// A tiny board renderer for the fixture game, Sealed Bids: it exercises the renderer interface
// (draw the view; turn clicks on the board into actions through ctx.submit).
"use strict";
Ludorum.registerRenderer("sealed-bids", {
  draw(board, view, ctx) {
    const el = Ludorum.el;
    const rows = view.coins.map((coins, seat) => {
      const mine = seat === ctx.seat;
      const coinEls = [];
      for (let n = 0; n <= coins; n += 1) {
        const action = { kind: "bid", args: [n] };
        const legal = mine && ctx.isLegal(action);
        coinEls.push(el(legal ? "button" : "span", {
          class: "coin", "data-bid": legal ? n : null,
          onclick: legal ? () => ctx.submit(action) : null,
          title: legal ? ctx.labelOf(action) : null,
        }, String(n)));
      }
      return el("div", { class: "bidder", "data-seat": seat },
        el("strong", {}, ctx.players[seat].name), ` — ${view.points[seat]} points, ${coins} coins `,
        mine ? el("span", {}, "Bid: ", coinEls) : null);
    });
    const confirm = { kind: "confirm", args: [] };
    const cancel = { kind: "cancel", args: [] };
    board.replaceChildren(
      el("p", { class: "prize" }, view.prize ? `Round ${view.round}: the prize is worth ${view.prize}.` : `Round ${view.round}`),
      ...rows,
      ctx.isLegal(confirm) ? el("button", { id: "seal", onclick: () => ctx.submit(confirm) }, "Seal the bid") : null,
      ctx.isLegal(cancel) ? el("button", { id: "unseal", onclick: () => ctx.submit(cancel) }, "Take it back") : null,
    );
  },
});
