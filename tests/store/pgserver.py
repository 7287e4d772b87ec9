"""A throwaway PostgreSQL server for the store tests, from the machine's own binaries.

``initdb`` into a temporary directory, ``pg_ctl start`` on a free loopback port
(and a unix socket in that directory), trust authentication, stopped and deleted
at the end. PostgreSQL refuses to run as root: as root, the server runs as the
``postgres`` system user (``runuser``) and its directory is chowned to it.

Anything that keeps the server from starting raises :class:`PostgresUnavailable`
with what went wrong: the tests that need it fail, they are never skipped. On a
fresh Debian machine ``apt-get install postgresql-15`` provides the binaries
(``tools/install_test_deps.sh``, which ``make test`` runs, does it).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """The test server could not be started."""


def bindir() -> Path:
    """Where ``initdb``, ``pg_ctl`` and ``postgres`` are (``pg_config --bindir``)."""
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        out = subprocess.run([pg_config, "--bindir"], capture_output=True, text=True, check=False)
        if out.returncode == 0 and out.stdout.strip():
            candidates.append(Path(out.stdout.strip()))
    # libpq-dev's pg_config may point at /usr/bin, which has no initdb: look for a server.
    candidates += [
        Path(p).parent for p in sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    ]
    for path in candidates:
        if (path / "initdb").exists() and (path / "pg_ctl").exists():
            return path
    raise PostgresUnavailable(
        "no PostgreSQL server binaries (initdb, pg_ctl) found via `pg_config --bindir` or "
        "/usr/lib/postgresql/*/bin; install them with `apt-get install -y postgresql-15`"
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresServer:
    """One server: :meth:`start`, then :meth:`url`, then :meth:`stop`."""

    def __init__(self) -> None:
        self.bin = bindir()
        self.root = Path(tempfile.mkdtemp(prefix="rh-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError as exc:
                raise PostgresUnavailable(
                    "running as root and there is no `postgres` user to run the server as"
                ) from exc
            os.chown(self.root, user.pw_uid, user.pw_gid)
            runuser = shutil.which("runuser")
            if runuser is None:
                raise PostgresUnavailable("running as root and `runuser` is missing")
            self._as = [runuser, "-u", "postgres", "--"]
        self.started = False

    def _run(self, *args: str) -> None:
        proc = subprocess.run(
            [*self._as, *args], capture_output=True, text=True, timeout=120, check=False
        )
        if proc.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise PostgresUnavailable(
                f"`{' '.join(args)}` failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}\n{log}"
            )

    def start(self) -> PostgresServer:
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        options = " ".join(
            [
                "-c listen_addresses=127.0.0.1",
                f"-p {self.port}",
                f"-k {self.root}",
                "-c fsync=off",  # a test server: speed over surviving a power cut
                "-c max_connections=200",
            ]
        )
        self._run(
            str(self.bin / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )
        self.started = True
        return self

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{dbname}"

    def stop(self) -> None:
        if self.started:
            with contextlib.suppress(PostgresUnavailable, subprocess.TimeoutExpired):
                self._run(
                    str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"
                )
            self.started = False
        shutil.rmtree(self.root, ignore_errors=True)
