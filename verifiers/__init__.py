"""Verifiers: evaluate compiled tasks on world snapshots and trajectories."""
