"""Pure core: plain values in, plain values out. No file, git, clock or click access."""
