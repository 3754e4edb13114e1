/*
 * netdev_uapi.h - the constants of the kernel's "netdev" generic-netlink
 * family (include/uapi/linux/netdev.h, Linux 6.8 for qstats).  Debian 12's
 * linux-libc-dev has no <linux/netdev.h> at all, and an older one may lack
 * the later commands; the values are kernel ABI and never change, so each
 * is defined here only when the system header did not.  Internal to
 * src/probe/.
 */
#ifndef NICDOCTOR_PROBE_NETDEV_UAPI_H
#define NICDOCTOR_PROBE_NETDEV_UAPI_H

#if defined(__has_include)
#if __has_include(<linux/netdev.h>)
#include <linux/netdev.h>
#endif
#endif

#ifndef NETDEV_FAMILY_NAME
#define NETDEV_FAMILY_NAME "netdev"
#define NETDEV_FAMILY_VERSION 1
#endif

/* enum netdev_queue_type, enum netdev_qstats_scope: defined as macros so
 * that they do not collide with the header's enums where it has them. */
#define ND_NETDEV_QUEUE_TYPE_RX 0
#define ND_NETDEV_QUEUE_TYPE_TX 1
#define ND_NETDEV_QSTATS_SCOPE_QUEUE 1

/* Commands (anonymous enum in the uapi header: DEV_GET = 1 ...). */
#define ND_NETDEV_CMD_QUEUE_GET 10
#define ND_NETDEV_CMD_NAPI_GET 11
#define ND_NETDEV_CMD_QSTATS_GET 12

/* NETDEV_A_NAPI_* */
#define ND_NETDEV_A_NAPI_IFINDEX 1
#define ND_NETDEV_A_NAPI_ID 2
#define ND_NETDEV_A_NAPI_IRQ 3
#define ND_NETDEV_A_NAPI_PID 4
#define ND_NETDEV_A_NAPI_MAX 8

/* NETDEV_A_QUEUE_* */
#define ND_NETDEV_A_QUEUE_ID 1
#define ND_NETDEV_A_QUEUE_IFINDEX 2
#define ND_NETDEV_A_QUEUE_TYPE 3
#define ND_NETDEV_A_QUEUE_NAPI_ID 4
#define ND_NETDEV_A_QUEUE_MAX 8

/* NETDEV_A_QSTATS_*: 5-7 are unused; counters are "uint" (4 or 8 bytes). */
#define ND_NETDEV_A_QSTATS_IFINDEX 1
#define ND_NETDEV_A_QSTATS_QUEUE_TYPE 2
#define ND_NETDEV_A_QSTATS_QUEUE_ID 3
#define ND_NETDEV_A_QSTATS_SCOPE 4
#define ND_NETDEV_A_QSTATS_RX_PACKETS 8
#define ND_NETDEV_A_QSTATS_RX_BYTES 9
#define ND_NETDEV_A_QSTATS_TX_PACKETS 10
#define ND_NETDEV_A_QSTATS_TX_BYTES 11
#define ND_NETDEV_A_QSTATS_RX_ALLOC_FAIL 12
#define ND_NETDEV_A_QSTATS_RX_HW_DROPS 13
#define ND_NETDEV_A_QSTATS_TX_HW_DROPS 24
#define ND_NETDEV_A_QSTATS_TX_STOP 33
#define ND_NETDEV_A_QSTATS_TX_WAKE 34
#define ND_NETDEV_A_QSTATS_MAX 40

#endif
