#!/usr/bin/env bash
# Browser test of `fairysolve serve`: drives headless Chromium through the workbench and a
# Looking-Glass game between two players (pages.mjs), against the pages built into the
# binary.
#
#   tests/browser/run.sh [--screenshots]
#
# FAIRYSOLVE   the binary to test; unset: built here with `cargo build --release --locked`
# --screenshots   also write docs/serve-workbench.png, docs/serve-glass.png and
#                 docs/serve-play.png (otherwise the screenshots go to a temporary folder)
#
# Needs Chromium (the Debian package `chromium`, installed here when missing and run as
# root with apt-get) and Node.js with npm; installs playwright-core into
# tests/browser/node_modules. Exits non-zero when a check fails.
set -euo pipefail

PLAYWRIGHT_VERSION=1.65.1
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"

screenshots=0
for arg in "$@"; do
  case "$arg" in
    --screenshots) screenshots=1 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument $arg (only --screenshots)" >&2; exit 2 ;;
  esac
done

say() { echo "run.sh: $*"; }
die() { echo "run.sh: $*" >&2; exit 1; }

# ---- The binary ------------------------------------------------------------------------
if [[ -n "${FAIRYSOLVE:-}" ]]; then
  bin="$FAIRYSOLVE"
  [[ -x "$bin" ]] || die "FAIRYSOLVE=$bin is not an executable file"
else
  say "building fairysolve (cargo build --release --locked)"
  (cd "$ROOT" && cargo build --release --locked)
  bin="$ROOT/target/release/fairysolve"
fi

# ---- Chromium, Node.js, playwright-core --------------------------------------------------
can_apt() { [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null; }
apt_updated=0
apt_install() {
  if [[ $apt_updated -eq 0 ]]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ ! -x "$CHROMIUM_PATH" ]]; then
  if can_apt; then
    say "installing chromium (apt-get)"
    apt_install chromium
  fi
  [[ -x "$CHROMIUM_PATH" ]] || die "Chromium not found at $CHROMIUM_PATH: install it (apt-get install chromium) or set CHROMIUM_PATH"
fi
export CHROMIUM_PATH

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  if can_apt; then
    say "installing nodejs and npm (apt-get)"
    apt_install nodejs npm
  fi
  command -v node >/dev/null && command -v npm >/dev/null \
    || die "Node.js and npm are needed: install them (apt-get install nodejs npm)"
fi

pw_json="$HERE/node_modules/playwright-core/package.json"
pw_have="$(node -p "require('$pw_json').version" 2>/dev/null || true)"
if [[ "$pw_have" != "$PLAYWRIGHT_VERSION" ]]; then
  say "installing playwright-core@$PLAYWRIGHT_VERSION into tests/browser/node_modules"
  npm install --no-save --no-audit --no-fund --prefix "$HERE" "playwright-core@$PLAYWRIGHT_VERSION" >/dev/null
fi

# ---- The server ----------------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/fairysolve-browser.XXXXXX")"
server_pid=""
keep_work=0
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if [[ $keep_work -eq 0 ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP PIPE

"$bin" serve --addr 127.0.0.1:0 --games "$work/games" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!

# The first line says where it listens: "fairysolve serve: http://ADDR/".
addr=""
for _ in $(seq 1 100); do
  first="$(head -n 1 "$work/server.out" 2>/dev/null || true)"
  if [[ "$first" =~ ^fairysolve\ serve:\ http://([^/]+)/$ ]]; then
    addr="${BASH_REMATCH[1]}"
    break
  fi
  if ! kill -0 "$server_pid" 2>/dev/null; then
    keep_work=1
    die "the server stopped before listening; its error output: $(cat "$work/server.err")"
  fi
  sleep 0.1
done
[[ -n "$addr" ]] || { keep_work=1; die "the server printed no address within 10 s (output in $work)"; }
say "server $bin at http://$addr/"

# ---- The pages -----------------------------------------------------------------------
if [[ $screenshots -eq 1 ]]; then
  shots="$ROOT/docs"
else
  shots="$work/shots"
fi

status=0
node "$HERE/pages.mjs" --base "http://$addr" --shots "$shots" --failures "$work/failures" || status=$?

if [[ $status -ne 0 ]]; then
  keep_work=1
  echo "run.sh: the browser test FAILED (server log and pictures of the failing pages kept in $work)" >&2
  exit "$status"
fi
say "all browser checks passed"
