// "Your turn" signals of the game page: the tab's title ("(1) Your turn · …"), a
// badge on the favicon (static/img/favicon.svg, its crown drawn, with a green badge), the optional sound, and a
// browser notification while the tab is hidden, once the player has allowed them (asked only when
// they press "Notify me when it's my turn", never on page load).
//
// With Web Push configured (push: {key, subscribe, worker} from the page's config), the same button
// also subscribes this browser, once notifications are allowed: the service worker (/sw.js) then
// shows "your turn" when no page of the site is open (game/site/webpush.py). A browser without a
// push service (or that refuses) keeps the in-page notifications; record.push tells what happened.
//
// createTurnAlert({ gameName, gameId, soundBox, notifyButton, gettext, push }) -> { update(mine) }
// update(mine) is called with every state: true while the viewer has a decision to make.

const FAVICON_BADGE =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#7a1f1f"/>' +
  '<g fill="#f3d27a" transform="translate(4.8 4.6) scale(1.4)"><path d="M1.2 4.6 4.6 8 8 2.2 11.4 8l3.4-3.4-1.5 7.8H2.7ZM2.8 13.4h10.4v1.8H2.8Z"/>' +
  '<circle cx="1.4" cy="4" r="1.1"/><circle cx="8" cy="1.6" r="1.1"/><circle cx="14.6" cy="4" r="1.1"/></g>' +
  '<circle cx="24" cy="8" r="7.5" fill="#2e9d4a" stroke="#fff" stroke-width="1.5"/>' +
  '<text x="24" y="11.5" font-size="10" font-weight="700" text-anchor="middle" fill="#fff" font-family="sans-serif">1</text></svg>';

function beep() {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
  } catch {
    /* no audio: the title still says it */
  }
}

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

// subscribe this browser to Web Push and hand the subscription to the server; never throws
async function subscribePush(push, record) {
  if (!push || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  try {
    const registration = await navigator.serviceWorker.register(push.worker, { scope: "/" });
    await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(push.key) }));
    const response = await fetch(push.subscribe, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(subscription.toJSON()),
    });
    record.push = response.ok ? "subscribed" : `refused ${response.status}`;
  } catch (err) {
    record.push = `unavailable: ${err}`; // no push service here: the in-page notification still works
  }
}

export function createTurnAlert({ gameName, gameId, soundBox, notifyButton, gettext, push = null }) {
  const baseTitle = document.title;
  const icon = document.querySelector('link[rel="icon"]');
  const baseIcon = icon?.getAttribute("href");
  const badgeIcon = `data:image/svg+xml,${encodeURIComponent(FAVICON_BADGE)}`;
  const record = { notifications: [], errors: [] }; // what was shown (for debugging and browser tests)
  window.gotwebTurnAlert = record;
  let mine = false;
  let shown = null;

  if (soundBox) {
    soundBox.checked = localStorage.getItem("gotweb-sound") === "1";
    soundBox.addEventListener("change", () => localStorage.setItem("gotweb-sound", soundBox.checked ? "1" : "0"));
  }

  const canNotify = () => "Notification" in window;
  const showButton = () => {
    if (notifyButton) notifyButton.hidden = !canNotify() || Notification.permission !== "default";
  };
  notifyButton?.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } catch (err) {
      record.errors.push(String(err));
    }
    showButton();
    if (canNotify() && Notification.permission === "granted") subscribePush(push, record);
  });
  showButton();
  // allowed on an earlier visit: keep this browser's subscription known to the server
  if (notifyButton && canNotify() && Notification.permission === "granted") subscribePush(push, record);

  function notify() {
    if (!canNotify() || Notification.permission !== "granted" || document.visibilityState !== "hidden") return;
    try {
      shown?.close();
      shown = new Notification(gettext("Your turn"), {
        body: gettext("%s is waiting for your decision.").replace("%s", gameName),
        tag: `gotweb-game-${gameId}`,
        icon: baseIcon || undefined,
      });
      shown.addEventListener("click", () => {
        window.focus();
        shown?.close();
      });
      record.notifications.push({ title: shown.title, body: shown.body, tag: shown.tag });
    } catch (err) {
      record.errors.push(String(err)); // e.g. a platform that only allows them from a service worker
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") shown?.close();
  });

  return {
    update(nowMine) {
      document.title = nowMine ? `(1) ${gettext("Your turn")} · ${baseTitle}` : baseTitle;
      if (icon && baseIcon) icon.setAttribute("href", nowMine ? badgeIcon : baseIcon);
      if (nowMine && !mine) {
        if (soundBox?.checked) beep();
        notify();
      }
      if (!nowMine) shown?.close();
      mine = nowMine;
    },
  };
}
