"""Development tools: the UI harnesses and the benchmark echo socket, each off unless its setting
is on (``UI_HARNESS``, ``DUKE_HARNESS``, ``BENCH_ECHO``).

May import anything in ``game``; nothing in ``game`` imports it (only ``gotweb``'s URL and
websocket routing, behind those settings).
"""
