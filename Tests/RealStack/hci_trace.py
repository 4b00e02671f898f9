#!/usr/bin/python3
# The real-stack rig's HCI trace, read after a scenario failed: guest.sh records every controller's HCI traffic
# with btmon (/run/hci.btsnoop); summarize() turns the part since the scenario started into a few lines that say
# whether the host heard each keyboard, tried to connect to it and got a link, and whether the keyboard advertised
# connectably. CI shows only the end of the output, so the summary is short; the whole trace is copied to the output
# folder for reading with `btmon -r`.
import re
import subprocess
from collections import Counter

HEADER = re.compile(r'^([<>@=]) (.*?)\s+(?:#\d+ )?\[hci(\d+)\] (\d\d:\d\d:\d\d\.\d+)\s*$')
ADDRESS = re.compile(r'Address: ([0-9A-F:]{17})')


def blocks(trace, since):
    """(direction, title, index, time, body lines) of every packet at or after `since` (HH:MM:SS, btmon -t)."""
    # Late in a run under TCG on a loaded machine, decoding the whole trace took five minutes: the host's watchdog
    # (REALSTACK_STALL) then stopped the guest before the scenarios left. Two minutes, then the diagnosis goes without.
    done = subprocess.run(['btmon', '-t', '-C', '200', '-r', trace], capture_output=True, text=True, timeout=120)
    current = None
    for line in done.stdout.splitlines():
        header = HEADER.match(line)
        if header:
            if current and current[3] >= since:
                yield current
            current = (header.group(1), header.group(2), int(header.group(3)), header.group(4), [])
        elif current and line.startswith(' '):
            current[4].append(line.strip())
    if current and current[3] >= since:
        yield current


def first_value(body, prefix):
    return next((line[len(prefix):].strip() for line in body if line.startswith(prefix)), None)


STUCK = ('the host controller stopped scanning after its LE connection attempt failed ("Connection Failed to be '
         'Established"), so it can connect no keyboard any more (btvirt, docs/real-bluez.md)')


def summarize(trace, since, host_index, keyboards):
    """Lines on what controller `host_index` and each keyboard's own controller did since `since`, and whether the
    host is stuck: its last connection attempt failed to be established and it has not scanned since, so no
    keyboard can reach it any more (``STUCK``; None when it is not). `keyboards` maps a name to (address,
    controller index)."""
    host = Counter()
    heard = Counter()
    connectable = Counter()
    created = Counter()
    completed = {}
    advertised = Counter()
    adv_connectable = Counter()
    links = Counter()
    dropped = Counter()
    ended = Counter()  # disconnections a keyboard's own side asked for
    reasons = {}
    by_index = {index: name for name, (_, index) in keyboards.items()}
    # The host's last scan enable or connection outcome: a failed connection with no scan after it leaves the host
    # deaf (btvirt reports an advertiser only when scanning starts or advertising does: docs/real-bluez.md).
    last_host_step = None
    for direction, title, index, _, body in blocks(trace, since):
        text = ' '.join(body)
        meta = body[0] if title.startswith('HCI Event: LE Meta Event') and body else ''
        if index == host_index:
            if 'Scan Enable' in title and direction == '<':
                enabled = 'Enabled' in (body[0] if body else '')
                host['scan on' if enabled else 'scan off'] += 1
                if enabled:
                    last_host_step = 'scan'
            elif 'Advertising Report' in meta:
                for address in ADDRESS.findall(text):
                    heard[address] += 1
                    if _connectable(text):
                        connectable[address] += 1
            elif 'Create Connection' in title and 'Cancel' not in title and direction == '<':
                peer = first_value(body, 'Peer address:')
                if peer:
                    created[peer.split()[0]] += 1
            elif 'Create Connection Cancel' in title and direction == '<':
                host['cancel'] += 1
            elif 'Connection Complete' in meta:
                peer = first_value(body, 'Peer address:')
                status = first_value(body, 'Status:') or '?'
                if peer:
                    completed.setdefault(peer.split()[0], []).append(status)
                last_host_step = 'failed' if 'Failed to be Established' in status else 'connected'
            elif title.startswith('HCI Event: Disconnect Complete'):
                host['disconnected'] += 1
                reasons.setdefault('host', []).append(first_value(body, 'Reason:') or '?')
            elif title.startswith('HCI Command: Disconnect') and direction == '<':
                host['asked to disconnect'] += 1
        elif index in by_index:
            name = by_index[index]
            if 'Advertising Enable' in title or 'Advertise Enable' in title:
                if direction == '<' and body and 'Enabled' in body[0]:
                    advertised[name] += 1
            elif 'Advertising Parameters' in title and direction == '<':
                if _connectable(text):
                    adv_connectable[name] += 1
            elif 'Connection Complete' in meta and 'Success' in (first_value(body, 'Status:') or ''):
                links[name] += 1
            elif title.startswith('HCI Event: Disconnect Complete'):
                dropped[name] += 1
                reasons.setdefault(name, []).append(first_value(body, 'Reason:') or '?')
            elif title.startswith('HCI Command: Disconnect') and direction == '<':
                ended[name] += 1
    lines = ['  HCI trace since %s: host hci%d scan enabled %dx, disabled %dx, %d connection(s) cancelled, '
             '%d disconnection(s)%s, %d of them asked by the host' % (
                 since, host_index, host['scan on'], host['scan off'], host['cancel'], host['disconnected'],
                 _reasons(reasons.get('host')), host['asked to disconnect'])]
    for name, (address, index) in sorted(keyboards.items()):
        if not (heard[address] or created[address] or advertised[name] or links[name] or dropped[name]):
            continue
        outcomes = Counter(completed.get(address, []))
        lines.append('  %s (hci%d): advertised %dx (connectable parameters %dx), %d link(s), %d dropped%s, %d asked by '
                     'the keyboard; the host heard it %dx (%d connectable), tried to connect %dx, completed: %s' % (
                         name, index, advertised[name], adv_connectable[name], links[name], dropped[name],
                         _reasons(reasons.get(name)), ended[name], heard[address], connectable[address],
                         created[address], ', '.join('%s %dx' % (status.split(' (')[0], n)
                                                     for status, n in outcomes.most_common()) or 'none'))
    stuck = STUCK if last_host_step == 'failed' else None
    if stuck:
        lines.append('  %s' % stuck)
    return lines, stuck


def _connectable(text):
    """Whether a report's or advertising parameters' decoded text names a connectable PDU (legacy ADV_IND, or the
    extended properties' "Connectable")."""
    return 'ADV_IND' in text or 'Connectable' in text.replace('Non connectable', '')


def _reasons(reasons):
    if not reasons:
        return ''
    counted = Counter(r.split(' (')[0] for r in reasons)
    return ' (%s)' % ', '.join('%s %dx' % (r, n) for r, n in counted.most_common(3))
