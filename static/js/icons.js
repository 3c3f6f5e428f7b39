// The site's small icons as inline SVG (<use> of the sprite static/img/icons.svg), so that no
// symbol of the game screen depends on a font: sword, swords (a battle), tower (a fortification),
// skull, star (a special order), crown, diamond (a dominance token), check (ready), first, back,
// forward, last. Their colour is the text's (currentColor); their size 1em (CSS `.icon`).
//
// icon(name, label?) -> <svg>: with a label, an image with that accessible name and tooltip;
// without, decoration hidden from screen readers.
// iconRun(name, n, label) -> <span>: n icons in a row, one accessible name for the row.

const SPRITE = new URL("../img/icons.svg", import.meta.url).pathname;
const NS = "http://www.w3.org/2000/svg";

export function icon(name, label) {
  const s = document.createElementNS(NS, "svg");
  s.setAttribute("class", "icon icon-" + name);
  s.setAttribute("focusable", "false");
  if (label) {
    s.setAttribute("role", "img");
    s.setAttribute("aria-label", label);
    s.appendChild(document.createElementNS(NS, "title")).textContent = label;
  } else {
    s.setAttribute("aria-hidden", "true");
  }
  const use = document.createElementNS(NS, "use");
  use.setAttribute("href", SPRITE + "#" + name);
  s.appendChild(use);
  return s;
}

export function iconRun(name, n, label) {
  const span = document.createElement("span");
  span.className = "icon-run";
  span.setAttribute("role", "img");
  if (label) {
    span.setAttribute("aria-label", label);
    span.title = label;
  }
  for (let i = 0; i < n; i++) span.appendChild(icon(name));
  return span;
}
