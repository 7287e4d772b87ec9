"""The table lifecycle: lobby, play, claims, drivers (AI and timers), resume, hands;
``commit`` is the one writer of table state and publishes every move's events;
``sync`` is how a copy keeps in step with the database."""
