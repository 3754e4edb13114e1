/*
 * ceiling.c - the ceiling model (DESIGN.md): wire goodput, PCIe, window.
 */
#include "nicdoctor/ceiling.h"

double nd_ceiling_wire_mbps(double speed_mbps, unsigned mtu, enum nd_l4 l4)
{
	unsigned headers = l4 == ND_L4_UDP ? ND_UDP_IPV4_HEADERS : ND_TCP_IPV4_TS_HEADERS;

	if (speed_mbps <= 0 || mtu <= headers)
		return -1;
	return speed_mbps * (double)(mtu - headers) / (double)(mtu + ND_ETH_WIRE_OVERHEAD);
}

double nd_ceiling_wire_encap_mbps(double speed_mbps, unsigned mtu, unsigned encap_bytes,
				  enum nd_l4 l4)
{
	unsigned headers = l4 == ND_L4_UDP ? ND_UDP_IPV4_HEADERS : ND_TCP_IPV4_TS_HEADERS;

	if (speed_mbps <= 0 || mtu <= headers)
		return -1;
	return speed_mbps * (double)(mtu - headers) /
	       (double)(mtu + encap_bytes + ND_ETH_WIRE_OVERHEAD);
}

double nd_pcie_lane_gbps(double gts)
{
	/* Gen1/Gen2 use 8b/10b coding; Gen3 to Gen5 128b/130b.  Gen6 (64 GT/s)
	 * uses PAM4 with FLIT mode: 242/256 data bytes after FEC and CRC. */
	if (gts <= 0)
		return 0;
	if (gts <= 5.0)
		return gts * 8.0 / 10.0;
	if (gts <= 32.0)
		return gts * 128.0 / 130.0;
	return gts * 242.0 / 256.0;
}

double nd_ceiling_pcie_mbps(double gts, unsigned width, unsigned mps_bytes)
{
	double lane = nd_pcie_lane_gbps(gts);

	if (lane <= 0 || width == 0)
		return -1;
	if (mps_bytes == 0)
		mps_bytes = 128;
	return (double)width * lane * 1000.0 *
	       (double)mps_bytes / (double)(mps_bytes + ND_PCIE_TLP_OVERHEAD);
}

double nd_ceiling_window_mbps(double window_bytes, double rtt_usec)
{
	if (window_bytes <= 0 || rtt_usec <= 0)
		return -1;
	return window_bytes * 8.0 / rtt_usec;	/* bits per microsecond = Mbit/s */
}
