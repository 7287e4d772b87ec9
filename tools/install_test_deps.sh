#!/usr/bin/env bash
# What the tests need from the machine, beyond the Python packages of pyproject.toml:
# installed when missing (Debian's packages), a no-op when present. `make test` and
# .ci/run both call it, so a fresh machine needs nothing installed by hand.
#
# * PostgreSQL's server binaries: the store tests start a throwaway server of their own
#   (tests/store/pgserver.py). libpq-dev alone brings a pg_config without a server,
#   hence the initdb check.
# * chromium: the web table's browser tests (tests/web/) drive Debian's own chromium
#   through Playwright (/usr/bin/chromium; never `playwright install`).
# * node and npm, then the web table's bundle: `make web` (npm ci from
#   web/package-lock.json, tsc --noEmit, esbuild), a no-op when it is up to date.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()

have_postgres_server() {
    if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
        return 0
    fi
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null
}
have_postgres_server || missing+=(postgresql-15)
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)

if [ ${#missing[@]} -gt 0 ]; then
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
fi

make --no-print-directory web
