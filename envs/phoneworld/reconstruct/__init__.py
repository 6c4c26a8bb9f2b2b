"""Rebuild runnable PhoneWorld apps from recorded GUI usage (DroidBot, AutoDroid, trajectories)."""
