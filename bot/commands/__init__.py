"""The slash commands that read rather than play: hand, rules, leaderboard, stats,
records and replays."""
