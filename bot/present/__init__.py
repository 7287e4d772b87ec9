"""Presentation, pure: engine views and table info into text, pictures and component
payloads (``render``, ``picture``, ``controls``, ``components``); ``notify`` and
``replies`` are the only modules that talk to Discord. Imports ``bot.store`` and the
foundation, nothing above."""
