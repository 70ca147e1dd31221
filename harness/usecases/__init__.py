"""Use cases: plain functions taking values and returning result values.

A click command parses its arguments, calls one use case, and hands the result to a
reporter (:mod:`harness.cli.reporters`): text or JSON is a choice of reporter, not a branch.
"""
