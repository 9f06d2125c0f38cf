# Helpers shared by scripts/run and scripts/test. Source it; it does nothing by itself.
#
# Everything here works from a fresh clone: it creates the virtualenv, installs the project and
# installs the Debian packages the project needs (when running as root), because CI and new
# machines start with none of them.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMP="$VENV/.decklab-install"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
warn() { printf '\033[33mWARNING: %s\033[0m\n' "$*" >&2; }

# pip, quiet, without the notes about configured package folders that do not exist here.
# Its exit status is pip's (the scripts run with pipefail).
_pip() {
    "$PY" -m pip --quiet --disable-pip-version-check "$@" 2>&1 \
        | { grep -v "is ignored: it is neither a file nor a directory" || true; }
}

# ensure_venv [EXTRAS]: create .venv when missing, install the pinned dependencies from the lock
# file (requirements.lock, or requirements-dev.lock with "dev"; hashes checked), then the project
# itself with --no-deps, so every machine and CI run the same versions. Skipped when neither
# pyproject.toml nor the lock file changed since the last install of the same (or a larger) set
# of extras. Re-lock after changing the dependencies: see README "Dependencies".
ensure_venv() {
    local extras="${1:-}"
    local target="." lock="$ROOT/requirements.lock" want_stamp hash
    if [[ -n "$extras" ]]; then
        target=".[$extras]"
        lock="$ROOT/requirements-dev.lock"
    fi
    if [[ ! -x "$PY" ]]; then
        local base="${PYTHON:-python3}"
        if ! "$base" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "DeckLab needs Python 3.11 or newer as \`$base\` (set PYTHON=/path/to/python3.11)." >&2
            exit 1
        fi
        say "Creating the virtualenv in .venv"
        "$base" -m venv "$VENV"
    fi
    hash="$(cat "$ROOT/pyproject.toml" "$lock" | sha256sum | cut -d' ' -f1)"
    want_stamp="$hash $extras"
    if [[ -f "$STAMP" ]]; then
        local have
        have="$(cat "$STAMP")"
        if [[ "$have" == "$want_stamp" ]]; then
            return 0
        fi
        # An install with the dev extras also satisfies a plain install, when it is current.
        if [[ -z "$extras" && "$have" == *" dev" ]]; then
            local dev_hash
            dev_hash="$(cat "$ROOT/pyproject.toml" "$ROOT/requirements-dev.lock" | sha256sum | cut -d' ' -f1)"
            [[ "$have" == "$dev_hash dev" ]] && return 0
        fi
    fi
    say "Installing DeckLab ($target, pinned by ${lock##*/}) into .venv"
    _pip install --upgrade pip
    (cd "$ROOT" && _pip install --require-hashes -r "$lock")
    (cd "$ROOT" && _pip install --no-deps -e "$target")
    echo "$want_stamp" >"$STAMP"
}

is_root() { [[ "$(id -u)" == "0" ]]; }

_APT_UPDATED=0
# apt_install PACKAGE...: install Debian packages when running as root; returns 1 otherwise.
apt_install() {
    if ! is_root; then
        return 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        return 1
    fi
    say "Installing Debian package(s): $*"
    export DEBIAN_FRONTEND=noninteractive
    local log="${TMPDIR:-/tmp}/decklab-apt.log"
    if [[ "$_APT_UPDATED" == "0" ]]; then
        apt-get update -qq </dev/null >"$log" 2>&1 || { tail -n 5 "$log" >&2; return 1; }
        _APT_UPDATED=1
    fi
    apt-get install -y -qq "$@" </dev/null >>"$log" 2>&1 || { tail -n 5 "$log" >&2; return 1; }
}

# ensure_gettext: GNU gettext (msgfmt, xgettext, msgmerge) for makemessages/compilemessages.
ensure_gettext() {
    if command -v msgfmt >/dev/null 2>&1 && command -v xgettext >/dev/null 2>&1; then
        return 0
    fi
    apt_install gettext && command -v msgfmt >/dev/null 2>&1
}

# port_open HOST PORT: true when something accepts TCP connections there (within 2 s).
port_open() {
    timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null
}

# ensure_secret_key: keep one generated SECRET_KEY in var/secret_key unless one is given.
ensure_secret_key() {
    if [[ -n "${SECRET_KEY:-}" ]]; then
        return 0
    fi
    local var_dir="${DECKLAB_VAR_DIR:-$ROOT/var}"
    local key_file="$var_dir/secret_key"
    mkdir -p "$var_dir"
    if [[ ! -s "$key_file" ]]; then
        (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$key_file")
    fi
    SECRET_KEY="$(cat "$key_file")"
    export SECRET_KEY
}

# ensure_demo_password: DEMO_PASSWORD, or the one generated once and kept in var/demo_password.
# Generated from letters and digits only: one starting with "-" would read as an option where it
# is passed or typed (scripts/run passes it as --demo-password=VALUE, so an older file holding
# one still works).
ensure_demo_password() {
    if [[ -n "${DEMO_PASSWORD:-}" ]]; then
        return 0
    fi
    local var_dir="${DECKLAB_VAR_DIR:-$ROOT/var}"
    local file="$var_dir/demo_password"
    mkdir -p "$var_dir"
    if [[ ! -s "$file" ]]; then
        (umask 077 && "$PY" -c 'import secrets, string
alphabet = string.ascii_letters + string.digits
print("".join(secrets.choice(alphabet) for _ in range(16)))' >"$file")
    fi
    DEMO_PASSWORD="$(cat "$file")"
}
