"""What runs beside the bot, never inside it: benchmarks, the offline demo, the AI
arena, screenshots. Run from the repository root: ``python -m tools.<name>``."""
