"""Benchmarks: run as scripts (``python -m tests.bench.engine``), never collected by pytest."""
