/* SPDX-License-Identifier: MIT */
/* rpcsim-analyze: placeholder until the real program lands. */
int main(void)
{
	return 0;
}
