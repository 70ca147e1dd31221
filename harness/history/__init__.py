"""What a repository's history may hold: the commit hook's rules, the commits a push brings, rewrites, stamps, audit ranges."""
