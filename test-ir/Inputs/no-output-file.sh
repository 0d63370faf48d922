#!/bin/sh
# lit's %no-output-file. Usage:
#   no-output-file.sh OUT COMMAND [ARG...]
#
# Removes OUT, runs COMMAND (its output passes through), and then fails if
# OUT exists: the check that a refused input leaves no output file, as in
#   RUN: %no-output-file %t.out not %opt -passes=P -S %s -o %t.out 2>&1 | FileCheck %s
# Exits with COMMAND's status, or 1 when OUT was written.
if [ $# -lt 2 ]; then
  echo "usage: $0 OUT COMMAND [ARG...]" >&2
  exit 2
fi
out=$1
shift
rm -f "$out"
"$@"
status=$?
if [ -e "$out" ]; then
  echo "$0: $out was written" >&2
  exit 1
fi
exit $status
