// SPDX-License-Identifier: GPL-2.0
/* main.c - PLACEHOLDER, being written: meshfabric command dispatch. */
#include <stdio.h>

int main(int argc, char **argv)
{
	fprintf(stderr, "meshfabric: not yet\n");
	return 1;
}
