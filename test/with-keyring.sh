#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so tests use a
# real Secret Service without touching the developer's own keychain.
set -euo pipefail
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
exec dbus-run-session -- bash -c 'echo -n test-keyring | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec "$@"' keyring "$@"
