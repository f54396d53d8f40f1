/* SPDX-License-Identifier: MIT */
/* rpcsim-analyze's entry point; the program is rpcsim_analyze_main(). */
#include "config.h"

#include "analyze.h"

int main(int argc, char **argv)
{
	return rpcsim_analyze_main(argc, argv);
}
