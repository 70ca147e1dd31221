"""Findings: a reviewer's claim, its reproducer run, its regression test and fix, and the review packet that asks for them."""
