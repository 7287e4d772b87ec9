#!/usr/bin/env bash
# What the tests need from the machine, beyond the Python packages of pyproject.toml:
# installed when missing (Debian's packages), a no-op when present. `make test` and
# .ci/run both call it, so a fresh machine needs nothing installed by hand.
#
# * PostgreSQL's server binaries: the store tests start a throwaway server of their own
#   (tests/store/pgserver.py). libpq-dev alone brings a pg_config without a server,
#   hence the initdb check.
set -euo pipefail

missing=()

have_postgres_server() {
    if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
        return 0
    fi
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
}
have_postgres_server || missing+=(postgresql-15)

if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "the tests need: ${missing[*]} (Debian packages); install them as root" >&2
        exit 1
    fi
    SUDO="sudo"
fi
echo "installing ${missing[*]} (the tests need them)"
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
