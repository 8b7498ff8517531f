"""Tests of the benchmarks (ludorum.bench): each runs briefly and reports what it promises."""
