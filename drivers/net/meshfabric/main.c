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

static int __init mf_init(void)
{
	int err;

	err = mf_fabric_init();
	if (err)
		return err;
	err = mf_bcast_init();
	if (err)
		goto err_fabric;
	err = mf_netdev_init();
	if (err)
		goto err_bcast;
	err = mf_ioctl_init();
	if (err)
		goto err_netdev;
	return 0;

err_netdev:
	mf_netdev_exit();
err_bcast:
	mf_bcast_exit();
err_fabric:
	mf_fabric_exit();
	return err;
}

static void __exit mf_exit(void)
{
	mf_ioctl_exit();	/* no new ioctl; none in flight (module ref) */
	mf_fabric_destroy_all();
	mf_netdev_exit();
	mf_bcast_exit();
	mf_fabric_exit();	/* reports leaks */
}

module_init(mf_init);
module_exit(mf_exit);
MODULE_LICENSE("GPL");
MODULE_VERSION(MF_VERSION);
MODULE_DESCRIPTION("meshfabric: emulated mesh/torus/hex interconnect of netdevs");
