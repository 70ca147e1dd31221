"""The gate's inputs and its live answer: facts from a working tree or a commit, and the next step now."""
