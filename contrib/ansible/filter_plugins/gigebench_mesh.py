# gigebench_mesh.py: the mesh playbook's schedule, as an Ansible filter.
#
#   {{ groups['gigebench'] | gigebench_mesh_rounds }}
#   {{ groups['gigebench'] | gigebench_mesh_rounds(pairs, exclusive) }}
#
# Returns a list of rounds, each a list of {"tx": sender, "rx": receiver}
# in which no host receives twice (a listener serves one test at a time)
# and, when exclusive (the default), no host is in two tests at all, so
# that a host's CPU figures are its one test's.  Every ordered pair of
# the hosts (or each pair given, as [sender, receiver] lists or
# "sender:receiver" strings) is in exactly one round.
#
# All pairs, exclusive: the circle method (a round-robin tournament),
# both directions of each round's pairs in two rounds: 2(n-1) rounds of
# n/2 tests for an even n, 2n rounds of (n-1)/2 for an odd one, the
# fewest possible.  Not exclusive: round k is every host sending to the
# host k places after it, n-1 rounds of n tests.  Given pairs: rounds
# filled greedily in the order given.

from ansible.errors import AnsibleFilterError


def _circle(hosts):
    """Rounds of unordered pairs: every pair of hosts exactly once."""
    ring = list(hosts)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for _ in range(n - 1):
        pairs = [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]
        rounds.append([p for p in pairs if None not in p])
        ring = [ring[0], ring[-1]] + ring[1:-1]
    return rounds


def _pairs(hosts, pairs):
    known = set(hosts)
    out = []
    for p in pairs:
        if isinstance(p, str):
            p = p.split(":")
        if not isinstance(p, (list, tuple)) or len(p) != 2:
            raise AnsibleFilterError(
                "gigebench_mesh_rounds: a pair is [sender, receiver] or "
                "'sender:receiver': %r" % (p,))
        tx, rx = str(p[0]), str(p[1])
        for h in (tx, rx):
            if h not in known:
                raise AnsibleFilterError(
                    "gigebench_mesh_rounds: %s is not in the group" % h)
        if tx == rx:
            raise AnsibleFilterError(
                "gigebench_mesh_rounds: a host cannot test itself: %s" % tx)
        if (tx, rx) in out:
            raise AnsibleFilterError(
                "gigebench_mesh_rounds: the pair %s:%s is given twice"
                % (tx, rx))
        out.append((tx, rx))
    return out


def _greedy(pairs, exclusive):
    rounds = []
    left = list(pairs)
    while left:
        busy_tx, busy_rx, now, later = set(), set(), [], []
        for tx, rx in left:
            if exclusive:
                free = tx not in busy_tx | busy_rx and \
                    rx not in busy_tx | busy_rx
            else:
                free = tx not in busy_tx and rx not in busy_rx
            if free:
                now.append((tx, rx))
                busy_tx.add(tx)
                busy_rx.add(rx)
            else:
                later.append((tx, rx))
        rounds.append(now)
        left = later
    return rounds


def gigebench_mesh_rounds(hosts, pairs=None, exclusive=True):
    hosts = [str(h) for h in hosts]
    if len(set(hosts)) != len(hosts):
        raise AnsibleFilterError(
            "gigebench_mesh_rounds: a host is named twice in %r" % hosts)
    if pairs:
        rounds = _greedy(_pairs(hosts, pairs), bool(exclusive))
    elif exclusive:
        half = _circle(hosts)
        rounds = half + [[(b, a) for a, b in r] for r in half]
    else:
        n = len(hosts)
        rounds = [[(hosts[i], hosts[(i + k) % n]) for i in range(n)]
                  for k in range(1, n)]
    return [[{"tx": tx, "rx": rx} for tx, rx in r] for r in rounds if r]


class FilterModule(object):
    def filters(self):
        return {"gigebench_mesh_rounds": gigebench_mesh_rounds}
