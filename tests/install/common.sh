# SPDX-License-Identifier: MIT
#
# What the tests of the installed library share (sourced after
# tests/utils/tap.sh): $san, the sanitizer flags a program or plugin built
# outside the tree needs to load this build's library, submake, a make of
# its own for the staged installs, and tree_make, for make install and
# uninstall in the build tree, one test at a time (tree_install: in
# several of its folders).

# A sanitizer build's library needs programs built the same way.
san=
if grep -q '^#define PP_CONFIG_ASAN 1' "$top_builddir/config.h"; then
	san="-fsanitize=address,undefined"
elif grep -q '^#define PP_CONFIG_TSAN 1' "$top_builddir/config.h"; then
	san="-fsanitize=thread"
fi

# A make of its own: not the jobserver of the make running the tests.
submake()
{
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s "$@"
}

# tree_make ARGS...: submake ARGS on the build tree (make install or
# uninstall), holding a lock on the build tree's tests/install folder:
# test_pkgconfig.sh and test_plugin.sh run at once under make -j, and two
# installs from one tree race on the files they regenerate (pagepool.pc's
# temporary file).
tree_make()
{
	if command -v flock >/dev/null 2>&1; then
		flock "$top_builddir/tests/install" env -u MAKEFLAGS -u MFLAGS \
			-u MAKELEVEL make -s "$@"
	else
		submake "$@"
	fi
}

# tree_install TARGET WHERE DIR...: tree_make TARGET WHERE (install or
# uninstall; DESTDIR=... or prefix=...) in each DIR of the build tree,
# their output appended to $tmpdir/install.log.  False if one failed.
tree_install()
{
	ti_target=$1
	ti_where=$2
	shift 2
	ti_status=0
	for ti_dir in "$@"; do
		tree_make -C "$top_builddir/$ti_dir" "$ti_target" "$ti_where" \
			>>"$tmpdir/install.log" 2>&1 || ti_status=1
	done
	return "$ti_status"
}
