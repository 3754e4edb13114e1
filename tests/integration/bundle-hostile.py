#!/usr/bin/env python3
"""Write hostile support-bundle tarballs for t5007: bundle-hostile.py KIND OUT [ARG].

Each tarball wraps a real fixture tree (tests/fixtures/downgraded-x1) in a
sosreport-like top directory and adds the hostile members of KIND."""
import io
import os
import sys
import tarfile

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "fixtures", "downgraded-x1")


def add_bytes(tar, name, data, **kw):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    for k, v in kw.items():
        setattr(info, k, v)
    tar.addfile(info, io.BytesIO(data))


def add_special(tar, name, kind, target=""):
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    tar.addfile(info)


class Zeros(io.RawIOBase):
    def __init__(self, n):
        self.left = n

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.left)
        b[:n] = bytes(n)
        self.left -= n
        return n


def add_zeros(tar, name, size):
    info = tarfile.TarInfo(name)
    info.size = size
    tar.addfile(info, io.BufferedReader(Zeros(size)))


def main():
    kind, out = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else ""
    fast = kind in ("bomb", "slow")
    with tarfile.open(out, "w:gz", compresslevel=1) if fast else tarfile.open(out, "w:xz") as tar:
        tar.add(FIXTURE, arcname="snap")
        if kind == "dotdot":
            add_bytes(tar, "snap/../../" + arg, b"written by a hostile bundle\n")
        elif kind == "absolute":
            add_bytes(tar, arg, b"written by a hostile bundle\n")
        elif kind == "link-out":
            # a link to a file outside, then a write through a link
            add_special(tar, "snap/proc/softirqs", tarfile.SYMTYPE, arg)
            add_special(tar, "snap/sys/escape", tarfile.SYMTYPE, os.path.dirname(arg))
            add_bytes(tar, "snap/sys/escape/" + os.path.basename(arg) + ".new", b"x\n")
            add_special(tar, "snap/proc/uptime", tarfile.SYMTYPE, "../../../../../../" + arg)
        elif kind == "special":
            add_special(tar, "snap/proc/net/dev", tarfile.FIFOTYPE)
            add_special(tar, "snap/proc/sys/net/core/rmem_max", tarfile.CHRTYPE)
            add_special(tar, "snap/proc/sys/net/core/hardlink", tarfile.LNKTYPE, "snap/proc/interrupts")
        elif kind == "big-member":
            add_zeros(tar, "snap/proc/net/snmp", 40 << 20)
        elif kind == "slow":
            # long to decompress, nothing of it extracted: a window to kill in
            add_zeros(tar, "snap/var/log/journal.bin", 768 << 20)
        elif kind == "bomb":
            for i in range(17):
                add_zeros(tar, "snap/sos_strings/networking/out%d.tailed" % i, 31 << 20)


if __name__ == "__main__":
    main()
