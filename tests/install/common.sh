# SPDX-License-Identifier: MIT
#
# What the tests of the installed library share (sourced after
# tests/utils/tap.sh): $san, the sanitizer flags a program or plugin built
# outside the tree needs to load this build's library, and submake, a make
# of its own for the staged installs.

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
