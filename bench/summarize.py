#!/usr/bin/env python3
"""bench/summarize.py - reads the runs bench/run.sh made and prints the table.

	summarize.py [--json FILE] WORKDIR	the table, targets, optional JSON
	summarize.py --one RUNDIR		one run's figures on one line

WORKDIR holds "machine" (key=value lines), "cases" (case, bed, tool,
length, streams, run key, and the data path mode: copy, Z, sendfile,
skiprx, splice or sendfile+skiprx; tab-separated) and runs/NNNN/ with meta,
client.out, server.out, client.cpu and server.cpu (from bench/cpuwrap).

Each tool's throughput is the one it reports itself (iperf3 and nuttcp:
the receiver's; iperf 2: the sum of its streams; bareloop: the receiver's).
CPU seconds per GB is cpuwrap's cpu_s of the sender (the client) and of
the receiver (the server) over the bytes the tool reports, GB = 2^30
bytes.  "host" is the CPU time of the whole host over the client's run
(/proc/stat: user, nice, system, irq and softirq of all CPUs, read before
and after it) over the same bytes: what moving them cost, whichever
process or context the kernel charged it to.  A case's figure for a tool
is the median over its rounds, and a ratio is gigebench's median over the
peer's.  Exit status 1 if any run
failed or gave no figure, so that a smoke round proves every tool ran.
"""
import json
import os
import re
import statistics
import sys

GB = float(1 << 30)
PEERS = ("iperf3", "nuttcp", "iperf")
RATIO_KEYS = ('mbps', 'snd', 'rcv', 'sum', 'host')
# The targets (issue 5), as (what, ratio, bound).
TARGET_DEFAULT_PEER = 1.05
TARGET_DEFAULT_BARE = 0.97
TARGET_MATCHED_MBPS = 1.00
TARGET_MATCHED_CPU = 0.95


def kv_file(path):
    """Lines of key=value (the value may hold spaces and '=')."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                k, sep, v = line.rstrip('\n').partition('=')
                if sep:
                    out.setdefault(k, v)
    except OSError:
        pass
    return out


def cpu_file(path):
    """cpuwrap's one line of key=value pairs."""
    try:
        with open(path) as f:
            return dict(p.split('=', 1) for p in f.read().split() if '=' in p)
    except OSError:
        return None


def read_text(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except OSError:
        return ''


def host_busy_ticks(path):
    """The first line of /proc/stat: user + nice + system + irq + softirq
    of all CPUs, in clock ticks; None if the file is missing."""
    f = read_text(path).split()
    if len(f) < 8 or f[0] != 'cpu':
        return None
    user, nice, system, _idle, _iowait, irq, softirq = map(int, f[1:8])
    return user + nice + system + irq + softirq


def parse_gigebench(d):
    j = json.loads(read_text(os.path.join(d, 'client.out')))
    r = j.get('result')
    if not isinstance(r, dict) or 'error' in j:
        raise ValueError('gigebench: %s' % j.get('error', 'no result'))
    return float(r['mbps']), int(r['bytes'])


def gigebench_path(d):
    """The data paths gigebench says it used: "send/recv", "zerocopy
    (N of M copied)/recv", ...; None for the other tools."""
    try:
        r = json.loads(read_text(os.path.join(d, 'client.out')))['result']
        snd, rcv = r['sender'], r['receiver']
        tx = snd['data_path']
        zc = snd.get('zerocopy')
        if isinstance(zc, dict):
            tx += ' (%d of %d copied)' % (zc['copied'], zc['completions'])
        return '%s/%s' % (tx, rcv['data_path'])
    except (ValueError, KeyError, TypeError):
        return None


def parse_iperf3(d):
    j = json.loads(read_text(os.path.join(d, 'client.out')))
    if 'error' in j:
        raise ValueError('iperf3: %s' % j['error'])
    s = j['end']['sum_received']
    return s['bits_per_second'] / 1e6, int(s['bytes'])


def parse_nuttcp(d):
    t = read_text(os.path.join(d, 'client.out'))
    mb = re.search(r'megabytes=([\d.]+)', t)
    rate = re.search(r'rate_Mbps=([\d.]+)', t)
    if not mb or not rate:
        raise ValueError('nuttcp: no megabytes= and rate_Mbps= in its output')
    return float(rate.group(1)), int(float(mb.group(1)) * (1 << 20))


def parse_iperf(d):
    """iperf -y C: time,src,sport,dst,dport,id,interval,bytes,bits/s."""
    nbytes, bps, n = 0, 0.0, 0
    for line in read_text(os.path.join(d, 'client.out')).splitlines():
        f = line.strip().split(',')
        if len(f) < 9 or f[5] == '-1':	# -1: a sum line, if one is printed
            continue
        nbytes += int(f[7])
        bps += float(f[8])
        n += 1
    if n == 0:
        raise ValueError('iperf: no CSV result line')
    return bps / 1e6, nbytes


def parse_bare(d):
    m = re.search(r'bareloop-r: bytes=(\d+) seconds=[\d.]+ mbps=([\d.]+)',
                  read_text(os.path.join(d, 'server.out')))
    if not m:
        raise ValueError('bareloop: no receiver line')
    return float(m.group(2)), int(m.group(1))


PARSERS = {'gigebench': parse_gigebench, 'iperf3': parse_iperf3,
           'nuttcp': parse_nuttcp, 'iperf': parse_iperf, 'bare': parse_bare}


# UDP (issue 15): each parser gives the datagrams sent and received, the
# received payload bytes and the receiver's seconds, as the tool reports
# them.

def udp_gigebench(d):
    j = json.loads(read_text(os.path.join(d, 'client.out')))
    r = j.get('result')
    if not isinstance(r, dict) or 'error' in j:
        raise ValueError('gigebench: %s' % j.get('error', 'no result'))
    u, rx = r['udp'], r['receiver']
    return {'sent': int(u['sent']), 'received': int(u['received']),
            'rx_bytes': int(rx['bytes']), 'seconds': float(rx['seconds'])}


def udp_iperf3(d):
    """iperf3 -u -J: end.sum holds the datagrams the sender sent
    ("packets") and the receiver's count of the lost ones."""
    j = json.loads(read_text(os.path.join(d, 'client.out')))
    if 'error' in j:
        raise ValueError('iperf3: %s' % j['error'])
    s = j['end']['sum']
    sent, lost = int(s['packets']), int(s['lost_packets'])
    length = int(j['start']['test_start']['blksize'])
    return {'sent': sent, 'received': sent - lost,
            'rx_bytes': (sent - lost) * length, 'seconds': float(s['seconds'])}


def udp_nuttcp(d):
    """nuttcp -u -fparse: megabytes= received, real_seconds=, and
    drop= of pkt= (pkt: the datagrams the receiver saw plus the ones it
    found missing, that is the ones sent)."""
    t = read_text(os.path.join(d, 'client.out'))
    f = dict(re.findall(r'(\w+)=([-\d.]+)', t))
    try:
        pkt, drop = int(f['pkt']), int(f['drop'])
        mb, secs = float(f['megabytes']), float(f['real_seconds'])
    except KeyError as e:
        raise ValueError('nuttcp: no %s= in its output' % e)
    return {'sent': pkt, 'received': pkt - drop,
            'rx_bytes': int(mb * (1 << 20)), 'seconds': secs}


def udp_iperf(d):
    """iperf -s -u -y C: the server's lines, one per stream, with 14 or
    more fields: ...,interval,bytes,bits/s,jitter,lost,total,percent,out
    of order (the client's copy of them says total -1 in 2.1.8)."""
    sent = lost = nbytes = 0
    secs, n = 0.0, 0
    for line in read_text(os.path.join(d, 'server.out')).splitlines():
        f = line.strip().split(',')
        if len(f) < 14 or f[5] == '-1' or int(f[11]) < 0:
            continue
        a, _, b = f[6].partition('-')
        secs = max(secs, float(b) - float(a))
        nbytes += int(f[7])
        lost += int(f[10])
        sent += int(f[11])
        n += 1
    if n == 0:
        raise ValueError('iperf: no server report line (the receiver\'s '
                         'figures) in its CSV output')
    return {'sent': sent, 'received': sent - lost, 'rx_bytes': nbytes,
            'seconds': secs}


def udp_ceiling(d):
    t = read_text(os.path.join(d, 'client.out'))
    if not t.startswith('udp_ceiling:'):
        raise ValueError('udp_ceiling: no result line')
    f = dict(p.split('=', 1) for p in t.split() if '=' in p)
    return {'sent': int(f['sent']), 'received': int(f['received']),
            'rx_bytes': int(float(f['rx_mbps']) * 1e6 / 8 *
                            float(f['rx_seconds'])),
            'seconds': float(f['rx_seconds']),
            'tx_cpu_s': float(f['tx_cpu_s']), 'rx_cpu_s': float(f['rx_cpu_s'])}


UDP_PARSERS = {'gigebench': udp_gigebench, 'iperf3': udp_iperf3,
               'nuttcp': udp_nuttcp, 'iperf': udp_iperf,
               'ceiling': udp_ceiling}


def parse_udp_run(d, run, meta, clk_tck):
    """A UDP run's figures into run: rx_pps, loss (percent of sent),
    mbps (received payload), and CPU microseconds per datagram: snd per
    datagram sent, rcv and host per datagram received."""
    u = UDP_PARSERS[run['tool']](d)
    if u['received'] <= 0 or u['seconds'] <= 0:
        raise ValueError('no datagram received')
    snd = cpu_file(os.path.join(d, 'client.cpu'))
    if snd is None:
        raise ValueError('no CPU reading from cpuwrap')
    if run['tool'] == 'ceiling':
        # one process: its threads' own CPU time, sender and receiver
        snd_s, rcv_s = u['tx_cpu_s'], u['rx_cpu_s']
    else:
        rcv = cpu_file(os.path.join(d, 'server.cpu'))
        if rcv is None:
            raise ValueError('no CPU reading from cpuwrap')
        if rcv.get('status') not in (('0', '143', '137') if run['tool'] == 'iperf'
                                     else ('0',)):
            raise ValueError('server exit status %s' % rcv.get('status'))
        snd_s, rcv_s = float(snd['cpu_s']), float(rcv['cpu_s'])
    h0, h1 = (host_busy_ticks(os.path.join(d, f)) for f in ('host0', 'host1'))
    host_s = (h1 - h0) / clk_tck if h0 is not None and h1 is not None else None
    rx = u['received']
    run.update(ok=True, udp=True, sent=u['sent'], received=rx,
               bytes=u['rx_bytes'], seconds=u['seconds'],
               rx_pps=rx / u['seconds'],
               loss=max(0, u['sent'] - rx) * 100.0 / u['sent'] if u['sent'] else None,
               mbps=u['rx_bytes'] * 8 / u['seconds'] / 1e6,
               snd_cpu_s=snd_s, rcv_cpu_s=rcv_s, host_cpu_s=host_s,
               snd_us=snd_s * 1e6 / u['sent'] if u['sent'] else None,
               rcv_us=rcv_s * 1e6 / rx,
               host_us=host_s * 1e6 / rx if host_s is not None else None)
    if run['tool'] == 'gigebench':
        run['path'] = gigebench_path(d)


def parse_run(d, clk_tck=100):
    """One run's figures: a dict with ok, and mbps, bytes, snd, rcv, host
    (None when the run has no /proc/stat readings) or error."""
    meta = kv_file(os.path.join(d, 'meta'))
    run = {'dir': d, 'key': meta.get('key'), 'round': int(meta.get('round', 0)),
           'tool': meta.get('tool'), 'client': meta.get('client'),
           'server': meta.get('server'), 'ok': False}
    try:
        if 'error' in meta:
            raise ValueError(meta['error'] + ': ' + read_text(
                os.path.join(d, 'server.err')).strip()[-200:])
        if meta.get('client_rc') != '0':
            raise ValueError('client exit status %s: %s' % (
                meta.get('client_rc'),
                read_text(os.path.join(d, 'client.err')).strip()[-200:]))
        if meta.get('mode', '').startswith('udp'):
            parse_udp_run(d, run, meta, clk_tck)
            return run
        mbps, nbytes = PARSERS[run['tool']](d)
        snd = cpu_file(os.path.join(d, 'client.cpu'))
        rcv = cpu_file(os.path.join(d, 'server.cpu'))
        if snd is None or rcv is None:
            raise ValueError('no CPU reading from cpuwrap')
        # iperf -s is stopped by SIGTERM (it may exit 0 or die of it,
        # 143) or SIGKILL (137); the others exit 0 after one test.
        if rcv.get('status') not in (('0', '143', '137') if run['tool'] == 'iperf'
                                     else ('0',)):
            raise ValueError('server exit status %s' % rcv.get('status'))
        if nbytes <= 0:
            raise ValueError('no bytes moved')
        run.update(ok=True, mbps=mbps, bytes=nbytes,
                   snd_cpu_s=float(snd['cpu_s']), rcv_cpu_s=float(rcv['cpu_s']),
                   snd_ru_s=float(snd['ru_cpu_s']), rcv_ru_s=float(rcv['ru_cpu_s']),
                   snd=float(snd['cpu_s']) / (nbytes / GB),
                   rcv=float(rcv['cpu_s']) / (nbytes / GB))
        run['sum'] = run['snd'] + run['rcv']
        h0, h1 = (host_busy_ticks(os.path.join(d, f)) for f in ('host0', 'host1'))
        run['host_cpu_s'] = (h1 - h0) / clk_tck if h0 is not None and h1 is not None else None
        run['host'] = run['host_cpu_s'] / (nbytes / GB) \
            if run['host_cpu_s'] is not None else None
        if run['tool'] == 'gigebench':
            run['path'] = gigebench_path(d)
    except (ValueError, KeyError, TypeError, IndexError) as e:
        run['error'] = str(e) or type(e).__name__
    return run


def size_label(n):
    n = int(n)
    if n % (1 << 20) == 0:
        return '%dM' % (n >> 20)
    if n % 1024 == 0:
        return '%dK' % (n >> 10)
    return str(n)


def median(runs, field):
    v = [r[field] for r in runs if r['ok'] and r[field] is not None]
    return statistics.median(v) if v else None


def spread(runs, field):
    """(max - min) / median in percent: how far the rounds disagree."""
    v = [r[field] for r in runs if r['ok']]
    if len(v) < 2 or not statistics.median(v):
        return None
    return (max(v) - min(v)) / statistics.median(v) * 100


def fmt(v, spec):
    return (spec % v) if v is not None else '-'


def ratio(a, b):
    return a / b if a is not None and b else None


def load(work):
    machine = kv_file(os.path.join(work, 'machine'))
    clk_tck = int(machine.get('clk_tck', 100))
    rows = []
    with open(os.path.join(work, 'cases')) as f:
        for line in f:
            f_ = line.rstrip('\n').split('\t')
            name, bed, tool, length, streams, key = f_[:6]
            rows.append({'case': name, 'bed': bed, 'tool': tool, 'len': length,
                         'streams': int(streams), 'key': key,
                         'mode': f_[6] if len(f_) > 6 else 'copy'})
    runs = {}
    rdir = os.path.join(work, 'runs')
    for n in sorted(os.listdir(rdir)) if os.path.isdir(rdir) else ():
        r = parse_run(os.path.join(rdir, n), clk_tck)
        runs.setdefault(r['key'], []).append(r)
    return machine, rows, runs


def summarize_case(rows, runs):
    """Per tool of one case: medians and ratios of gigebench to it."""
    out = []
    for row in rows:
        rs = runs.get(row['key'], [])
        eff = row['key'].split('/')[2]
        out.append(dict(row, eff_len=int(eff), n=sum(r['ok'] for r in rs),
                        failed=sum(not r['ok'] for r in rs),
                        mbps=median(rs, 'mbps'), snd=median(rs, 'snd'),
                        spread=spread(rs, 'mbps'),
                        rcv=median(rs, 'rcv'), sum=median(rs, 'sum'),
                        host=median(rs, 'host'),
                        samples=[{k: r.get(k) for k in (
                            'round', 'ok', 'error', 'mbps', 'bytes', 'snd_cpu_s',
                            'rcv_cpu_s', 'snd_ru_s', 'rcv_ru_s', 'host_cpu_s',
                            'client',
                            'server', 'path')} for r in rs]))
    # The reference is gigebench's copying run; in a case with several
    # (the buffer lengths), the one at the row's own length.
    gbs = {t['eff_len']: t for t in out
           if t['tool'] == 'gigebench' and t['mode'] == 'copy'}
    first = next(iter(gbs.values()), None)
    for t in out:
        ref = gbs.get(t['eff_len'], first) if len(gbs) > 1 else first
        if ref is not None and ref is not t:
            t['ratio'] = {k: ratio(ref[k], t[k]) for k in RATIO_KEYS}
    return out


UDP_FIELDS = ('rx_pps', 'loss', 'mbps', 'snd_us', 'rcv_us', 'host_us')
UDP_PEERS = PEERS
TARGET_UDP_PPS_PEER = 2.0
TARGET_UDP_PPS_CEILING = 0.9
TARGET_UDP_MBPS_PEER = 1.2
TARGET_UDP_MBPS_GSO = 2.0
TARGET_UDP_2FLOWS = 1.1
TARGET_UDP_HOST_CPU = 0.7
TARGET_TCP_HOST_CPU = 1.00


def summarize_udp_case(rows, runs):
    """Per tool of one UDP case: the medians of UDP_FIELDS; gigebench's
    plain run (mode udp) is the reference of the ratios."""
    out = []
    for row in rows:
        rs = runs.get(row['key'], [])
        t = dict(row, eff_len=int(row['key'].split('/')[2]),
                 n=sum(r['ok'] for r in rs), failed=sum(not r['ok'] for r in rs),
                 spread=spread(rs, 'rx_pps'),
                 samples=[{k: r.get(k) for k in (
                     'round', 'ok', 'error', 'sent', 'received', 'bytes',
                     'seconds', 'rx_pps', 'loss', 'mbps', 'snd_cpu_s',
                     'rcv_cpu_s', 'host_cpu_s', 'client', 'server', 'path')}
                     for r in rs])
        for k in UDP_FIELDS:
            t[k] = median(rs, k)
        out.append(t)
    ref = next((t for t in out if t['tool'] == 'gigebench' and
                t['mode'] == 'udp'), None)
    for t in out:
        if ref is not None and t is not ref and t['tool'] != 'gigebench':
            t['ratio'] = {'rx_pps': ratio(ref['rx_pps'], t['rx_pps']),
                          'mbps': ratio(ref['mbps'], t['mbps']),
                          'host_us': ratio(ref['host_us'], t['host_us'])}
    return out


def print_udp_case(name, tools, out):
    out.write('\n%s\n' % name)
    out.write('  %-9s %-10s %2s %8s %5s %6s %7s %6s %6s %6s   %-s\n' % (
        'tool', 'settings', 'n', 'received', 'range', 'loss', 'Mbit/s', 'snd',
        'rcv', 'host', 'gigebench / tool'))
    out.write('  %-9s %-10s %2s %8s %5s %6s %7s %6s %6s %6s   %6s %6s %6s\n' % (
        '', '', '', 'kpps', '%', '%', '', 'us/dg', 'us/dg', 'us/dg', 'kpps',
        'Mbit/s', 'host'))
    for t in tools:
        lab = '%d x%d%s' % (t['eff_len'], t['streams'],
                            ' gso' if t['mode'] == 'udp-gso' else '')
        r = t.get('ratio')
        rtxt = '%6s %6s %6s' % (fmt(r['rx_pps'], '%.2f'), fmt(r['mbps'], '%.2f'),
                                fmt(r['host_us'], '%.2f')) if r else '%6s' % '-'
        out.write('  %-9s %-10s %2d %8s %5s %6s %7s %6s %6s %6s   %s%s\n' % (
            t['tool'], lab, t['n'],
            fmt(t['rx_pps'] / 1e3 if t['rx_pps'] is not None else None, '%.1f'),
            fmt(t['spread'], '%.0f'), fmt(t['loss'], '%.2f'),
            fmt(t['mbps'], '%.0f'), fmt(t['snd_us'], '%.2f'),
            fmt(t['rcv_us'], '%.2f'), fmt(t['host_us'], '%.2f'), rtxt,
            '  (%d failed)' % t['failed'] if t['failed'] else ''))
    paths = sorted({s['path'] for t in tools if t['tool'] == 'gigebench'
                    for s in t['samples'] if s.get('path')})
    if paths:
        out.write('  paths gigebench reported (sender/receiver): %s\n' %
                  ', '.join(paths))


def pps_and_loss(add, name, gb, peers, target, tag):
    """Received pps over the best peer's, and no more loss than it, through
    add(); tag ends both lines (', 2 flows')."""
    best = max(peers, key=lambda t: t['rx_pps'] or 0)
    add('%s: received pps / best peer\'s (%s %.0f kpps)%s' % (
        name, best['tool'], (best['rx_pps'] or 0) / 1e3, tag),
        ratio(gb['rx_pps'], best['rx_pps']), target)
    add('%s: loss %% - %s\'s (%s %%): no more loss%s' % (
        name, best['tool'], fmt(best['loss'], '%.2f'), tag),
        None if gb['loss'] is None or best['loss'] is None
        else gb['loss'] - best['loss'], 0.0, le=True)


def udp_targets(cases, add):
    """Issue 15's targets against the UDP medians, through add()."""
    for name, tools in cases:
        if not name.startswith('udp '):
            continue
        gb = next((t for t in tools if t['tool'] == 'gigebench' and
                   t['mode'] == 'udp'), None)
        gso = next((t for t in tools if t['mode'] == 'udp-gso'), None)
        peers = [t for t in tools if t['tool'] in UDP_PEERS and t['n']]
        ceil = next((t for t in tools if t['tool'] == 'ceiling'), None)
        if gb is None or not peers:
            continue
        if name.endswith(' x 2'):	# issue 32: 2 flows on 2 CPUs
            pps_and_loss(add, name, gb, peers, TARGET_UDP_2FLOWS, ', 2 flows')
        small = tools[0]['eff_len'] < 1472
        if small:
            if name == 'udp loopback, 64 B x 1':
                pps_and_loss(add, name, gb, peers, TARGET_UDP_PPS_PEER, '')
                if ceil is not None:
                    add('%s: received pps / udp_ceiling\'s' % name,
                        ratio(gb['rx_pps'], ceil['rx_pps']),
                        TARGET_UDP_PPS_CEILING)
            have = [t for t in peers if t['host_us'] is not None]
            if have:
                least = min(have, key=lambda t: t['host_us'])
                add('%s: host CPU/datagram / least peer\'s (%s %.2f us)' % (
                    name, least['tool'], least['host_us']),
                    ratio(gb['host_us'], least['host_us']),
                    TARGET_UDP_HOST_CPU, le=True)
        else:
            best = max(peers, key=lambda t: t['mbps'] or 0)
            add('%s: Mbit/s / best peer\'s (%s %.0f)' % (
                name, best['tool'], best['mbps'] or 0),
                ratio(gb['mbps'], best['mbps']), TARGET_UDP_MBPS_PEER)
            if gso is not None:
                add('%s: --gso --gro Mbit/s / best peer\'s' % name,
                    ratio(gso['mbps'], best['mbps']), TARGET_UDP_MBPS_GSO)


def settings_label(t):
    lab = size_label(t['eff_len'])
    if t['len'] == 'def':
        lab = 'default ' + lab
    return '%s x%d' % (lab, t['streams'])


def write_table(out, name, what, width, ratio_title, rows):
    """A case's table: rows of (tool text, `what` text, figures, ratios or
    None), `what` (settings or mode) `width` characters wide."""
    out.write('\n%s\n' % name)
    out.write('  %-9s %-*s %2s %7s %5s %6s %6s %6s %6s   %-s\n' % (
        'tool', width, what, 'n', 'Mbps', 'range', 'snd', 'rcv', 'sum',
        'host', ratio_title))
    out.write('  %-9s %-*s %2s %7s %5s %6s %6s %6s %6s   %6s %6s %6s %6s %6s\n' % (
        '', width, '', '', '', '%', 's/GB', 's/GB', 's/GB', 's/GB', 'Mbps',
        'snd', 'rcv', 'sum', 'host'))
    for tool_txt, lab, t, r in rows:
        rtxt = '%6s %6s %6s %6s %6s' % tuple(fmt(r[k], '%.3f') for k in
                                             RATIO_KEYS) if r else '%6s' % '-'
        out.write('  %-9s %-*s %2d %7s %5s %6s %6s %6s %6s   %s%s\n' % (
            tool_txt, width, lab, t['n'], fmt(t['mbps'], '%.0f'),
            fmt(t['spread'], '%.0f'), fmt(t['snd'], '%.3f'),
            fmt(t['rcv'], '%.3f'), fmt(t['sum'], '%.3f'),
            fmt(t['host'], '%.3f'), rtxt,
            '  (%d failed)' % t['failed'] if t['failed'] else ''))


def print_case(name, tools, out):
    rows = []
    for t in tools:
        name_txt = 'bareloop' if t['tool'] == 'bare' else t['tool']
        if t['mode'] == 'lowat':
            name_txt = 'bare -w'
        rows.append((name_txt, settings_label(t), t, t.get('ratio')))
    write_table(out, name, 'settings', 15, 'gigebench / tool', rows)


def print_lengths(name, tools, out):
    """The buffer length case: per length, gigebench beside the others."""
    by = {(t['tool'], t['eff_len']): t for t in tools}
    lens = sorted({t['eff_len'] for t in tools})
    out.write('\n%s\n' % name)
    out.write('  %-6s %9s %7s %7s  %9s %7s %7s  %9s %7s %7s\n' % (
        'length', 'gigebench', 'snd', 'rcv', 'bareloop', 'gb/bare',
        '', 'iperf3', 'gb/ip3', ''))
    out.write('  %-6s %9s %7s %7s  %9s %7s %7s  %9s %7s %7s\n' % (
        '', 'Mbps', 's/GB', 's/GB', 'Mbps', 'Mbps', 'CPU', 'Mbps', 'Mbps', 'CPU'))
    for n in lens:
        g, b, i = (by.get((k, n)) for k in ('gigebench', 'bare', 'iperf3'))

        def cpu(t):
            return t['sum'] if t else None

        def m(t):
            return t['mbps'] if t else None
        out.write('  %-6s %9s %7s %7s  %9s %7s %7s  %9s %7s %7s\n' % (
            size_label(n), fmt(m(g), '%.0f'), fmt(g and g['snd'], '%.3f'),
            fmt(g and g['rcv'], '%.3f'), fmt(m(b), '%.0f'),
            fmt(ratio(m(g), m(b)), '%.3f'), fmt(ratio(cpu(g), cpu(b)), '%.3f'),
            fmt(m(i), '%.0f'), fmt(ratio(m(g), m(i)), '%.3f'),
            fmt(ratio(cpu(g), cpu(i)), '%.3f')))
    out.write('  (CPU: gigebench\'s median snd+rcv s/GB over the other tool\'s)\n')


MODE_FLAGS = {'copy': '', 'Z': '-Z', 'sendfile': '--sendfile',
              'skiprx': '--skip-rx-copy', 'splice': '--splice',
              'sendfile+skiprx': '--sendfile --skip-rx-copy'}


def print_zerocopy(name, tools, out):
    """Each mode against the same tool's copying path at the same length."""
    copy = {t['tool']: t for t in tools if t['mode'] == 'copy'}
    rows = []
    for t in tools:
        c = copy.get(t['tool'])
        flag = MODE_FLAGS.get(t['mode'], t['mode'])
        if t['tool'] == 'iperf3' and t['mode'] == 'Z':
            flag = '-Z (sendfile)'
        lab = '%s %s' % (size_label(t['eff_len']), flag or 'copy')
        r = {k: ratio(t[k], c[k]) for k in RATIO_KEYS} \
            if c is not None and c is not t else None
        rows.append((t['tool'], lab, t, r))
    write_table(out, name, 'mode', 27, 'mode / copy, same tool', rows)
    paths = {}
    for t in tools:
        if t['tool'] != 'gigebench':
            continue
        seen = sorted({s['path'] for s in t['samples'] if s.get('path')})
        paths[t['mode']] = seen
    out.write('  paths gigebench reported (sender/receiver): %s\n' % '; '.join(
        '%s: %s' % (m, ', '.join(v) or '-') for m, v in paths.items()))
    sf = next((t for t in tools if t['tool'] == 'gigebench' and
               t['mode'] == 'sendfile'), None)
    iz = next((t for t in tools if t['tool'] == 'iperf3' and t['mode'] == 'Z'),
              None)
    if sf and iz:
        out.write('  gigebench --sendfile / iperf3 -Z: Mbps %s, snd %s, rcv %s, '
                  'sum %s\n' % tuple(fmt(ratio(sf[k], iz[k]), '%.3f') for k in (
                      'mbps', 'snd', 'rcv', 'sum')))


def best_peer_per_end(tools):
    """{'snd': the peer with the least sender CPU per GB, 'rcv': the one
    with the least receiver CPU per GB}, for the ends that have figures."""
    peers = [t for t in tools if t['tool'] in PEERS]
    best = {}
    for end in ('snd', 'rcv'):
        have = [p for p in peers if p[end] is not None]
        if have:
            best[end] = min(have, key=lambda p: p[end])
    return best


def targets(cases):
    """The issue's targets against the medians: a list of result dicts."""
    res = []

    def add(what, value, bound, le=False):
        met = None if value is None else (value <= bound if le else value >= bound)
        res.append({'target': what, 'value': value, 'bound': bound,
                    'op': '<=' if le else '>=', 'met': met})

    for name, tools in cases:
        if name.startswith('udp '):
            continue
        by = {t['tool']: t for t in tools}
        gb = by.get('gigebench')
        if gb is None:
            continue
        if name == 'loopback, defaults':
            for p in ('iperf3', 'nuttcp'):
                if p in by:
                    add('%s: Mbps / %s' % (name, p), by[p]['ratio']['mbps'],
                        TARGET_DEFAULT_PEER)
            if 'bare' in by:
                add('%s: Mbps / bareloop %s' % (name, size_label(by['bare']['eff_len'])),
                    by['bare']['ratio']['mbps'], TARGET_DEFAULT_BARE)
        elif ' x ' in name:
            peers = [by[p] for p in PEERS if p in by]
            for p in peers:
                add('%s: Mbps / %s' % (name, p['tool']), p['ratio']['mbps'],
                    TARGET_MATCHED_MBPS)
            for end, best in best_peer_per_end(tools).items():
                add('%s: %s CPU/GB / best peer\'s (%s %.3f)' % (
                    name, end, best['tool'], best[end]),
                    ratio(gb[end], best[end]), TARGET_MATCHED_CPU, le=True)
    # issue 15: on every TCP bed and case, gigebench's host CPU per GB at
    # most the least of any peer's
    for name, tools in cases:
        if name.startswith('udp ') or 'zero-copy' in name or \
                'by buffer length' in name or 'SO_RCVLOWAT' in name:
            continue
        gb = next((t for t in tools if t['tool'] == 'gigebench'), None)
        have = [t for t in tools if t['tool'] in PEERS and t.get('host')]
        if gb is None or not have:
            continue
        least = min(have, key=lambda t: t['host'])
        add('%s: host CPU/GB / least peer\'s (%s %.3f)' % (
            name, least['tool'], least['host']),
            ratio(gb['host'], least['host']), TARGET_TCP_HOST_CPU, le=True)
    udp_targets(cases, add)
    return res


def per_end_bounds(cases):
    """For each matched case, the two per-end CPU targets added up beside
    the least host CPU per GB any tool there spent.  The per-end figures
    split one cost, the host's, between two processes as the kernel
    charged it; when the bounds add up to less than any tool's (the bare
    loop's included) host cost, meeting both needs the kernel to charge
    that much less to the two ends, not a cheaper tool."""
    res = []
    for name, tools in cases:
        if ' x ' not in name or name.startswith('udp '):
            continue
        best = best_peer_per_end(tools)
        hosts = [t for t in tools if t.get('host') is not None]
        if len(best) < 2 or not hosts:
            continue
        low = min(hosts, key=lambda t: t['host'])
        bound = TARGET_MATCHED_CPU * (best['snd']['snd'] + best['rcv']['rcv'])
        res.append({'case': name, 'bound_sum': bound,
                    'snd_from': best['snd']['tool'], 'rcv_from': best['rcv']['tool'],
                    'least_host': low['host'],
                    'least_host_tool': 'bareloop' if low['tool'] == 'bare' else low['tool'],
                    'gigebench_host': next((t['host'] for t in tools
                                            if t['tool'] == 'gigebench'), None)})
    return res


def main_table(work, json_out):
    machine, rows, runs = load(work)
    names = []
    for r in rows:
        if r['case'] not in names:
            names.append(r['case'])
    cases = [(n, (summarize_udp_case if n.startswith('udp ') else summarize_case)(
        [r for r in rows if r['case'] == n], runs)) for n in names]
    out = sys.stdout
    out.write('gigebench bench, %s to %s: %s rounds of %s s, %s CPUs (%s), kernel %s\n' % (
        machine.get('date', '?'), machine.get('finished', '?')[11:],
        machine.get('rounds', '?'),
        machine.get('seconds', '?'), machine.get('nproc', '?'),
        machine.get('cpu', '?'), machine.get('kernel', '?')))
    out.write('%s; %s; %s; %s\n' % tuple(machine.get(k, '?') for k in (
        'gigebench', 'iperf3', 'nuttcp', 'iperf')))
    out.write('load average at start %s, at end %s\n' % (
        machine.get('loadavg_start', '?'), machine.get('loadavg_end', '?')))
    out.write('medians over rounds; CPU = utime+stime from /proc/PID/stat '
              'per GB (2^30 B); ratios < 1 are better for CPU\n')
    for name, tools in cases:
        if name.startswith('udp '):
            print_udp_case(name, tools, out)
        elif 'by buffer length' in name:
            print_lengths(name, tools, out)
        elif 'zero-copy' in name:
            print_zerocopy(name, tools, out)
        else:
            print_case(name, tools, out)
    tg = targets(cases)
    if tg:
        out.write('\ntargets (issues 5 and 15)\n')
        for t in tg:
            out.write('  %-62s %6s %s %.2f  %s\n' % (
                t['target'], fmt(t['value'], '%.3f'), t['op'], t['bound'],
                {True: 'met', False: 'MISSED', None: 'no data'}[t['met']]))
    bounds = per_end_bounds(cases)
    if bounds:
        out.write('\nper-end CPU targets added up, against the host\'s whole CPU '
                  'per GB (s/GB)\n')
        for b in bounds:
            out.write('  %-20s snd bound (%s) + rcv bound (%s) = %.3f; least host '
                      'cost: %s %.3f (gigebench %s)\n' % (
                          b['case'], b['snd_from'], b['rcv_from'], b['bound_sum'],
                          b['least_host_tool'], b['least_host'],
                          fmt(b['gigebench_host'], '%.3f')))
    failed = [s for _, tools in cases for t in tools for s in t['samples']
              if not s['ok']]
    seen = set()
    for s in failed:
        if (s['client'], s['round']) in seen:
            continue
        seen.add((s['client'], s['round']))
        out.write('FAILED round %s: %s: %s\n' % (s['round'], s['client'], s['error']))
    empty = [t['tool'] for _, tools in cases for t in tools if t['n'] == 0]
    if json_out:
        with open(json_out, 'w') as f:
            json.dump({'machine': machine, 'cases': [
                {'case': n, 'tools': tools} for n, tools in cases],
                'targets': tg, 'per_end_bounds': bounds}, f, indent=1)
            f.write('\n')
    return 1 if failed or empty else 0


def main_one(d):
    r = parse_run(d)
    if not r['ok']:
        print('FAILED: %s' % r['error'])
        return 1
    if r.get('udp'):
        print('%9.1f kpps received, loss %.2f %%, %.0f Mbit/s; snd %s rcv %.2f '
              'us/datagram' % (r['rx_pps'] / 1e3, r['loss'] or 0, r['mbps'],
                               fmt(r['snd_us'], '%.2f'), r['rcv_us']))
        return 0
    print('%9.0f Mbps  snd %.3f rcv %.3f CPU s/GB' % (r['mbps'], r['snd'], r['rcv']))
    return 0


def main(argv):
    json_out = None
    args = argv[1:]
    if len(args) == 2 and args[0] == '--one':
        return main_one(args[1])
    if len(args) >= 2 and args[0] == '--json':
        json_out = args[1]
        args = args[2:]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    return main_table(args[0], json_out)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
