// Change of mind: after a face-down choice (orders, a bid, a house card) and until the last
// player of that decision has chosen, the player sees their own choice, still hidden from the
// others, and a "Change" button that takes it back (`{"type": "withdraw"}`). The view says when
// that is possible (`view.may_withdraw`, from the engine's rules); the screen keeps what was
// taken back (`takenBack`) so the decision opens again with it filled in, to change one thing.

import { h } from "./dom.js";
import { fmt, gettext, labelled, pgettext } from "../i18n.js";
import { areaName, cardName, tokenName } from "./names.js";

// The face-down choice the viewer may take back: {kind, orders|bid|card}, or null.
export function takenBack(view) {
  if (!view.may_withdraw) return null;
  const c = view.combat;
  if (c && c.my_card && c.step === "cards") return { kind: "choose_house_card", card: c.my_card };
  if (view.my_bid !== undefined && view.bids_placed) return { kind: "bid", bid: view.my_bid };
  if (view.my_orders) return { kind: "place_orders", orders: { ...view.my_orders } };
  return null;
}

// The panel in the decision's place: the choice, face down, and the Change button.
// onChange(choice) is called with `takenBack(view)` when the button is pressed.
export function faceDownPanel(view, data, onChange) {
  const choice = takenBack(view);
  if (!choice) return null;
  let what;
  if (choice.kind === "place_orders") {
    what = h("ul", { class: "face-down-orders" }, Object.entries(choice.orders).sort(([a], [b]) => areaName(a, data).localeCompare(areaName(b, data)))
      .map(([area, tok]) => h("li", { dataset: { area, token: tok } }, labelled(areaName(area, data), tokenName(tok, data)))));
  } else if (choice.kind === "bid") {
    what = h("p", { class: "face-down-bid" }, fmt(gettext("Your bid: %(n)s power"), { n: choice.bid }));
  } else {
    what = h("p", { class: "face-down-card" }, fmt(gettext("Your house card: %(card)s"), { card: cardName(choice.card, data) }));
  }
  const heading = { place_orders: gettext("Your orders, face down"), bid: gettext("Your bid, face down"), choose_house_card: gettext("Your house card, face down") }[choice.kind];
  return h("div", { class: "decision face-down", dataset: { kind: choice.kind } },
    h("h3", { class: "decision-title" }, heading),
    h("p", { class: "hint" }, gettext("Only you can see it until everyone has chosen. You can change it until the last player is ready.")),
    what,
    h("div", { class: "actions" }, h("button", { type: "button", class: "btn", dataset: { key: "withdraw" }, onclick: () => onChange(choice) }, pgettext("take back a face-down choice", "Change"))));
}
