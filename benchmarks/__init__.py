"""Benchmarks for brainbridge: `python -m benchmarks` runs every suite and writes docs/benchmarks.md."""
