"""The table layer, the same for every front: ``act`` decides a seat's action and
returns an outcome; ``commit`` is the one writer of table state and publishes every
move's events into the ``feed``; ``drivers`` (AI and timers) and ``resume`` move
tables between clicks, telling the front what it should show through ``front``;
``sync`` is how a copy keeps in step with the database. Imports no discord."""
