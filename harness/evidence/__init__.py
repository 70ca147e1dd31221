"""Evidence: run a command, keep its redacted output and test cases, bound to the source tree it ran on."""
