/* SPDX-License-Identifier: MIT */
/*
 * examples/backend-lifo built in the tree, as the module the API tests
 * load on the plugin backend (tests/unit/plugin/run.sh): the example itself,
 * so that the suite checks the plugin a user starts from.
 */
#include "../../../examples/backend-lifo/lifo.c"
