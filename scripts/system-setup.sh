#!/usr/bin/env bash
# What the tests need from the machine: Chromium, the psql and mariadb clients (fixtures load the real
# databases with them), and PostgreSQL and MariaDB answering on 127.0.0.1. Installs what is missing when it
# can (root with apt-get), starts the local servers when they are installed but stopped, and otherwise stops
# at once with the exact commands to run. Extra Debian packages to ensure may be given as arguments.
#   TEST_PG_URL / TEST_MYSQL_URL point the tests at other servers (then nothing is started here).
set -euo pipefail

say() { printf '[setup] %s\n' "$*" >&2; }
fail() {
  printf '\n[setup] The tests cannot run yet:\n' >&2
  printf '  %s\n' "$@" >&2
  exit 1
}

# --- system packages ---------------------------------------------------------------------------------------
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
declare -A need=()
[ -x "$chromium_path" ] || need[chromium]=1
command -v psql >/dev/null 2>&1 || need[postgresql-client]=1
command -v mariadb >/dev/null 2>&1 || command -v mysql >/dev/null 2>&1 || need[mariadb-client]=1
for extra in "$@"; do command -v "$extra" >/dev/null 2>&1 || need[$extra]=1; done

if [ ${#need[@]} -gt 0 ]; then
  packages="${!need[*]}"
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "installing $packages"
    (apt-get update -q || true) >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $packages >/dev/null
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null && command -v apt-get >/dev/null 2>&1; then
    say "installing $packages (sudo)"
    (sudo apt-get update -q || true) >/dev/null 2>&1
    sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q $packages >/dev/null
  else
    fail "missing: $packages" \
      "run: sudo apt-get update && sudo apt-get install -y $packages" \
      "(or set CHROMIUM_PATH to an installed Chromium)"
  fi
fi

# --- database servers ----------------------------------------------------------------------------------------
pg_url="${TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
mysql_url="${TEST_MYSQL_URL:-mysql://root@127.0.0.1:3306/test}"

pg_up() { psql -X -q -d "$pg_url" -c 'select 1' >/dev/null 2>&1; }
mysql_up() {
  local client=mariadb
  command -v mariadb >/dev/null 2>&1 || client=mysql
  node -e '
    const u = new URL(process.argv[1]);
    const args = ["-h", u.hostname, "-P", u.port || "3306", "-u", decodeURIComponent(u.username || "root"), "-e", "select 1"];
    if (u.password) args.push("-p" + decodeURIComponent(u.password));
    const r = require("child_process").spawnSync(process.argv[2], args, { stdio: "ignore" });
    process.exit(r.status ?? 1);' "$mysql_url" "$client"
}
wait_for() { # name, check function
  for _ in $(seq 1 60); do "$2" && return 0; sleep 1; done
  return 1
}

if ! pg_up; then
  if [ -z "${TEST_PG_URL:-}" ] && [ -d /etc/postgresql ] && command -v pg_ctlcluster >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    say "starting the local PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | sort -V | tail -1)" main start || true
    wait_for PostgreSQL pg_up || fail "PostgreSQL did not answer at $pg_url after starting it"
  else
    fail "PostgreSQL does not answer at $pg_url" \
      "start it:   sudo pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start" \
      "or install: sudo apt-get install -y postgresql   (trust auth for postgres on 127.0.0.1)" \
      "or point the tests elsewhere: TEST_PG_URL=postgres://user:pass@host:5432/postgres"
  fi
fi

if ! mysql_up; then
  if [ -z "${TEST_MYSQL_URL:-}" ] && [ -x /usr/sbin/mariadbd ] && command -v start-stop-daemon >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    say "starting the local MariaDB"
    start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd || true
    wait_for MariaDB mysql_up || fail "MariaDB did not answer at $mysql_url after starting it"
  else
    fail "MariaDB/MySQL does not answer at $mysql_url" \
      "start it:   sudo start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd" \
      "or install: sudo apt-get install -y mariadb-server   (root with an empty password on 127.0.0.1)" \
      "or point the tests elsewhere: TEST_MYSQL_URL=mysql://user:pass@host:3306/test"
  fi
fi

say "ready: $(node --version), Chromium, PostgreSQL, MariaDB"
