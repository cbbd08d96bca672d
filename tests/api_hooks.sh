#!/bin/sh
# api_hooks.sh SOURCE_DIR [--mutants]: checks the stamps of liblsk's
# public calls (host/core/core.h, LSK__API; docs/errors.md, "Messages"):
# - every definition `int lsk_name(` in host/ (not host/mpi/: lsk_mpi is
#   built on the public API, its liblsk calls are stamped by liblsk) has
#   `LSK__API();` as the first line of its body, but the functions listed
#   in PRESERVING below;
# - every `LSK__API();` in host/ is such a first line: the accessors and
#   void functions (lsk_errmsg, lsk_buffer_size, the destroys...) keep the
#   message as it is, and a stamp there would mark it;
# - every `int lsk_` function declared in include/lsk/ (but mpi.h) has
#   such a definition, so a definition written another way is not missed.
# Exits 1 naming each function that breaks a rule. With --mutants it runs
# itself on copies of the tree with a stamp removed, a stamp added to an
# accessor and a definition's stamp moved down, and fails unless each is
# caught.
set -eu
export LC_ALL=C
src=$1
# Status-returning functions that must not start a call of their own
# (status.h lists every function that keeps the message): the handle
# calls are the building blocks of other libraries' functions (lsk_mpi,
# the examples' libraries), which check their handles first and in their
# accessors and destroys; a stamp there would mark the message in the
# middle of the user's one call.
PRESERVING="lsk_handle_add lsk_handle_check lsk_handle_remove"

if [ "${2:-}" = --mutants ]; then
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/lsk-api-hooks.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  fail=0
  mutant() { # name sed-script file
    rm -rf "$tmp/m"
    mkdir -p "$tmp/m"
    cp -R "$src/host" "$src/include" "$tmp/m/"
    sed -i "$2" "$tmp/m/$3"
    if cmp -s "$src/$3" "$tmp/m/$3"; then
      echo "mutant $1: the edit changed nothing (the script is stale)"
      fail=1
    elif sh "$0" "$tmp/m" >"$tmp/out" 2>&1; then
      echo "mutant $1: NOT caught"
      fail=1
    else
      echo "mutant $1: caught: $(grep -v '^ok' "$tmp/out" | head -1)"
    fi
  }
  # lsk_buffer_read without its stamp.
  mutant no-stamp '/^int lsk_buffer_read(/,/LSK__API/{/LSK__API();/d}' host/core/buffer.c
  # An accessor that stamps: lsk_buffer_size would mark the message.
  mutant accessor-stamp '/^size_t lsk_buffer_size(/,/^{/{s/^{$/{\n  LSK__API();/}' host/core/buffer.c
  # The stamp after another statement: a failure before it is unstamped.
  mutant late-stamp '/^int lsk_queue_flush(/,/LSK__API/{s/^  LSK__API();$/  (void)0;\n  LSK__API();/}' \
    host/core/queue.c
  exit $fail
fi

defs=$(mktemp "${TMPDIR:-/tmp}/lsk-api-hooks.XXXXXX")
trap 'rm -f "$defs"' EXIT
bad=0
# One line per definition: name, then "stamped" or "unstamped"; and one
# "stray FILE:LINE" per stamp that is not a first line.
find "$src/host" -name '*.c' ! -path '*/host/mpi/*' | sort | while read -r f; do
  awk -v f="$f" '
    /^int lsk_[a-z][a-z0-9_]*\(/ && !/;[ \t]*$/ {
      name = $0; sub(/^int /, "", name); sub(/\(.*/, "", name); want = 1; next
    }
    want && /^\{$/ { body = 1; want = 0; next }
    body { print name, ($0 == "  LSK__API();" ? "stamped" : "unstamped"); body = 0
           if ($0 == "  LSK__API();") next }
    /LSK__API\(\);/ { print "stray", f ":" NR }
  ' "$f"
done >"$defs"

while read -r name what; do
  case "$name $what" in
  stray*) echo "LSK__API() not first in a status-returning public function: $what"; bad=1 ;;
  *)
    listed=0
    for p in $PRESERVING; do [ "$p" = "$name" ] && listed=1; done
    if [ "$what" = unstamped ] && [ $listed -eq 0 ]; then
      echo "no LSK__API(); first in $name (host/core/core.h)"
      bad=1
    elif [ "$what" = stamped ] && [ $listed -eq 1 ]; then
      echo "$name is listed as preserving but starts with LSK__API()"
      bad=1
    fi
    ;;
  esac
done <"$defs"

# Every int function of the public headers (lsk_mpi's aside) is defined
# in the checked form.
for name in $(ls "$src"/include/lsk/*.h | grep -v '/mpi\.h$' | xargs cat |
  grep -oE '^int lsk_[a-z][a-z0-9_]*\(' | sed 's/^int //; s/($//' | sort -u); do
  grep -q "^$name " "$defs" || {
    echo "$name: declared, but no definition 'int $name(' at a line's start in host/"
    bad=1
  }
done

n=$(grep -c ' stamped$' "$defs" || true)
[ $bad -eq 0 ] && echo "ok: $n status-returning public functions start with LSK__API()"
exit $bad
