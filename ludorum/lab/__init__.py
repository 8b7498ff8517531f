"""Tournaments, statistics, balance reports, ratings, tuning, the ladder and the soak."""
