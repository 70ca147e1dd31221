#!/usr/bin/env bash
# Found while fixing F-0085: a token written half to stdout, then half to stderr (F-0154) reaches the evidence's
# tails when the capturing process is not scheduled while the command writes (here stopped for 0.3 s, as a busy
# machine does): both pipes are then read in either order, the combined capture holds the halves swapped, and the
# redactor sees no whole token. Runs tests/test_secrets_split_over_streams.py::
# test_a_token_written_half_to_each_stream_is_in_neither_tail 15 times so; exit 1 if any fails, 0 once the token is
# redacted whatever the scheduling, 2 on setup failure.
exec bash "$(dirname "$0")/02-the-combined-capture-test-depends-on-scheduling.sh" \
  tests/test_secrets_split_over_streams.py::test_a_token_written_half_to_each_stream_is_in_neither_tail
