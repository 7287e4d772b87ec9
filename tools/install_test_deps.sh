#!/usr/bin/env bash
# What the tests need on a fresh machine beyond the venv, installed only if missing
# (`make test`, `make test-fast` and CI's .ci/run call this):
#   * PostgreSQL's server binaries: the store tests start a throwaway server
#     (tests/store/pgserver.py);
#   * chromium: the web table's browser tests drive the distribution's own chromium
#     through Playwright (never `playwright install`: /usr/bin/chromium is used);
#   * node and npm, then the web table's bundle (`make web`: npm ci from the lockfile,
#     tsc --noEmit, esbuild).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
missing=()

# (libpq-dev alone brings a pg_config without a server, hence the initdb check)
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
    echo "installing ${missing[*]} (what the tests need)"
    $SUDO apt-get update
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

make --no-print-directory web
