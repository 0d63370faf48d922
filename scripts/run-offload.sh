#!/bin/sh
# Usage: run-offload.sh IMAGE[:IMAGE...] PROGRAM [ARGS...]
#
# Runs PROGRAM, then deletes the /tmp/tmpfile_* copies of each IMAGE that
# libomptarget's host plugin wrote during the run: it writes each image it
# loads to /tmp/tmpfile_XXXXXX (ignoring TMPDIR) and never deletes it. Only
# files that are new since the start and hold exactly IMAGE's bytes are
# removed, so tests running in parallel never delete each other's files.
# Several images (a program with clang's image and ours) are separated by ':'.
# Exits with PROGRAM's status.
image=$1
shift
before=$(ls /tmp/tmpfile_* 2>/dev/null)
"$@"
status=$?
for f in /tmp/tmpfile_*; do
  [ -f "$f" ] || continue
  case "
$before
" in
  *"
$f
"*) continue ;;
  esac
  (
    IFS=:
    for one in $image; do
      if cmp -s "$f" "$one"; then
        rm -f "$f"
        break
      fi
    done
  )
done
exit $status
