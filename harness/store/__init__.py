"""The file adapter: the .harness/ folder read boundedly and written atomically under a lock (tasks, ledger, settings, evidence files)."""
