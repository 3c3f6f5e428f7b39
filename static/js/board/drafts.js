// Drafts kept across a reload: the orders a player has placed in the panel but not yet confirmed
// survive the page being reloaded (F5, a phone that dropped the tab in the background and loads it
// again), in the tab's sessionStorage. A draft belongs to one decision: the page (one game), the
// seat, the round and the decision's kind and options; it is restored only into the same decision,
// forgotten when the decision is answered, and a newer decision of the game forgets the older
// ones. It stays on the player's own device: the server never sees a draft.

const PREFIX = "gotweb.draft|";

// a short, stable digest of a text (FNV-1a, 32 bits): the decision's options in the key
function digest(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

function store() {
  try {
    return window.sessionStorage;
  } catch (err) {
    return null; // storage refused (a privacy setting): drafts live in the page only
  }
}

// The key of the draft of `decision` ({kind, options}) for seat `me` in `round`, on this page.
export function draftKey(me, round, decision) {
  return PREFIX + location.pathname + "|" + me + "|" + round + "|" + decision.kind + "|" + digest(JSON.stringify(decision.options));
}

// The draft kept under `key`, or null.
export function loadDraft(key) {
  const s = store();
  if (!s) return null;
  try {
    const v = JSON.parse(s.getItem(key) || "null");
    return v && typeof v === "object" ? v : null;
  } catch (err) {
    return null;
  }
}

// Keep `value` (a JSON value) under `key`; null forgets it.
export function saveDraft(key, value) {
  const s = store();
  if (!s) return;
  try {
    if (value === null) s.removeItem(key);
    else s.setItem(key, JSON.stringify(value));
  } catch (err) {
    /* storage full or refused: the draft lives in the page only */
  }
}

// Forget this page's drafts other than `key` (an older decision's).
export function forgetOtherDrafts(key) {
  const s = store();
  if (!s) return;
  const mine = PREFIX + location.pathname + "|";
  try {
    for (let i = s.length - 1; i >= 0; i--) {
      const k = s.key(i);
      if (k && k.startsWith(mine) && k !== key) s.removeItem(k);
    }
  } catch (err) {
    /* storage refused */
  }
}
