"""The top: the discord.py client and cog, and the wiring of the layers below
(``manager``); the launcher of several processes."""
