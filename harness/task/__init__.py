"""A task's own record: its contract, its lifecycle transitions, the listing of tasks and the status view."""
