// Translation helpers over Django's JavaScript catalogue (/jsi18n/, loaded by the page).
// Without the catalogue every string stays in English.

export function gettext(s) {
  return typeof window.gettext === "function" ? window.gettext(s) : s;
}

export function pgettext(context, s) {
  return typeof window.pgettext === "function" ? window.pgettext(context, s) : s;
}

// fmt("%(n)s of %(max)s", {n: 1, max: 2}) -> "1 of 2" (named placeholders, as Django's interpolate).
export function fmt(s, params) {
  if (typeof window.interpolate === "function") return window.interpolate(s, params, true);
  return s.replace(/%\(([a-z_]+)\)s/g, (m, k) => (k in params ? String(params[k]) : m));
}

// fmtNodes("%(card)s (only you see it)", {card: node}) -> [node, " (only you see it)"]: a translated
// sentence whose placeholders may be DOM nodes (an icon, a styled name), as children for h().
export function fmtNodes(s, params) {
  return s.split(/(%\([a-z_]+\)s)/).filter((x) => x !== "").map((x) => {
    const m = /^%\(([a-z_]+)\)s$/.exec(x);
    if (!m || !(m[1] in params)) return x;
    const v = params[m[1]];
    return typeof Node !== "undefined" && v instanceof Node ? v : String(v);
  });
}

// The catalogue script is loaded with `defer`; wait for it (at most ~2 s) before first render.
export function catalogueReady() {
  if (typeof window.gettext === "function" || !document.querySelector("script[src*='jsi18n']")) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let n = 0;
    const tick = () => {
      if (typeof window.gettext === "function" || n++ > 40) resolve();
      else setTimeout(tick, 50);
    };
    tick();
  });
}
