"""Benchmark: time in headless Chromium from navigation to an interactive AGoT map.

Run: ``python tests/bench/ui.py [runs]`` (default 7). Starts daphne with the UI harness on a
free port, opens a fresh browser context per run (cold HTTP cache) on a start position as
Stark and measures, with the page's own clock (``performance.now()`` from navigation start):

* ``interactive``: the renderer has the board inline, the overlay drawn and the decision panel
  built: the later of the performance marks ``agot2:ready`` and ``agot2:first-state``;
  the stages before it (HTML, DOMContentLoaded, ``agot2:mount``, ``agot2:fetched``,
  ``agot2:board``) are printed too;
* ``interactive, crowded6``: the same on the crowded late game of issue 15 at 1400 x 900;
* baseline ``bare svg``: navigating to ``/boards/agot2.svg`` itself until its load event.

Prints the median and min/max of each, the ratio interactive / bare svg, and the sizes of what
the screen downloads (board SVG raw and gzipped, board data JSON, the renderer's modules) and of
the board with every piece of crowded6 drawn (the inline SVG's markup; target < 150 KB gzipped).
Target (issue 6): under 1 s on loopback.
"""

from __future__ import annotations

import gzip
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.e2e.conftest import start_server, stop_server  # noqa: E402


def main(runs: int = 7) -> None:
    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    url, proc = start_server(tmp, {"DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}", "GOTWEB_UI_HARNESS": "1"}, "daphne-bench")
    try:
        svg = urllib.request.urlopen(url + "/boards/agot2.svg?lang=en").read()
        data = urllib.request.urlopen(url + "/boards/agot2.json?lang=en").read()
        js = sum(p.stat().st_size for p in [*(ROOT / "static/js/board").glob("*.js"), ROOT / "static/js/rulesets/agot2.js"])
        inter, bare, marks = [], [], []
        crowded, drawn = [], None
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            # warm the server (first render of the SVG, imports) once, outside the figures
            page = browser.new_page()
            page.goto(url + "/harness/agot2/?position=start3&viewer=stark")
            page.wait_for_selector("#board-root[data-ready='1'][data-version]")
            page.close()
            for _ in range(runs):
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                page = ctx.new_page()
                page.goto(url + "/harness/agot2/?position=start3&viewer=stark", wait_until="commit")
                page.wait_for_selector("#board-root[data-ready='1'][data-version]")
                # the later of "map ready" and "first state drawn", on the page's own clock
                inter.append(page.evaluate("""() => Math.max(...['agot2:ready', 'agot2:first-state']
                    .map(n => performance.getEntriesByName(n)[0].startTime))""") / 1000)
                marks.append(page.evaluate("""() => Object.fromEntries([
                    ['html', performance.getEntriesByType('navigation')[0].responseEnd],
                    ['domcontentloaded', performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd],
                    ...performance.getEntriesByType('mark').map(m => [m.name, m.startTime])])"""))
                ctx.close()
                # the crowded late game (issue 15): every piece drawn, 6 houses, 26 orders
                ctx = browser.new_context(viewport={"width": 1400, "height": 900})
                page = ctx.new_page()
                page.goto(url + "/harness/agot2/?position=crowded6&viewer=stark", wait_until="commit")
                page.wait_for_selector("#board-root[data-ready='1'][data-version]")
                crowded.append(page.evaluate("""() => Math.max(...['agot2:ready', 'agot2:first-state']
                    .map(n => performance.getEntriesByName(n)[0].startTime))""") / 1000)
                drawn = page.evaluate("document.querySelector('svg.board').outerHTML").encode()
                ctx.close()
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                page = ctx.new_page()
                page.goto(url + "/boards/agot2.svg?lang=en", wait_until="load")
                bare.append(page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000)
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)

    def line(name, xs):
        return f"{name:<28} median {statistics.median(xs):.3f} s   min {min(xs):.3f}   max {max(xs):.3f}   (n={len(xs)})"

    print(line("interactive map (harness)", inter))
    print(line("interactive, crowded6 1400", crowded))
    print(line("baseline: bare board SVG", bare))
    for k in marks[0]:
        xs = [m[k] / 1000 for m in marks if k in m]
        print(f"  stage {k:<24} median {statistics.median(xs):.3f} s")
    print(f"ratio interactive / bare svg   {statistics.median(inter) / statistics.median(bare):.2f}x")
    print(f"target < 1 s: {'met' if max(statistics.median(inter), statistics.median(crowded)) < 1 else 'NOT met'}")
    pieces = sum(p.stat().st_size for p in [ROOT / "static/js/board/overlay.js", ROOT / "static/js/board/legend.js"])
    pieces_gz = sum(len(gzip.compress(p.read_bytes(), 9)) for p in [ROOT / "static/js/board/overlay.js", ROOT / "static/js/board/legend.js"])
    print(f"board + pieces (issue 15): the inline SVG with crowded6's overlay drawn {len(drawn) / 1024:.1f} KB raw, "
          f"{len(gzip.compress(drawn, 9)) / 1024:.1f} KB gzip -9; the pieces' code (overlay.js, legend.js) "
          f"{pieces / 1024:.1f} KB raw, {pieces_gz / 1024:.1f} KB gzip; downloaded: SVG + pieces' code "
          f"{(len(gzip.compress(svg, 9)) + pieces_gz) / 1024:.1f} KB gzip (target < 150 KB)")
    print(f"board SVG {len(svg) / 1024:.1f} KB raw, {len(gzip.compress(svg, 9)) / 1024:.1f} KB gzip -9; "
          f"board data JSON {len(data) / 1024:.1f} KB raw, {len(gzip.compress(data, 9)) / 1024:.1f} KB gzip; renderer JS {js / 1024:.1f} KB raw")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
