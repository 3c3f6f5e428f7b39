"""Board drawings and their HTTP views: geometry, outlines, anchors, labels, the SVG render, the
board's JSON data.

May import: ``game.rules`` (its data) only; never ``models``, ``live``, ``site`` or ``devtools``.
"""
