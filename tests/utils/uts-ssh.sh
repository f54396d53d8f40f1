#!/bin/sh
# SPDX-License-Identifier: MIT
#
# uts-ssh.sh: an ssh stand-in for GNU parallel (--ssh=uts-ssh.sh), so that
# one machine can play several in tests and in doc/experiments.md's
# walk-through:
# "uts-ssh.sh HOST [--] COMMAND..." runs COMMAND with sh, as ssh's remote
# shell would, in a UTS namespace of its own whose host name is HOST
# (unshare --uts; root, or a kernel that lets users make namespaces).
# Same CPUs, same memory, same files: only the name differs.  Options
# before HOST (ssh's) are skipped.  SHELL is set to /bin/sh, the shell
# this "remote" side runs, as sshd sets it to the login shell: GNU
# parallel's remote worker execs $SHELL, and where the caller's
# environment has no SHELL (a CI job's may not) it would exec an empty
# name and run nothing, silently, with exit status 0.

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
SHELL=/bin/sh
export SHELL
# shellcheck disable=SC2016
exec unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' \
	uts-ssh "$host" "$@"
