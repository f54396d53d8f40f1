/* SPDX-License-Identifier: MIT */
/* rpcsim: placeholder until the real program lands. */
int main(void)
{
	return 0;
}
