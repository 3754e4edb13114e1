/*
 * virt_text.c - what names a hypervisor: DMI system vendor and product
 * (sysfs or dmidecode), lscpu's "Hypervisor vendor", /proc/cpuinfo's
 * CPUID "hypervisor" flag (Intel SDM and AMD APM: CPUID.1:ECX bit 31,
 * reserved for hypervisors to set).  Pure; see virt.h.
 */
#include <errno.h>
#include <string.h>

#include "nicdoctor/text_util.h"
#include "nicdoctor/virt.h"

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool ends(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

const char *nd_virt_kind_of_dmi(const char *sys_vendor, const char *product)
{
	/* The names the hypervisors' firmware writes (QEMU's SeaBIOS/OVMF
	 * "QEMU" and "Standard PC (...)"; a RHEL or OpenStack host sets
	 * "Red Hat"/"OpenStack Foundation" and "KVM"; the clouds their own). */
	static const struct {
		const char *vendor, *kind;
	} vendors[] = {
		{ "QEMU", "qemu" }, { "Red Hat", "qemu" }, { "OpenStack Foundation", "qemu" },
		{ "VMware", "vmware" }, { "innotek GmbH", "virtualbox" }, { "Xen", "xen" },
		{ "Google", "gce" },
	};

	if (starts(sys_vendor, "Amazon EC2"))
		/* A .metal instance is the bare machine. */
		return ends(product, ".metal") ? "none" : "aws";
	if (starts(sys_vendor, "Microsoft Corporation"))
		/* Surface and Xbox hardware share the vendor; Hyper-V's guests
		 * (and Azure's) are all "Virtual Machine". */
		return !strcmp(product, "Virtual Machine") ? "hyperv" : "none";
	for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++)
		if (starts(sys_vendor, vendors[i].vendor))
			return vendors[i].kind;
	if (!strcmp(product, "KVM") || starts(product, "Standard PC (") || starts(product, "Bochs"))
		return "qemu";
	if (!strcmp(product, "VirtualBox"))
		return "virtualbox";
	if (starts(product, "HVM domU"))
		return "xen";
	return "none";
}

const char *nd_virt_kind_of_hypervisor(const char *name)
{
	static const struct {
		const char *name, *kind;
	} names[] = {
		{ "KVM", "qemu" }, { "Microsoft", "hyperv" }, { "VMware", "vmware" },
		{ "Xen", "xen" }, { "xen", "xen" }, { "Oracle", "virtualbox" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (starts(name, names[i].name))
			return names[i].kind;
	return "unknown";
}

int nd_parse_dmidecode_system(const char *text, size_t len, char *vendor, size_t vendor_size,
			      char *product, size_t product_size)
{
	struct nd_cursor c;
	struct nd_span line, key, val;
	bool in_system = false, found = false;

	vendor[0] = product[0] = '\0';
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		struct nd_span t = nd_span_trim(line);

		/* A section title sits at column 0; its fields are indented. */
		if (line.len && line.p[0] != '\t' && line.p[0] != ' ') {
			in_system = nd_span_eq(t, "System Information");
			found |= in_system;
			continue;
		}
		if (!in_system || !nd_span_kv(t, &key, &val))
			continue;
		if (nd_span_eq(key, "Manufacturer") && !vendor[0])
			nd_span_copy(val, vendor, vendor_size);
		else if (nd_span_eq(key, "Product Name") && !product[0])
			nd_span_copy(val, product, product_size);
	}
	return found ? 0 : -EINVAL;
}

int nd_parse_lscpu_hypervisor(const char *text, size_t len, char *buf, size_t size)
{
	struct nd_cursor c;
	struct nd_span line, key, val;

	buf[0] = '\0';
	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line))
		if (nd_span_kv(line, &key, &val) && nd_span_eq(key, "Hypervisor vendor") &&
		    val.len) {
			nd_span_copy(val, buf, size);
			return 0;
		}
	return -ENOENT;
}

int nd_parse_cpuinfo_hypervisor(const char *text, size_t len)
{
	struct nd_cursor c;
	struct nd_span line, key, val, tok;
	bool flags_seen = false;

	nd_cursor_init(&c, text, len);
	while (nd_next_line(&c, &line)) {
		size_t pos = 0;

		if (!nd_span_kv(line, &key, &val) || !nd_span_eq(key, "flags"))
			continue;
		flags_seen = true;
		while (nd_span_token(val, &pos, &tok))
			if (nd_span_eq(tok, "hypervisor"))
				return 1;
	}
	return flags_seen ? 0 : -EINVAL;
}
