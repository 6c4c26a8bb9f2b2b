"""Policy training: SFT and mixed RL on tasklang tasks."""
