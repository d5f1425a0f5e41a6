"""gbhello.py: every member of a hello's params, as a client of this build
sends them (src/params_json.c), for the tests' hand-made hellos (the
namespace scripts cannot learn them from a real client there).

hostile.py checks these keys against a real client's hello (check-hostile,
on loopback), so that a member added to the codec but not here fails there
by name, not as a refused hello in a namespace test.
"""

PARAMS = dict(
    direction=0, buflen=16384, nbuf=0, duration_ms=2000, streams=1,
    sndbuf=0, rcvbuf=0, mss=0, nodelay=False, interval_ms=0,
    force_bufs=False, capture=False, link_mbps=0, mtu=0, cc="",
    tx_path="send", rx_path="recv", affinity="", fq_rate=0, tos=0,
    udp=False, rate_bps=0, rate_pps=0, batch=0, gso=False, gro=False,
    omit_ms=0, rr=False, crr=False, req_size=0, resp_size=0, rr_burst=0,
    rr_timeout_ms=0, bidir=False, profile=False, threads=0, probes=0,
    probe_tos=0, probe_rate=0, probe_crr=False)


def params(**over):
    """PARAMS with the members given changed."""
    d = dict(PARAMS)
    d.update(over)
    return d
