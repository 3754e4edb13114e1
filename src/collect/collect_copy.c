/*
 * collect_copy.c - the file half of `nicdoctor collect`: copy the live
 * /sys and /proc files the probe sources read into a snapshot directory,
 * recreating each symlink met on the way with its own (relative) target,
 * so that `--sysroot DIR` resolves the same paths to the same bytes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nicdoctor/common.h"
#include "nicdoctor/snapshot.h"
#include "nicdoctor/sysroot.h"
#include "nicdoctor/team.h"
#include "nicdoctor/sysfs_util.h"

#define COPY_MAX_LINKS 40

/* Files libpci's sysfs backend and our PCI fallback read per function. */
static const char *const pci_files[] = {
	"config", "vendor", "device", "class", "subsystem_vendor", "subsystem_device",
	"revision", "irq", "resource", "numa_node", "local_cpulist", "current_link_speed",
	"current_link_width", "max_link_speed", "max_link_width", "driver", "msi_irqs",
};

/* Copy one live regular file; unreadable ones are skipped, not fatal. */
static int copy_file(const struct nd_root *root, int dest_fd, const char *path)
{
	char *text;
	size_t len;
	int r = nd_sysroot_read_alloc(root, path, &text, &len);

	if (r < 0)
		return 0;
	r = nd_snapshot_write(dest_fd, path, text, len);
	free(text);
	return r;
}

/*
 * Recreate path below dest_fd: directories on the way, each symlink with its
 * target text (then followed in the live tree, and the walk goes on at the
 * target's own path, so nothing below dest_fd is written through a link),
 * and the file at the end.  Mirrors nd_probe_resolve so that the snapshot
 * resolves exactly as /sys does.
 */
static int replicate(const struct nd_root *root, int dest_fd, const char *path)
{
	char done[PATH_MAX] = "", pending[PATH_MAX], comp[NAME_MAX + 1];
	char target[PATH_MAX], joined[2 * PATH_MAX];
	const char *rest;
	int links = 0, r = 0, more;

	nd_strlcpy(pending, path, sizeof(pending));
	rest = pending;
	while (r == 0 && (more = nd_path_next_component(&rest, comp, sizeof(comp))) != 0) {
		struct stat st;
		ssize_t n;

		if (more < 0)
			return 0;	/* longer than any name: never there */
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			if (comp[1] == '.' && strrchr(done, '/'))
				*strrchr(done, '/') = '\0';
			continue;
		}
		if (strlen(done) + strlen(comp) + 2 >= sizeof(done))
			return -ENAMETOOLONG;
		strcat(done, "/");
		strcat(done, comp);
		if (lstat(done, &st) < 0)
			return 0;	/* gone or never there: nothing to copy */
		if (S_ISDIR(st.st_mode)) {
			r = nd_snapshot_mkdir(dest_fd, done);
		} else if (S_ISREG(st.st_mode)) {
			return *rest ? 0 : copy_file(root, dest_fd, done);
		} else if (S_ISLNK(st.st_mode) && (!strcmp(done, "/proc/net") || !strcmp(done, "/proc/self"))) {
			/* Per-process links: a snapshot holds the collector's view as a plain directory. */
			r = nd_snapshot_mkdir(dest_fd, done);
		} else if (S_ISLNK(st.st_mode)) {
			n = readlink(done, target, sizeof(target) - 1);
			if (n < 0 || ++links > COPY_MAX_LINKS)
				return 0;
			target[n] = '\0';
			r = nd_snapshot_symlink(dest_fd, done, target);
			if (target[0] == '/')
				done[0] = '\0';
			else
				*strrchr(done, '/') = '\0';
			snprintf(joined, sizeof(joined), "%s/%s", target, rest);
			nd_strlcpy(pending, joined, sizeof(pending));
			rest = pending;
		} else {
			return 0;
		}
	}
	return r;
}

/* A listed directory: its subdirectories and links; files only in msi_irqs/. */
static int replicate_listing(const struct nd_root *root, int dest_fd, const char *dir)
{
	bool copy_files = strstr(dir, "/msi_irqs") != NULL;
	struct dirent *ent;
	DIR *d;
	int r = replicate(root, dest_fd, dir);

	if (r < 0 || !strcmp(dir, "/proc"))
		return r;	/* /proc: only the comm files the probe read */
	d = nd_sysroot_opendir(root, dir);
	if (!d)
		return 0;
	while (r == 0 && (ent = readdir(d)) != NULL) {
		char child[PATH_MAX];

		if (ent->d_name[0] == '.')
			continue;
		snprintf(child, sizeof(child), "%s/%s", dir, ent->d_name);
		if (ent->d_type == DT_DIR || ent->d_type == DT_LNK || copy_files)
			r = replicate(root, dest_fd, child);
	}
	closedir(d);
	return r;
}

/* /proc/PID/comm: keep init's (marks that processes were looked at) and irqbalance's. */
static bool proc_comm_wanted(const struct nd_root *root, const char *path)
{
	char comm[32];

	if (!strcmp(path, "/proc/1/comm"))
		return true;
	return nd_sysroot_read_line(root, path, comm, sizeof(comm)) == 0 &&
	       !strcmp(comm, "irqbalance");
}

static int copy_recorded(const struct nd_root *root, int dest_fd)
{
	const char *path;
	int r = 0;

	for (size_t i = 0; r == 0 && (path = nd_sysroot_recorded(root, i)) != NULL; i++) {
		struct stat st;

		if (!strncmp(path, "/proc/", 6) && strstr(path, "/comm") &&
		    !proc_comm_wanted(root, path))
			continue;
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			r = replicate_listing(root, dest_fd, path);
		else
			r = replicate(root, dest_fd, path);
	}
	return r;
}

static int copy_pci_function(const struct nd_root *root, int dest_fd,
			     const struct nd_pcie_link *link)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	int r;

	if (!link->address[0])
		return 0;
	snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", link->address);
	r = replicate(root, dest_fd, dir);
	for (size_t i = 0; r == 0 && i < ND_ARRAY_SIZE(pci_files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pci_files[i]);
		r = !strcmp(pci_files[i], "msi_irqs") ? replicate_listing(root, dest_fd, path) :
							 replicate(root, dest_fd, path);
	}
	return r;
}

static int copy_pci(const struct nd_root *root, int dest_fd, const struct nd_pci *pci)
{
	int r = copy_pci_function(root, dest_fd, &pci->dev);

	for (unsigned i = 0; r == 0 && i < pci->n_upstream && i < ND_MAX_PCI_CHAIN; i++)
		r = copy_pci_function(root, dest_fd, &pci->upstream[i]);
	for (unsigned i = 0; r == 0 && i < pci->n_siblings && i < ND_MAX_SIBLINGS; i++)
		r = copy_pci_function(root, dest_fd, &pci->siblings[i]);
	return r;
}

/* What the sources read, in case recording was off: the fixed paths. */
static int copy_fixed(const struct nd_root *root, const char *ifname, int dest_fd,
		      const struct nd_facts *facts)
{
	static const char *const fixed[] = {
		"/proc/interrupts", "/proc/net/softnet_stat", "/proc/1/comm",
		"/proc/sys/net/core/rmem_max", "/proc/sys/net/core/wmem_max",
		"/proc/sys/net/core/netdev_max_backlog", "/proc/sys/net/core/netdev_budget",
		"/proc/sys/net/core/rps_sock_flow_entries", "/proc/sys/net/core/default_qdisc",
		"/proc/sys/net/ipv4/tcp_rmem", "/proc/sys/net/ipv4/tcp_wmem",
		"/proc/sys/net/ipv4/tcp_congestion_control", "/sys/devices/system/cpu/online",
		/* the virt facts' */
		"/proc/cpuinfo", "/sys/hypervisor/type", "/sys/class/dmi/id/sys_vendor",
		"/sys/class/dmi/id/product_name",
	};
	char path[PATH_MAX];
	int r = 0;

	for (size_t i = 0; r == 0 && i < ND_ARRAY_SIZE(fixed); i++)
		r = replicate(root, dest_fd, fixed[i]);
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	if (r == 0)
		r = replicate(root, dest_fd, path);
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	if (r == 0)
		r = replicate_listing(root, dest_fd, path);
	for (unsigned i = 0; r == 0 && i < facts->irqs.count && i < ND_MAX_IRQS; i++) {
		static const char *const files[] = {
			"smp_affinity_list", "effective_affinity_list", "affinity_hint",
		};

		for (size_t f = 0; r == 0 && f < ND_ARRAY_SIZE(files); f++) {
			snprintf(path, sizeof(path), "/proc/irq/%u/%s", facts->irqs.irq[i].irq, files[f]);
			r = replicate(root, dest_fd, path);
		}
	}
	return r;
}

/* Each member's files, /sys/class/net/MEMBER/FILE, as they resolve live. */
static int copy_members(const struct nd_root *root, int dest_fd, const struct nd_bond *b,
			const char *const *files,
			size_t n_files)
{
	char path[PATH_MAX];
	int r = 0;

	for (unsigned m = 0; r == 0 && m < b->n_members && m < ND_MAX_BOND_MEMBERS; m++)
		for (size_t i = 0; r == 0 && i < n_files; i++) {
			snprintf(path, sizeof(path), "/sys/class/net/%s/%s", b->members[m].name,
				 files[i]);
			r = replicate(root, dest_fd, path);
		}
	return r;
}

/* A bond's files, whichever source the probe used live (netlink leaves
 * no file read behind): /proc/net/bonding/IF as sosreport copies it, the
 * master's bonding/ attributes, each member's bonding_slave/ and link
 * files (bonding.rst section 3.4; bond_sysfs_slave.c). */
static int copy_bond(const struct nd_root *root, const char *ifname, int dest_fd,
		     const struct nd_bond *bond)
{
	static const char *const master[] = {
		"mode", "xmit_hash_policy", "slaves", "miimon", "arp_interval", "active_slave",
		"primary", "mii_status", "lacp_rate", "lacp_active", "ad_select", "min_links",
		"ad_aggregator", "ad_num_ports", "ad_actor_key", "ad_partner_key",
		"ad_partner_mac", "updelay", "downdelay", "use_carrier", "all_slaves_active",
		"fail_over_mac", "tlb_dynamic_lb", "packets_per_slave",
	};
	static const char *const slave[] = {
		"bonding_slave/state", "bonding_slave/mii_status",
		"bonding_slave/link_failure_count", "bonding_slave/perm_hwaddr",
		"bonding_slave/queue_id", "bonding_slave/ad_aggregator_id",
		"bonding_slave/ad_actor_oper_port_state", "bonding_slave/ad_partner_oper_port_state",
		"speed", "duplex", "operstate", "carrier", "mtu", "master",
		"statistics/tx_bytes", "statistics/rx_bytes",
	};
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "/proc/net/bonding/%s", ifname);
	r = replicate(root, dest_fd, path);
	if (r == 0)
		r = replicate(root, dest_fd, "/sys/class/net/bonding_masters");
	for (size_t i = 0; r == 0 && i < ND_ARRAY_SIZE(master); i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/%s", ifname, master[i]);
		r = replicate(root, dest_fd, path);
	}
	return r ? r : copy_members(root, dest_fd, bond, slave, ND_ARRAY_SIZE(slave));
}

/* A team: teamd's view where diagnose --sysroot reads it, as sosreport's
 * teamd plugin keeps it (sos_commands/teamd/teamdctl_IF_WHAT_dump; the
 * kernel's team driver holds no runner or hash to copy), and each port's
 * link files.  Without teamdctl nothing of teamd's is written. */
static int copy_team(const struct nd_root *root, const char *ifname, int dest_fd,
		     const struct nd_bond *team)
{
	static const char *const what[] = { "state", "config" };
	static const char *const port[] = {
		"speed", "duplex", "operstate", "carrier", "mtu", "master",
		"statistics/tx_bytes", "statistics/rx_bytes",
	};
	char path[PATH_MAX], *text;
	size_t len;
	int r = 0;

	for (size_t i = 0; r == 0 && i < ND_ARRAY_SIZE(what); i++) {
		if (nd_team_dump(ifname, what[i], &text, &len) < 0)
			continue;
		snprintf(path, sizeof(path), "/sos_commands/teamd/teamdctl_%s_%s_dump", ifname,
			 what[i]);
		r = nd_snapshot_mkdir(dest_fd, "/sos_commands");
		if (r == 0)
			r = nd_snapshot_mkdir(dest_fd, "/sos_commands/teamd");
		if (r == 0)
			r = nd_snapshot_write(dest_fd, path, text, len);
		free(text);
	}
	return r ? r : copy_members(root, dest_fd, team, port, ND_ARRAY_SIZE(port));
}

/* A stacked device's kind and its lowers as nd_probe_stack reads them:
 * uevent (DEVTYPE) and the lower_* adjacency links. */
static int copy_stack(const struct nd_root *root, const char *ifname, int dest_fd,
		      const struct nd_stack *stack)
{
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "/sys/class/net/%s/uevent", ifname);
	r = replicate(root, dest_fd, path);
	for (unsigned i = 0; r == 0 && stack->st.known && i < stack->n_lowers; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/lower_%s", ifname,
			 stack->lowers[i]);
		r = replicate(root, dest_fd, path);
	}
	return r;
}

static int write_tools(int dest_fd, const struct nd_facts *facts)
{
	char line[64];
	int r;

	if (!facts->tools.iperf3.known)
		return 0;
	r = nd_snapshot_mkdir(dest_fd, "/tools");
	if (r < 0)
		return r;
	snprintf(line, sizeof(line), "iperf %s\n", facts->tools.iperf3_version);
	return nd_snapshot_write(dest_fd, "/tools/iperf3-version", line, strlen(line));
}

int nd_snapshot_copy_sysfs(const struct nd_root *root, const char *ifname, int dest_fd,
			   const struct nd_facts *facts)
{
	int r;

	if (!nd_sysroot_is_live(root))
		return -EINVAL;		/* a snapshot is taken of the live system only */
	r = copy_recorded(root, dest_fd);
	if (r == 0)
		r = copy_fixed(root, ifname, dest_fd, facts);
	if (r == 0)
		r = copy_pci(root, dest_fd, &facts->pci);
	if (r == 0 && facts->bond.is_team)
		r = copy_team(root, ifname, dest_fd, &facts->bond);
	else if (r == 0 && facts->bond.is_bond)
		r = copy_bond(root, ifname, dest_fd, &facts->bond);
	if (r == 0)
		r = copy_stack(root, ifname, dest_fd, &facts->stack);
	if (r == 0)
		r = write_tools(dest_fd, facts);
	return r;
}
