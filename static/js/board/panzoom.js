// Pan and zoom of an inline SVG by changing its viewBox: mouse wheel, drag, two-finger pinch,
// keyboard (+, -, 0 and arrow keys while the map has focus) and on-screen buttons.
// A drag longer than a few pixels swallows the click that ends it, so panning never selects an area.

// The board never leaves its frame: a zoomed view stops at the board's edges (the bottom may go
// as far past the edge as `opts.insetBottom()` CSS pixels, the part of the map a phone's decision
// sheet covers, so the board's southern edge can still be seen above the sheet).
// `opts`: maxZoom (default 6), onChange() called after every change of the view, insetBottom().
export function panzoom(svg, opts = {}) {
  const base = svg.viewBox.baseVal;
  const home = { x: base.x, y: base.y, w: base.width, h: base.height };
  const vb = { ...home };
  const minW = home.w / (opts.maxZoom || 6);
  const pointers = new Map();
  let start = null;
  let moved = false;

  function apply() {
    vb.w = Math.min(home.w, Math.max(minW, vb.w));
    vb.h = vb.w * (home.h / home.w);
    const inset = opts.insetBottom ? Math.max(0, opts.insetBottom()) * scale() : 0;
    vb.x = Math.min(home.x + home.w - vb.w, Math.max(home.x, vb.x));
    vb.y = Math.min(home.y + home.h - vb.h + inset, Math.max(home.y, vb.y));
    svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    svg.dataset.zoom = (home.w / vb.w).toFixed(2);
    if (opts.onChange) opts.onChange();
  }

  function toSvg(cx, cy) {
    const m = svg.getScreenCTM();
    if (!m) return { x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 };
    const p = new DOMPoint(cx, cy).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }

  function zoomAt(factor, cx, cy) {
    const p = cx === undefined ? { x: vb.x + vb.w / 2, y: vb.y + vb.h / 2 } : toSvg(cx, cy);
    const w = Math.min(home.w, Math.max(minW, vb.w / factor));
    const k = w / vb.w;
    vb.x = p.x - (p.x - vb.x) * k;
    vb.y = p.y - (p.y - vb.y) * k;
    vb.w = w;
    apply();
  }

  function pan(dxSvg, dySvg) {
    vb.x -= dxSvg;
    vb.y -= dySvg;
    apply();
  }

  // drawing units per CSS pixel of the current view
  function scale() {
    const r = svg.getBoundingClientRect();
    return r.width && r.height ? Math.max(vb.w / r.width, vb.h / r.height) : 0;
  }

  function unitsPerPixel() {
    const r = svg.getBoundingClientRect();
    return Math.max(vb.w / (r.width || 1), vb.h / (r.height || 1));
  }

  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX, e.clientY);
  }, { passive: false });

  svg.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    moved = false;
    start = snapshot();
  });

  function snapshot() {
    const pts = [...pointers.values()];
    if (pts.length === 0) return null;
    const cx = pts.reduce((s, p) => s + p.x, 0) / pts.length;
    const cy = pts.reduce((s, p) => s + p.y, 0) / pts.length;
    const d = pts.length > 1 ? Math.hypot(pts[0].x - pts[1].x, pts[0].y - pts[1].y) : 0;
    return { cx, cy, d, n: pts.length };
  }

  svg.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const now = snapshot();
    if (!start || now.n !== start.n) {
      start = now;
      return;
    }
    const dx = now.cx - start.cx;
    const dy = now.cy - start.cy;
    if (!moved && Math.hypot(dx, dy) < 6 && Math.abs(now.d - start.d) < 6) return;
    if (!moved) {
      moved = true;
      try { svg.setPointerCapture(e.pointerId); } catch (err) { /* pointer already gone */ }
    }
    const upp = unitsPerPixel();
    pan(dx * upp, dy * upp);
    if (now.n > 1 && start.d > 0 && now.d > 0) zoomAt(now.d / start.d, now.cx, now.cy);
    start = now;
  });

  const end = (e) => {
    pointers.delete(e.pointerId);
    start = snapshot();
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
  svg.addEventListener("click", (e) => {
    if (moved) {
      e.stopPropagation();
      e.preventDefault();
      moved = false;
    }
  }, true);

  svg.addEventListener("keydown", (e) => {
    const step = vb.w * 0.1;
    const keys = {
      "+": () => zoomAt(1.25), "=": () => zoomAt(1.25), "-": () => zoomAt(0.8), "0": () => reset(),
      ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0), ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step),
    };
    if (keys[e.key] && !(e.key.startsWith("Arrow") && vb.w >= home.w)) {
      keys[e.key]();
      e.preventDefault();
    }
  });

  function reset() {
    Object.assign(vb, home);
    apply();
  }

  // Centres the view on an SVG point without changing the zoom.
  function centre(x, y) {
    vb.x = x - vb.w / 2;
    vb.y = y - vb.h / 2;
    apply();
  }

  // Shows the drawing's point (x, y) at the element's point (px, py) (CSS pixels from its top
  // left) at `zoom` times the whole board.
  function show(x, y, zoom, px, py) {
    vb.w = Math.min(home.w, Math.max(minW, home.w / zoom));
    vb.h = vb.w * (home.h / home.w);
    const r = svg.getBoundingClientRect();
    const k = Math.max(vb.w / r.width, vb.h / r.height);  // units per pixel (meet)
    // the viewBox is centred in the element (xMidYMid meet)
    vb.x = x - (px - r.width / 2) * k - vb.w / 2;
    vb.y = y - (py - r.height / 2) * k - vb.h / 2;
    apply();
  }

  apply();
  return { zoomIn: () => zoomAt(1.4), zoomOut: () => zoomAt(1 / 1.4), reset, centre, zoomAt, show, home: { ...home },
    get zoom() { return home.w / vb.w; }, get box() { return { ...vb }; } };
}
