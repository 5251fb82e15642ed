/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compat.h - the one place where meshfabric.ko meets the differences
 * between the kernels it is built for: Debian 12's 6.1, 6.12 (Debian 13,
 * Debian 12's security and backports suites) and the newest mainline in
 * Debian's archive (sid).  Each shim is selected by LINUX_VERSION_CODE
 * and names the upstream change that made it necessary, as
 * wireguard-linux-compat and the backports project do.  The driver calls
 * the newest API; older kernels get it here, built from what they have.
 * No other file tests the kernel's version.
 */
#ifndef MF_KCOMPAT_H
#define MF_KCOMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/uio.h>
#include <linux/fs.h>
#include <linux/slab.h>

/* v6.12, "netdev_features: convert NETIF_F_LLTX to dev->lltx" and
 * "netdev_features: convert NETIF_F_NETNS_LOCAL to dev->netns_local":
 * both stopped being feature bits (ethtool never could change them) and
 * became private flags of struct net_device; then "net: rename
 * netns_local to netns_immutable" (0c493da86374, v6.15-rc1; taken by the
 * stable tree in 6.12.114, which Debian's 6.12 follows: its changelog
 * lists it with ChangeLog-6.12.114, and 6.12.117's netdevice.h has it).
 * A node's netdev takes no TX lock (mf_xmit keeps per-CPU counters) and
 * never leaves its namespace.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0) || \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 114) && \
	 LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0))
#define mf_netdev_pin_netns(dev) ((dev)->netns_immutable = true)
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define mf_netdev_pin_netns(dev) ((dev)->netns_local = true)
#endif

static inline void mf_netdev_set_lltx_netns_local(struct net_device *dev)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	dev->lltx = true;
	mf_netdev_pin_netns(dev);
#else
	dev->features |= NETIF_F_LLTX | NETIF_F_NETNS_LOCAL;
#endif
}

/* v6.13, "hrtimers: Introduce hrtimer_setup() to replace hrtimer_init()":
 * initialisation and callback in one call; mainline then removed
 * hrtimer_init() ("hrtimers: Delete hrtimer_init()").  Older kernels get
 * hrtimer_setup() from hrtimer_init() and the assignment it replaced.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void
hrtimer_setup(struct hrtimer *timer,
	      enum hrtimer_restart (*function)(struct hrtimer *),
	      clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/* v6.3, "iov: add import_ubuf()": a single user buffer becomes an
 * ITER_UBUF iterator, without the struct iovec that import_single_range()
 * needed; v6.8 removed import_single_range() once nothing called it.
 * Before v6.3, import_ubuf() as upstream wrote it, from iov_iter_ubuf()
 * (v6.0).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline int import_ubuf(int rw, void __user *buf, size_t len,
			      struct iov_iter *i)
{
	if (len > MAX_RW_COUNT)
		len = MAX_RW_COUNT;
	if (unlikely(!access_ok(buf, len)))
		return -EFAULT;
	iov_iter_ubuf(i, rw, buf, len);
	return 0;
}
#endif

/* Two changes of the udp_tunnel API between 6.12 and 7.2 (both present
 * in 7.2, neither in 6.12; the release that brought each one was not
 * pinned down, v6.16 is assumed for both): udp_tunnel_xmit_skb() and
 * udp_tunnel6_xmit_skb() take the IP control block flags to set (the
 * tunnel passes none), and setup_udp_tunnel_sock() and
 * udp_tunnel_sock_release() take the struct sock instead of the struct
 * socket (the latter no longer waits for a grace period: tunnel.c waits
 * itself).  v6.1's IPv6 variant returns an
 * int nobody reads and takes a non-const source.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define mf_udp_tunnel_xmit_skb(...) udp_tunnel_xmit_skb(__VA_ARGS__, 0)
#define mf_udp_tunnel6_xmit_skb(...) udp_tunnel6_xmit_skb(__VA_ARGS__, 0)
#define mf_udp_tunnel_sock_release(sock) udp_tunnel_sock_release((sock)->sk)
#define mf_setup_udp_tunnel_sock(net, sock, cfg) \
	setup_udp_tunnel_sock(net, (sock)->sk, cfg)
#else
#define mf_udp_tunnel_xmit_skb(...) udp_tunnel_xmit_skb(__VA_ARGS__)
#define mf_udp_tunnel6_xmit_skb(...) udp_tunnel6_xmit_skb(__VA_ARGS__)
#define mf_udp_tunnel_sock_release(sock) udp_tunnel_sock_release(sock)
#define mf_setup_udp_tunnel_sock(net, sock, cfg) \
	setup_udp_tunnel_sock(net, sock, cfg)
#endif

/* v7.0, "slab: Introduce kmalloc_obj() and family" (2932ba8d9c99): the
 * allocation is sized by the object's type (kzalloc_obj(*p, gfp) for
 * kzalloc(sizeof(*p), gfp)), which 7.0's checkpatch asks for; 6.18's
 * stable tree took it too, hence the test of the macro itself.  Older
 * kernels get the one form the driver uses (without upstream's cast to
 * typeof(P) *, which checkpatch calls unnecessary).
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 0, 0) && !defined(kzalloc_obj)
#define kzalloc_obj(P, GFP) kzalloc(sizeof(P), GFP)
#endif

#endif /* MF_KCOMPAT_H */
