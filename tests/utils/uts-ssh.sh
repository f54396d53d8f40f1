#!/bin/sh
# SPDX-License-Identifier: MIT
#
# uts-ssh.sh: an ssh stand-in for GNU parallel (--ssh=uts-ssh.sh), so that
# one machine can play several in tests and in the README's walk-through:
# "uts-ssh.sh HOST [--] COMMAND..." runs COMMAND with sh, as ssh's remote
# shell would, in a UTS namespace of its own whose host name is HOST
# (unshare --uts; root, or a kernel that lets users make namespaces).
# Same CPUs, same memory, same files: only the name differs.  Options
# before HOST (ssh's) are skipped.

while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	-*) shift ;;
	*) break ;;
	esac
done
if [ $# -lt 1 ]; then
	echo "usage: uts-ssh.sh HOST [--] COMMAND..." >&2
	exit 255
fi
host=$1
shift
[ "${1:-}" = "--" ] && shift
# shellcheck disable=SC2016
exec unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' \
	uts-ssh "$host" "$@"
