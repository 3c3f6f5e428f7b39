// The game screen of a ruleset that has no screen of its own (game.rules.base.Presentation.renderer
// left empty): `mount(root, client)` (the client's interface is in static/js/live/client.js).
// It shows who is awaited, the viewer's decision with each of its listed `options.actions` as a
// button (a ruleset that lists its legal actions is playable here as it is), and the viewer's
// view itself, folded, for what the buttons do not tell.

const gettext = (s) => (window.gettext ? window.gettext(s) : s);
const interpolate = (fmt, args) => args.reduce((text, arg) => text.replace("%s", arg), fmt);

// A button's words: the action's type and values.
function actionText(action) {
  const rest = Object.entries(action).filter(([k]) => k !== "type").map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return rest.length ? `${action.type} (${rest.join(", ")})` : String(action.type);
}

export function mount(root, client) {
  root.classList.add("generic-root");
  root.innerHTML =
    `<p class="generic-status" data-role="status" aria-live="polite"></p>` +
    `<div class="generic-actions" data-role="actions"></div>` +
    `<p class="field-error" data-role="error" role="alert"></p>` +
    `<details class="generic-view"><summary></summary><pre data-role="view"></pre></details>`;
  const status = root.querySelector('[data-role="status"]');
  const actions = root.querySelector('[data-role="actions"]');
  const error = root.querySelector('[data-role="error"]');
  root.querySelector(".generic-view summary").textContent = gettext("What you see of the game");
  const viewBox = root.querySelector('[data-role="view"]');
  let sending = false;

  client.on("state", ({ view, pending }) => {
    const mine = pending.filter((d) => d.actor === client.viewer && d.options);
    const others = [...new Set(pending.filter((d) => d.actor !== client.viewer).map((d) => d.actor))];
    status.textContent = mine.length
      ? gettext("Your decision:") + " " + mine.map((d) => d.kind).join(", ")
      : others.length ? interpolate(gettext("Waiting for %s."), [others.join(", ")]) : "";
    const buttons = [];
    for (const decision of mine) {
      for (const action of decision.options.actions || []) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "btn btn-small";
        b.textContent = actionText(action);
        b.dataset.action = JSON.stringify(action);
        b.addEventListener("click", async () => {
          if (sending) return;
          sending = true;
          actions.querySelectorAll("button").forEach((x) => { x.disabled = true; });
          const answer = await client.send(action);
          error.textContent = answer.ok ? "" : answer.error.message;
          sending = false;
          actions.querySelectorAll("button").forEach((x) => { x.disabled = false; });
        });
        buttons.push(b);
      }
    }
    actions.replaceChildren(...buttons);
    viewBox.textContent = JSON.stringify(view, null, 2);
  });
}
