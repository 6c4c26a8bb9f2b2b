"""tasklang: tasks for phone-use agents, written once and compiled for every backend."""

__version__ = "0.1.0"
