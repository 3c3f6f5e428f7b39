// A tiny DOM builder: h("button", {class: "x", onclick: fn, disabled: true}, "text", child...).

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

// A small house mark (colour chip + letter) followed by the house name.
export function houseChip(house, data, extra) {
  const d = data.houses[house] || { color: "#999", letter: "?", name: house };
  return h("span", { class: "house-chip hchip-" + house, dataset: { house } },
    h("span", { class: "house-mark", style: "background:" + d.color, "aria-hidden": "true" }, d.letter),
    h("span", { class: "house-name" }, d.name), extra || null);
}
