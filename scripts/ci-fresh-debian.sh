#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run .ci/run as on a fresh Debian 12 machine: a new bookworm system made
# by debootstrap, a clone of this repository in it, and CI=true bash
# .ci/run inside (chroot, as root), so that a package the project needs
# but this machine happens to have shows up as a failure.  Root only: it
# mounts (the system's own root bound onto itself, so that a private mount
# namespace can be had inside as on a machine; /proc, /sys, /dev; a
# tmpfs for /dev/shm, /run and /tmp), and on its way out it ends what is
# still running with its root in that system, unmounts and removes it.
set -u

usage()
{
	cat <<'EOF'
Usage: scripts/ci-fresh-debian.sh [OPTION]...
Run .ci/run (CI=true) in a new Debian 12 (bookworm) system made with
debootstrap, in a clone of this repository at a revision: what a fresh
machine would run.  Root only; installs debootstrap if it is missing.

  --rev=REV       the revision to clone (default HEAD)
  --suite=NAME    the Debian release: bookworm (12, the one the project
                  supports; default) or trixie (13, to see how far it gets)
  --dir=DIR       make the system in DIR, which must not exist (default a
                  new folder under /var/tmp)
  --mirror=URL    the Debian mirror (default http://deb.debian.org/debian)
  --keep          leave the system in place (unmounted) for a look
  --log=FILE      .ci/run's output also goes to FILE
  -h, --help      this text

Exit status: .ci/run's (0: every stage passed); 1 when the system could
not be made; 2 for a bad command line.
EOF
}

die_usage()
{
	echo "ci-fresh-debian.sh: $*" >&2
	exit 2
}

rev=HEAD
suite=bookworm
dir=
mirror=http://deb.debian.org/debian
keep=
log=/dev/null
for a do
	case $a in
	--rev=?*)	rev=${a#*=} ;;
	--suite=bookworm|--suite=trixie) suite=${a#*=} ;;
	--suite=*)	die_usage "$a: expected --suite=bookworm or --suite=trixie" ;;
	--dir=?*)	dir=${a#*=} ;;
	--mirror=?*)	mirror=${a#*=} ;;
	--keep)		keep=1 ;;
	--log=?*)	log=${a#*=} ;;
	-h|--help)	usage; exit 0 ;;
	*)		die_usage "$a: unknown option or empty value; expected --rev=REV, --suite=NAME, --dir=DIR, --mirror=URL, --keep, --log=FILE or --help" ;;
	esac
done

top=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$top" rev-parse --verify -q "$rev^{commit}") ||
	die_usage "--rev=$rev: not a revision of $top"
[ "$(id -u)" -eq 0 ] || { echo "ci-fresh-debian.sh: root only (it mounts and chroots)" >&2; exit 1; }
if [ -n "$dir" ]; then
	# /proc/mounts escapes blanks: the cleanup could not find its mounts.
	case $dir in
	*[[:space:]]*) die_usage "--dir=$dir: a blank in the path; expected a path without one" ;;
	esac
	[ ! -e "$dir" ] || die_usage "--dir=$dir: exists; expected a path to create"
	mkdir -p "$dir" || exit 1
else
	dir=$(mktemp -d /var/tmp/pp-fresh-debian.XXXXXX) || exit 1
fi
dir=$(cd "$dir" && pwd)
# The system's /: mktemp's 0700 would keep every user but root out of it
# (apt's _apt, the tests' nobody).
chmod 0755 "$dir" || exit 1

# run CMD...: CMD in a session of its own in the background, waited for,
# so that a signal to this script is handled at once (a shell runs its
# traps only between commands); its status.  The cleanup ends the
# session, debootstrap's downloads with it.
child=
run()
{
	setsid "$@" &
	child=$!
	wait "$child"
}

# On the way out: what still runs in the system (a daemon a test left),
# by pid; then the mounts, innermost first; then the system.
# shellcheck disable=SC2317 # called by the EXIT trap
cleanup()
{
	if [ -n "$child" ] && kill -TERM "-$child" 2>/dev/null; then
		i=0
		while kill -0 "-$child" 2>/dev/null && [ "$i" -lt 50 ]; do
			sleep 0.2
			i=$((i + 1))
		done
		kill -KILL "-$child" 2>/dev/null
	fi
	rm -f "$dir.debootstrap.log"
	for p in /proc/[0-9]*; do
		case $(readlink "$p/root" 2>/dev/null) in
		"$dir"|"$dir"/*) kill -KILL "${p#/proc/}" 2>/dev/null ;;
		esac
	done
	awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { print $2 }' \
		/proc/mounts | sort -r |
	while read -r m; do
		umount -l "$m" 2>/dev/null
	done
	# Never remove through a mount that is still there (the host's /dev).
	if awk -v d="$dir" '$2 == d || index($2, d "/") == 1 { found = 1 }
	    END { exit !found }' /proc/mounts; then
		echo "ci-fresh-debian.sh: $dir still has mounts; not removed" >&2
	elif [ -n "$keep" ]; then
		echo "ci-fresh-debian.sh: the system is kept in $dir"
	else
		rm -rf --one-file-system "$dir"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if ! command -v debootstrap >/dev/null 2>&1; then
	echo "ci-fresh-debian.sh: installing debootstrap"
	{ apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } >/dev/null ||
		{ echo "ci-fresh-debian.sh: cannot install debootstrap" >&2; exit 1; }
fi

case $suite in bookworm) release=12 ;; trixie) release=13 ;; esac
echo "ci-fresh-debian.sh: making Debian $release ($suite) in $dir"
run debootstrap "$suite" "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 || {
	tail -n 20 "$dir.debootstrap.log" >&2
	echo "ci-fresh-debian.sh: debootstrap failed (its last lines above)" >&2
	exit 1
}
rm -f "$dir.debootstrap.log"
security=$(echo "$mirror" | sed 's|/debian/*$|/debian-security|')
cat >"$dir/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb $security $suite-security main
EOF
cp /etc/resolv.conf /etc/hosts "$dir/etc/"

if ! { mount --bind "$dir" "$dir" &&
	mount -t proc proc "$dir/proc" &&
	mount --rbind /sys "$dir/sys" && mount --make-rslave "$dir/sys" &&
	mount --rbind /dev "$dir/dev" && mount --make-rslave "$dir/dev" &&
	mount -t tmpfs tmpfs "$dir/dev/shm" &&
	mount -t tmpfs tmpfs "$dir/run" &&
	mount -t tmpfs tmpfs "$dir/tmp"; }; then
	echo "ci-fresh-debian.sh: cannot mount the system's file systems" >&2
	exit 1
fi

# What a user who clones has: git (and the certificates a clone over
# https needs).  Everything else is .ci/run's to install.
run chroot "$dir" sh -c 'apt-get update -qq &&
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq git ca-certificates' >/dev/null ||
	{ echo "ci-fresh-debian.sh: cannot install git in the system" >&2; exit 1; }
git clone -q --no-checkout "$top" "$dir/root/pagepool" &&
	git -C "$dir/root/pagepool" checkout -q "$commit" || exit 1
echo "ci-fresh-debian.sh: .ci/run at $(git -C "$top" log -1 --format='%h %s' "$commit")"

# shellcheck disable=SC2016 # expanded by the inner shells
run sh -c 'chroot "$1" env -i \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root TERM=dumb CI=true \
	bash -c "cd /root/pagepool && bash .ci/run; echo \$? >/root/ci-status" 2>&1 |
	tee "$2"' sh "$dir" "$log"
status=$(cat "$dir/root/ci-status" 2>/dev/null) || status=1
exit "$status"
