"""Answers to a designer's questions: exact odds, Monte Carlo with error bars, sweeps."""
