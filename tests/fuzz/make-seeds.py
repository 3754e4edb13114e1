#!/usr/bin/env python3
"""make-seeds.py - (re)write the seed corpora in tests/fuzz/corpus/ from the
fixtures (real captures) and a few hand-made protocol messages.  Run from
anywhere; the seeds are committed, so this is only needed to change them."""
import glob
import json
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
FIX = os.path.join(SRC, "tests", "fixtures")


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def copy_files(target, pattern, prefix):
    for i, path in enumerate(sorted(glob.glob(os.path.join(FIX, pattern)))):
        with open(path, "rb") as f:
            put(target, "%s-%d" % (prefix, i), f.read())


def msg(state, obj=None, raw=None):
    out = struct.pack("b", state)
    if obj is not None:
        raw = json.dumps(obj, separators=(",", ":")).encode()
    if raw is not None:
        out += struct.pack(">I", len(raw)) + raw
    return out


PARAMS_312 = {"tcp": True, "omit": 0, "time": 10, "num": 0, "blockcount": 0,
              "parallel": 1, "len": 131072, "pacing_timer": 1000,
              "client_version": "3.12"}
PARAMS_UDP = {"udp": True, "omit": 0, "time": 1, "num": 0, "blockcount": 0,
              "parallel": 2, "len": 1460, "bandwidth": 1048576, "pacing_timer": 1000,
              "udp_counters_64bit": 1, "reverse": True, "get_server_output": 1,
              "congestion": "cubic", "title": "t"}
RESULTS = {"cpu_util_total": 1.5, "cpu_util_user": 0.5, "cpu_util_system": 1.0,
           "sender_has_retransmits": 18446744073709551615, "congestion_used": "cubic",
           "streams": [{"id": 1, "bytes": 1234567, "retransmits": 18446744073709551615,
                        "jitter": 1.4586402877734216e-05, "errors": 0, "omitted_errors": 0,
                        "packets": 42, "omitted_packets": 0, "start_time": 0,
                        "end_time": 10.000047},
                       {"id": 3, "bytes": 7, "retransmits": 3, "jitter": 0, "errors": 1,
                        "packets": 2, "start_time": 0, "end_time": 1}],
           "server_output_text": "hello\n", "server_output_json": {"start": {}}}


def proto():
    put("fuzz_proto", "params-3.12", msg(9, PARAMS_312))
    put("fuzz_proto", "params-udp", msg(9, PARAMS_UDP))
    put("fuzz_proto", "params-wrong-types",
        msg(9, {"tcp": True, "time": "10", "parallel": [1], "len": None, "title": 5}))
    put("fuzz_proto", "params-parallel-100000", msg(9, dict(PARAMS_312, parallel=100000)))
    put("fuzz_proto", "params-len0", msg(9, raw=b""))
    put("fuzz_proto", "params-len8193", struct.pack("b", 9) + struct.pack(">I", 8193))
    put("fuzz_proto", "params-lenmax", struct.pack("b", 9) + struct.pack(">I", 0xFFFFFFFF))
    put("fuzz_proto", "results", msg(13, RESULTS))
    put("fuzz_proto", "results-udp", msg(14, RESULTS))
    put("fuzz_proto", "results-bad-streams",
        msg(13, {"streams": [5, {"id": 99}, {"id": "1"}]}))
    put("fuzz_proto", "server-error", struct.pack(">bii", -2, 142, 0))
    put("fuzz_proto", "full-session",
        msg(9, PARAMS_312) + bytes([10, 1, 2]) + msg(13, RESULTS) + bytes([14, 16]))


def udp():
    def dgram(sec, usec, seq, wide):
        hdr = struct.pack(">II", sec, usec)
        hdr += struct.pack(">Q", seq) if wide else struct.pack(">I", seq)
        return struct.pack(">H", len(hdr) + 4) + hdr + b"\0" * 4
    seqs = [1, 2, 3, 5, 4, 4, 9, 8, 2**32 - 1, 2**32]
    put("fuzz_udp", "in-order-32", b"".join(dgram(1700000000, i, i, False) for i in range(1, 9)))
    put("fuzz_udp", "loss-ooo-64", b"".join(dgram(1700000000 + s % 3, 999999, s, True)
                                            for s in seqs))
    put("fuzz_udp", "short", struct.pack(">H", 3) + b"abc")


def interrupts_wide(n_cpus, n_irqs):
    """/proc/interrupts of an n_cpus host as kernel/irq/proc.c prints it:
    every line over 11 bytes a CPU, far past any small line buffer."""
    out = " " * 11 + "".join("CPU%-8d" % c for c in range(n_cpus)) + "\n"
    for q in range(n_irqs):
        out += "%3d: " % (100 + q) + "".join(
            "%10u " % ((1000 + q) if c == n_cpus - 1 - q else 0) for c in range(n_cpus))
        out += " IR-PCI-MSIX-0000:01:00.0 %d-edge      eth0-TxRx-%d\n" % (q + 1, q)
    return out



def bond_netlink():
    """RTM_NEWLINK messages as a bonding kernel sends them (uapi
    linux/if_link.h numbers): the master bond0 (ifindex 2) with
    IFLA_BOND_* and AD_INFO, and a member with IFLA_BOND_SLAVE_*."""
    def attr(kind, payload):
        a = struct.pack("=HH", 4 + len(payload), kind) + payload
        return a + b"\0" * (-len(a) % 4)

    def link(index, name, attrs):
        body = struct.pack("=BxHiII", 0, 1, index, 0, 0) + attr(3, name + b"\0") + attrs
        return struct.pack("=IHHII", 16 + len(body), 16, 2, 1, 0) + body

    ad = attr(23, attr(1, struct.pack("=H", 1)) + attr(2, struct.pack("=H", 2)) +
              attr(5, bytes.fromhex("525400123456")))
    data = (attr(1, b"\x04") + attr(2, struct.pack("=I", 3)) + attr(3, struct.pack("=I", 100)) +
            attr(14, b"\x01") + attr(21, b"\x01") + ad)
    put("fuzz_bonding", "netlink-master",
        link(2, b"bond0", attr(18, attr(1, b"bond\0") + attr(2, data))))
    slave = (attr(1, b"\x00") + attr(2, b"\x00") + attr(6, struct.pack("=H", 1)) +
             attr(7, b"\x3d") + attr(8, struct.pack("=H", 61)))
    put("fuzz_bonding", "netlink-member",
        link(3, b"ens1f0", attr(10, struct.pack("=I", 2)) +
             attr(18, attr(4, b"bond\0") + attr(5, slave))))

def parsers():
    copy_files("fuzz_interrupts", "*/proc/interrupts", "fixture")
    copy_files("fuzz_interrupts", "raw/interrupts-*.txt", "raw")
    put("fuzz_interrupts", "long-1024cpu", interrupts_wide(1024, 4))
    copy_files("fuzz_softnet", "*/proc/net/softnet_stat", "fixture")
    copy_files("fuzz_softnet", "raw/softnet_stat-*.txt", "raw")
    for i, text in enumerate(["0-3,8,10-11\n", "0\n", "", "0-1023", "5-2", "1,,2",
                              "00000000,0000000f\n", "ff,ffffffff", "1", "f" * 260]):
        put("fuzz_cpuset", "seed-%d" % i, text)
    for pattern in ("raw/sos42-ethtool_*", "raw/ethtool-*.txt"):
        copy_files("fuzz_ethtool_text", pattern, "sos" if "sos42" in pattern else "mail")
    # ethtool IF with the link partner's modes, pause and autoneg lines
    copy_files("fuzz_ethtool_text", "blind/raw/openwrt-*.txt", "blind")
    copy_files("fuzz_lspci_text", "raw/*lspci*", "raw")
    # LnkCap/LnkCtl/DevCap ASPM fields (lspci_aspm.c)
    copy_files("fuzz_lspci_text", "raw/lspci-*aspm*", "aspm")
    copy_files("fuzz_iplink_text", "raw/*ip_-*", "raw")
    copy_files("fuzz_tc_text", "raw/*tc_-s*", "raw")
    copy_files("fuzz_records", "raw/dmesg-*.txt", "dmesg")
    copy_files("fuzz_records", "raw/syslog-*.txt", "syslog")
    copy_files("fuzz_records", "blind/raw/*dmesg*.txt", "blind")
    copy_files("fuzz_records", "raw/dpkg_-l-*.txt", "dpkg")
    copy_files("fuzz_records", "raw/rpm-*.txt", "rpm")
    copy_files("fuzz_bonding", "raw/bonding-*.txt", "raw")
    bond_netlink()
    copy_files("fuzz_teamd", "team-*/sos_commands/teamd/*", "fixture")
    copy_files("fuzz_sysctl_text", "raw/*sysctl_-a*", "sysctl")
    copy_files("fuzz_sysctl_text", "raw/*lscpu*", "lscpu")
    copy_files("fuzz_virt_text", "raw/dmidecode-*", "dmidecode")
    copy_files("fuzz_virt_text", "raw/cpuinfo-*", "cpuinfo")
    copy_files("fuzz_virt_text", "raw/*lscpu*", "lscpu")
    put("fuzz_tc_text", "tbf", "qdisc tbf 10: dev eth0 root rate 500Mbit burst 64Kb lat 20.0ms\n"
        "class htb 1:1 root rate 100Mbit ceil 200Mbit burst 1600b cburst 1600b\n")
    put("fuzz_supportconfig", "network", "#==[ Command ]====#\n# /usr/sbin/ethtool -l eth0\n"
        "Channel parameters for eth0:\nPre-set maximums:\nCombined:\t63\n"
        "Current hardware settings:\nCombined:\t8\n\n#==[ Configuration File ]===#\n"
        "# /proc/interrupts - Last 5 Lines\nCPU0\n#==[ Log File ]==#\n# /x - File not found\n")
    for i, raw in enumerate([b"\x1b[2Jwiped", b"\x1b]52;c;ZXZpbA==\x07", b"\xc2\x9b31m\x9b",
                             b"host\xff", b"\xc0\xaf\xe0\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80",
                             b"cut \xe2\x82", b"h\xc3\xb4te \xe2\x82\xac \xf0\x9f\x98\x80\n\t\r"]):
        put("fuzz_sanitize", "seed-%d" % i, raw)
    copy_files("fuzz_snapshot", "*/ethtool/*.json", "fixture")
    put("fuzz_snapshot", "unknown-groups",
        json.dumps({"schema": "nicdoctor.netlink/1",
                    "link": {"known": False, "reason": "x"}, "rss": {"known": 1}}))


def auth():
    """fuzz_auth: byte 0 picks a users file (0), a token (1), a plaintext (2)."""
    import base64
    import hashlib
    h = hashlib.sha256(b"{alice}secret").hexdigest()
    put("fuzz_auth", "users", "\0# name,sha256({name}password)\n\nbob,%s\r\nalice,%s\n"
        % (hashlib.sha256(b"{bob}hunter2").hexdigest(), h))
    put("fuzz_auth", "users-odd", "\0,,alice,%s,extra\nalice,\n#alice,%s\nalice" % (h, h))
    put("fuzz_auth", "token-random", "\1" + base64.b64encode(bytes(range(256))).decode())
    put("fuzz_auth", "token-bad", "\1QUFB=Q==")
    put("fuzz_auth", "plain-ok", "\2user: alice\npwd:  secret\nts:   1700000000")
    put("fuzz_auth", "plain-odd", "\2user: \npwd:  x\nts:   -9223372036854775808 trailing")


def shell():
    """fuzz_shell: every fix command the golden reports hold, and edges."""
    seen = set()
    for path in sorted(glob.glob(os.path.join(SRC, "tests", "golden", "*", "*.json"))):
        text = open(path).read().rsplit("\n# exit", 1)[0]
        for f in json.loads(text)["findings"]:
            for cmd in ((f.get("fix") or {}).get("commands") or []):
                seen.add(cmd)
    for i, cmd in enumerate(sorted(seen)):
        put("fuzz_shell", "golden-%03d" % i, cmd)
    put("fuzz_shell", "trailing-comment", "echo 1 > /sys/bus/pci/rescan # and \"quote 'open")
    put("fuzz_shell", "backslash-end", "a\\")
    put("fuzz_shell", "long-word", "x" * 120 + " y")


if __name__ == "__main__":
    shell()
    proto()
    udp()
    parsers()
    auth()
