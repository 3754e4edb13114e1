/*
 * ceiling.h - the ceiling model of DESIGN.md: the most throughput a cause
 * allows, in Mbit/s.  Pure arithmetic, unit tested against the field cases.
 */
#ifndef NICDOCTOR_CEILING_H
#define NICDOCTOR_CEILING_H


enum nd_l4 { ND_L4_TCP, ND_L4_UDP };

/* Ethernet per-frame overhead on the wire: header 14 + FCS 4 + preamble 8 + gap 12. */
#define ND_ETH_WIRE_OVERHEAD 38
/* TCP/IPv4 headers with timestamps: IP 20 + TCP 20 + options 12. */
#define ND_TCP_IPV4_TS_HEADERS 52
/* UDP/IPv4 headers: IP 20 + UDP 8. */
#define ND_UDP_IPV4_HEADERS 28
/* PCIe per-TLP overhead in bytes: header, sequence, LCRC, framing. */
#define ND_PCIE_TLP_OVERHEAD 24

/* speed x payload / (MTU + 38).  Returns <0 when the inputs are unknown. */
double nd_ceiling_wire_mbps(double speed_mbps, unsigned mtu, enum nd_l4 l4);

/* speed x payload / (MTU + encap + 38): the inner MTU's goodput on the
 * lower's wire when each frame carries encap bytes more; <0 unknown. */
double nd_ceiling_wire_encap_mbps(double speed_mbps, unsigned mtu, unsigned encap_bytes,
				  enum nd_l4 l4);

/* Per-lane data rate after line coding, Gbit/s; 0 for an unknown rate. */
double nd_pcie_lane_gbps(double gts);

/* lanes x lane rate x MPS/(MPS+24), in Mbit/s; <0 when unknown.
 * An unknown MPS (0) is taken as 128 bytes, the smallest and most common. */
double nd_ceiling_pcie_mbps(double gts, unsigned width, unsigned mps_bytes);

/* window / RTT in Mbit/s. */
double nd_ceiling_window_mbps(double window_bytes, double rtt_usec);

#endif
