"""Installing the harness into a repository: `harness init`, the git hook shims and the pre-commit hook list, the notes refspecs, the server hook, the skills."""
