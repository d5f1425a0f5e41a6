"""The mesh playbook's schedule (contrib/ansible/filter_plugins/
gigebench_mesh.py): every ordered pair once, no receiver twice in a
round, no host twice when exclusive, the fewest rounds, and the errors
for pairs it cannot schedule.  make check-mesh runs it with Debian's
python3, which has ansible."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "contrib",
                                "ansible", "filter_plugins"))
from gigebench_mesh import gigebench_mesh_rounds as rounds  # noqa: E402
from ansible.errors import AnsibleFilterError  # noqa: E402


def pairs_of(rs):
    return [(p["tx"], p["rx"]) for r in rs for p in r]


class Rounds(unittest.TestCase):
    def test_exclusive_all_pairs(self):
        for n in range(2, 10):
            hosts = ["h%d" % i for i in range(n)]
            rs = rounds(hosts)
            got = pairs_of(rs)
            want = [(a, b) for a in hosts for b in hosts if a != b]
            self.assertEqual(sorted(got), sorted(want), n)
            for r in rs:
                ends = [p["tx"] for p in r] + [p["rx"] for p in r]
                self.assertEqual(len(ends), len(set(ends)), (n, r))
            self.assertEqual(len(rs), 2 * (n - 1) if n % 2 == 0 else 2 * n,
                             n)

    def test_shared_all_pairs(self):
        for n in range(2, 10):
            hosts = ["h%d" % i for i in range(n)]
            rs = rounds(hosts, None, False)
            self.assertEqual(len(rs), n - 1)
            self.assertEqual(len(set(pairs_of(rs))), n * (n - 1))
            for r in rs:
                self.assertEqual(sorted(p["tx"] for p in r), sorted(hosts))
                self.assertEqual(sorted(p["rx"] for p in r), sorted(hosts))

    def test_given_pairs(self):
        hosts = ["a", "b", "c", "d"]
        given = ["a:b", ["b", "a"], "c:d", "d:a", "a:c"]
        rs = rounds(hosts, given)
        self.assertEqual(sorted(pairs_of(rs)),
                         sorted([("a", "b"), ("b", "a"), ("c", "d"),
                                 ("d", "a"), ("a", "c")]))
        for r in rs:
            ends = [p["tx"] for p in r] + [p["rx"] for p in r]
            self.assertEqual(len(ends), len(set(ends)), r)
        self.assertEqual(rs[0], [{"tx": "a", "rx": "b"},
                                 {"tx": "c", "rx": "d"}])
        shared = rounds(hosts, ["a:b", "b:a", "c:a"], False)
        self.assertEqual(len(shared), 2)

    def test_refused(self):
        for bad in (["a:x"], ["a:a"], ["a:b", "a:b"], ["a-b"], [["a"]]):
            with self.assertRaises(AnsibleFilterError, msg=bad):
                rounds(["a", "b"], bad)
        with self.assertRaises(AnsibleFilterError):
            rounds(["a", "a"])


if __name__ == "__main__":
    unittest.main()
