"""Engineering Harness: a task reaches DONE only through a deterministic gate on fresh evidence."""

__version__ = "0.1.0"
