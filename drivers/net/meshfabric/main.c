// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - module init/exit, the misc device /dev/meshfabric and the
 * allocation counter (read-only module parameter "allocated": objects the
 * module holds right now; 0 when no fabric exists).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <net/rtnetlink.h>
#include "mf.h"

atomic_long_t mf_allocated = ATOMIC_LONG_INIT(0);

void *mf_kzalloc(size_t size)
{
	void *p = kvzalloc(size, GFP_KERNEL | __GFP_NOWARN);

	if (p)
		mf_count_get();
	return p;
}

void mf_kfree(void *p)
{
	if (!p)
		return;
	kvfree(p);
	mf_count_put();
}

static int mf_allocated_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%ld\n", atomic_long_read(&mf_allocated));
}

static const struct kernel_param_ops mf_allocated_ops = {
	.get = mf_allocated_get,
};

module_param_cb(allocated, &mf_allocated_ops, NULL, 0444);
MODULE_PARM_DESC(allocated, "objects currently allocated by the module");

static const struct file_operations mf_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = mf_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

static struct miscdevice mf_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "meshfabric",
	.fops = &mf_fops,
	.mode = 0666,
};

static int __init mf_init(void)
{
	int err;

	err = mf_netdev_register_ops();
	if (err)
		return err;
	err = misc_register(&mf_misc);
	if (err)
		goto err_unregister_ops;
	return 0;

err_unregister_ops:
	mf_netdev_unregister_ops();
	return err;
}

static void __exit mf_exit(void)
{
	long left;

	misc_deregister(&mf_misc);
	mf_fabric_destroy_all();
	mf_netdev_unregister_ops();
	left = atomic_long_read(&mf_allocated);
	if (left)
		pr_err("leak: %ld objects still allocated at unload\n", left);
}

module_init(mf_init);
module_exit(mf_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("meshfabric: emulated mesh/torus/hex interconnect of netdevs");
