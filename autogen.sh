#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerate the build system (configure, Makefile.in, tap-driver.sh, ...).
set -e
cd "$(dirname "$0")"
autoreconf -fi
