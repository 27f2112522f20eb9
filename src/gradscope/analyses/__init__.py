"""Analyses: pure functions over a trace that several rules compose (no torch, no rules).

- provenance.py: where a tensor came from: the chain of recorded ops back to its leaves, and, for
  a value carried from one iteration into the next, the op that made it and the first op of the
  new iteration that used it.
"""
