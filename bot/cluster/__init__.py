"""Several bot processes on one PostgreSQL database: the ``TableSync`` of a cluster
(leases, LISTEN/NOTIFY, taking over a dead process's tables)."""
