// The site's translation helpers over Django's JavaScript catalogue (/jsi18n/, loaded by the
// page): the AGoT board's, the help page's and every game page's own (live/play.js). Without the
// catalogue every string stays in English. (The Duke's board has its own, duke/i18n.js.)

export function gettext(s) {
  return typeof window.gettext === "function" ? window.gettext(s) : s;
}

export function pgettext(context, s) {
  return typeof window.pgettext === "function" ? window.pgettext(context, s) : s;
}

// listOf(["a", "b"]) -> "a, b" in English, "a、b" in Chinese: the names of a list (houses, areas,
// units, cards) joined as the language writes an enumeration.
export function listOf(items) {
  return items.join(pgettext("between the items of a list", ", "));
}

// labelled("Winterfell", "March") -> "Winterfell: March" in English, "临冬城：行军" in Chinese: a
// label and its value, with the colon the language writes.
export function labelled(label, value) {
  return fmt(pgettext("a label and its value", "%(label)s: %(value)s"), { label, value });
}

// labelColon() -> ": " in English, "：" in Chinese: what labelled() puts between a label and its
// value, for a label made of several nodes (a chat line's author, seat and tags).
export function labelColon() {
  return labelled("", "");
}

// fmt("%(n)s of %(max)s", {n: 1, max: 2}) -> "1 of 2" (named placeholders, as Django's interpolate).
export function fmt(s, params) {
  if (typeof window.interpolate === "function") return window.interpolate(s, params, true);
  return s.replace(/%\(([a-z_]+)\)s/g, (m, k) => (k in params ? String(params[k]) : m));
}

// fmtNodes("%(card)s (only you see it)", {card: node}) -> [node, " (only you see it)"]: a translated
// sentence whose placeholders may be DOM nodes (an icon, a styled name), as children for h(). A
// node keeps the punctuation that touches it on its line ("(★):" never breaks after "(").
export function fmtNodes(s, params) {
  const parts = s.split(/(%\([a-z_]+\)s)/).map((x) => {
    const m = /^%\(([a-z_]+)\)s$/.exec(x);
    if (!m || !(m[1] in params)) return x;
    const v = params[m[1]];
    return typeof Node !== "undefined" && v instanceof Node ? v : String(v);
  });
  const out = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (typeof p === "string") { out.push(p); continue; }
    const before = typeof out[out.length - 1] === "string" ? out.pop() : "";
    const after = typeof parts[i + 1] === "string" ? parts[i + 1] : "";
    const head = /\S*$/.exec(before)[0], tail = /^\S*/.exec(after)[0];
    out.push(before.slice(0, before.length - head.length));
    const glued = document.createElement("span");
    glued.className = "nobr";
    glued.append(head, p, tail);
    out.push(glued);
    if (typeof parts[i + 1] === "string") parts[i + 1] = after.slice(tail.length);
  }
  return out.filter((x) => x !== "");
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
