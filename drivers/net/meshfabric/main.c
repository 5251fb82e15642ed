// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - module init and exit only: each layer (mf.h) registers what it
 * owns, in order, and unregisters it in reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include "mf.h"
#define CREATE_TRACE_POINTS
#include "trace.h"

/* Last out: no new ioctl and none in flight (module ref), then no fabric. */
static void mf_ioctl_exit_fabrics(void)
{
	mf_ioctl_exit();
	mf_fabric_destroy_all();
}

/* The layers in init order; exit runs them in reverse. */
static const struct {
	int (*init)(void);
	void (*exit)(void);
} mf_layers[] = {
	{ mf_acct_init, mf_acct_exit },		/* its exit reports leaks */
	{ mf_fabric_init, mf_fabric_exit },
	{ mf_bcast_init, mf_bcast_exit },
	{ mf_netdev_init, mf_netdev_exit },
	{ mf_port_init, mf_port_exit },
	{ mf_ioctl_init, mf_ioctl_exit_fabrics },
};

/* Exit the first n layers, last first. */
static void mf_unwind(unsigned int n)
{
	while (n--)
		mf_layers[n].exit();
}

static int __init mf_init(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(mf_layers); i++) {
		err = mf_layers[i].init();
		if (err) {
			mf_unwind(i);
			return err;
		}
	}
	return 0;
}

static void __exit mf_exit(void)
{
	mf_unwind(ARRAY_SIZE(mf_layers));
}

module_init(mf_init);
module_exit(mf_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(MF_VERSION);
MODULE_DESCRIPTION("meshfabric: emulated mesh/torus/hex interconnect of netdevs");
