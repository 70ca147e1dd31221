"""`harness audit --rerun`: re-execute what a DONE verdict rests on at its commit, each run kept on that commit's own code."""
