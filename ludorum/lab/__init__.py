"""Tournaments, statistics, balance reports and benchmarks."""
