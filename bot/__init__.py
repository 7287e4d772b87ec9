"""Discord front end for Ruff and Honours: commands, views, the game manager and storage."""
