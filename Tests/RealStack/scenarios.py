#!/usr/bin/python3
# The real-stack rig's scenarios (guest side, started by guest.sh): bluetoothd on btvirt controllers, the test
# keyboards of keyboards.py on five of them, kblinkd on the system bus driving the sixth, and kblink run as a user
# would. Each scenario prints "PASS name" or "FAIL name: reason"; the last line is "N passed, N failed".
# Every wait is on state (polled), with generous deadlines: TCG makes everything ten times slower than a laptop.
import json
import os
import queue
import select
import re
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback

import dbus

import hci_trace

OUT, BUILD = sys.argv[1], sys.argv[2]
KBLINK, KBLINKD = os.path.join(BUILD, 'kblink'), os.path.join(BUILD, 'kblinkd')
HERE = os.path.dirname(os.path.realpath(__file__))
BLUETOOTHD = '/usr/libexec/bluetooth/bluetoothd'
BLUETOOTHD_ARGV = [BLUETOOTHD, '-n', '-d', '-f', '/run/realstack-main.conf']
KEYBOARDS = ['plain', 'passkey', 'split', 'studio', 'via', 'apple']
BLUEZ_SERVED = ['plain', 'passkey', 'split', 'studio']  # keyboards.py; 'via' and 'apple' have their own (Bumble)
SCANNED = KEYBOARDS[:5]  # the Mac-mode keyboard advertises only in its own scenario
VENV_PYTHON = os.path.join(HERE, '..', '..', '.build', 'realstack-venv', 'bin', 'python3')
LABELS = {'plain': 'RS Plain K75', 'passkey': 'RS Passkey K75', 'split': 'RS Split Corne',
          'studio': 'RS Studio F87', 'via': 'RS VIA 98', 'apple': 'RS Mac K2'}
# How long the hardware-keyboard flag may take to follow a keyboard that left or came back (docs/real-bluez.md):
# BlueZ reports the link down within a couple of seconds of a clean disconnect; the rest is TCG's slowness.
PRESENCE_GRACE = 20

results = []
started = time.monotonic()


def log(*words):
    print('[%6.1f]' % (time.monotonic() - started), *words, flush=True)


class Failure(Exception):
    pass


def check(condition, reason):
    if not condition:
        raise Failure(reason)


def wait_for(what, predicate, timeout, interval=0.5):
    """Polls `predicate` until it returns something true; raises Failure naming `what` at the deadline."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except Exception as error:  # a call that fails while state settles is retried
            last_error = error
        if time.monotonic() > deadline:
            raise Failure('%s (waited %ds%s)' % (what, timeout, '; last error: %s' % last_error if last_error else ''))
        time.sleep(interval)


def stays(what, predicate, seconds, interval=0.5):
    """Fails as soon as `predicate` turns false during `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not predicate():
            raise Failure(what)
        time.sleep(interval)


# ---- processes ----

class Keyboards:
    """A keyboards process (keyboards.py, or via_keyboard.py), driven line by line."""

    def __init__(self, argv, logname):
        self.lines = queue.Queue()
        self.events = []
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=open(os.path.join(OUT, logname + '.err'), 'a'), text=True, bufsize=1)
        self.logfile = open(os.path.join(OUT, logname + '.log'), 'a')
        threading.Thread(target=self.read, daemon=True).start()
        first = self.next_line(120)
        check(first.startswith('ready'), 'the keyboards did not start: %s' % first)
        self.ready = first

    def read(self):
        for line in self.proc.stdout:
            line = line.rstrip('\n')
            self.logfile.write('%.1f %s\n' % (time.monotonic() - started, line))
            self.logfile.flush()
            if line.startswith('event '):
                self.events.append(line[6:])
            else:
                self.lines.put(line)
        self.lines.put('exited')

    def next_line(self, timeout):
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Failure('the keyboards process did not answer within %ds' % timeout)

    def do(self, *words, timeout=60):
        self.proc.stdin.write(' '.join(str(w) for w in words) + '\n')
        self.proc.stdin.flush()
        line = self.next_line(timeout)
        check(line.startswith('ok '), 'keyboard command %s failed: %s' % (' '.join(map(str, words)), line))
        return line.split(' ', 2)[2] if line.count(' ') >= 2 else ''


class Daemon:
    def __init__(self, argv, logname):
        self.argv, self.logname, self.proc = argv, logname, None

    def start(self):
        self.proc = subprocess.Popen(self.argv, stdout=open(os.path.join(OUT, self.logname), 'a'),
                                     stderr=subprocess.STDOUT, start_new_session=True)

    def kill(self, sig=signal.SIGKILL):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(30)


def kblink(*args, timeout=180, check_ok=False):
    """Runs kblink on the system bus; returns (exit status, stdout, stderr)."""
    argv = [KBLINK, '--bus', 'system'] + [str(a) for a in args]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failure('kblink %s did not finish within %ds' % (' '.join(map(str, args)), timeout))
    with open(os.path.join(OUT, 'kblink.log'), 'a') as f:
        f.write('$ kblink %s -> %d\n%s%s\n' % (' '.join(map(str, args)), done.returncode, done.stdout, done.stderr))
    if check_ok:
        check(done.returncode == 0, 'kblink %s exited %d: %s' % (' '.join(map(str, args)), done.returncode,
                                                                 (done.stderr or done.stdout).strip()[-400:]))
    return done.returncode, done.stdout, done.stderr


def kblink_json(*args, timeout=180):
    _, out, _ = kblink(*args, '--json', timeout=timeout, check_ok=True)
    return json.loads(out)


# ---- D-Bus views of BlueZ and kblinkd ----

bus = dbus.SystemBus()


def bluez_objects():
    return dbus.Interface(bus.get_object('org.bluez', '/'), 'org.freedesktop.DBus.ObjectManager').GetManagedObjects()


def adapters():
    return sorted(str(p).rsplit('/', 1)[1] for p, i in bluez_objects().items() if 'org.bluez.Adapter1' in i)


def adapter_address(hci):
    return str(bluez_objects()[dbus.ObjectPath('/org/bluez/' + hci)]['org.bluez.Adapter1']['Address'])


def host_device(address):
    """The Device1 properties of `address` under the host adapter, or None. One GetAll on the device's own path,
    not GetManagedObjects: the waits poll this every half second, and under TCG a whole object tree (every adapter,
    device, GATT service and characteristic) costs bluetoothd and this process enough to slow the links down."""
    path = '/org/bluez/%s/dev_%s' % (HOST, address.replace(':', '_'))
    try:
        return dbus.Interface(bus.get_object('org.bluez', path, introspect=False),
                              'org.freedesktop.DBus.Properties').GetAll('org.bluez.Device1')
    except dbus.DBusException as error:
        if error.get_dbus_name() in ('org.freedesktop.DBus.Error.UnknownObject',
                                     'org.freedesktop.DBus.Error.UnknownMethod',
                                     'org.freedesktop.DBus.Error.InvalidArgs'):
            return None
        raise


def connected(address):
    device = host_device(address)
    return bool(device and device.get('Connected'))


def manager_property(name):
    return dbus.Interface(bus.get_object('org.kblink1', '/org/kblink1'), 'org.freedesktop.DBus.Properties').Get(
        'org.kblink1.Manager', name)


def presence():
    """(HardwareKeyboardAttached, [(source, id, name)]) as kblinkd publishes them."""
    return bool(manager_property('HardwareKeyboardAttached')), [
        tuple(str(x) for x in entry) for entry in manager_property('HardwareKeyboards')]


def evdev_keyboards(address):
    """The /proc/bus/input/devices blocks whose Uniq is `address` and that have a kbd handler."""
    with open('/proc/bus/input/devices') as f:
        blocks = f.read().split('\n\n')
    return [b for b in blocks if ('u: uniq=%s' % address.lower()) in b.lower() and 'kbd' in b]


def hidraw_nodes(address):
    nodes = []
    for name in sorted(os.listdir('/sys/class/hidraw')) if os.path.isdir('/sys/class/hidraw') else []:
        with open('/sys/class/hidraw/%s/device/uevent' % name) as f:
            if ('hid_uniq=%s' % address.lower()) in f.read().lower():
                nodes.append(name)
    return nodes


# ---- the scenarios ----

def scenario(name, needs=()):
    """Registers a scenario; `needs` names the earlier scenarios whose end state it starts from (the keyboard they
    pair, its agent): a run of only some scenarios (--only, or a fresh guest after the stack broke) runs those too."""
    def register(function):
        SCENARIOS.append((name, function))
        NEEDS[name] = list(needs)
        return function
    return register


def planned(only):
    """The scenarios to run, in their usual order: `only` (all when empty) and what they need."""
    wanted = set()

    def add(name):
        if name not in wanted:
            wanted.add(name)
            for need in NEEDS.get(name, []):
                add(need)
    for name in only or [n for n, _ in SCENARIOS]:
        add(name)
    return [(n, f) for n, f in SCENARIOS if n in wanted]


SCENARIOS = []
NEEDS = {}  # scenario -> the scenarios it starts after
ADDR = {}
CONTROLLER = {}  # keyboard name -> its own controller's index (hciN)
HOST = None
TRACE = '/run/hci.btsnoop'  # guest.sh's btmon
kb = None
via_kb = None
apple_kb = None
bluetoothd = None
kblinkd = None


def clean_strays():
    """kblinkd scans on every powered adapter, the keyboards' too: drop what the keyboard adapters found, so that
    each keyboard address lives under the host adapter only (one machine, one adapter, as on a real desk)."""
    for name in BLUEZ_SERVED:
        kb.do('forget-others', name, ADDR_HOST)


@scenario('scan')
def scan():
    _, out, _ = kblink('scan', '--timeout', 25, '--json', timeout=120, check_ok=True)
    found = [json.loads(line) for line in out.splitlines() if line.strip()]  # one JSON object per line
    addresses = {str(k.get('address', '')).upper() for k in found}
    missing = [n for n in SCANNED if ADDR[n] not in addresses]
    check(not missing, 'scan did not find %s (found %s)' % (missing, sorted(addresses)))
    # kblinkd stops the discovery it started (on every adapter) once the scan is over.
    def discovering():
        return sorted(str(p).rsplit('/', 1)[-1] for p, i in bluez_objects().items()
                      if i.get('org.bluez.Adapter1', {}).get('Discovering'))
    try:
        wait_for('no adapter discovering after the scan', lambda: not discovering(), 30)
    except Failure as failure:
        # What kblinkd asked and heard (it logs each stop and each refusal), for the failure's line in CI's output.
        said = [l.strip()[-160:] for l in open(os.path.join(OUT, 'kblinkd.log'), errors='replace')
                if 'discover' in l.lower()][-4:]
        raise Failure('%s: %s still discovering; kblinkd logged: %s' % (failure, discovering(), ' | '.join(said)))
    clean_strays()


def alone(name):
    """Disconnects (with kblink disconnect, so they stay away) every other connected keyboard: btvirt's emulated
    controllers lose the ATT traffic of a second simultaneous LE link of the host's controller (docs/real-bluez.md),
    so the rig keeps one keyboard connected at a time."""
    for other in KEYBOARDS:
        if other != name and connected(ADDR[other]):
            kblink('disconnect', ADDR[other], check_ok=True)
            wait_for('%s disconnected' % other, lambda: not connected(ADDR[other]), 30)


def settled(name):
    """Waits until the host has finished setting up the keyboard's connection: services resolved and one firmware
    read through kblinkd done. Ending a link while bluetoothd 5.66 still sets it up (its deviceinfo plugin reading
    over the link) has crashed bluetoothd in this rig (docs/real-bluez.md)."""
    wait_for('%s services resolved' % name, lambda: (host_device(ADDR[name]) or {}).get('ServicesResolved'), 60)
    wait_for('a firmware read of %s' % name, lambda: kblink('info', ADDR[name], '--refresh', timeout=120)[0] == 0,
             120, interval=2)


def reconnects_by_itself(name, what, timeout, again_every=20, switch_after=60):
    """Waits until the host connects the advertising keyboard `name` by itself (BlueZ's auto-connect: the device is
    on the host adapter's kernel connect list, the kernel scans passively and connects when it hears the keyboard);
    nobody calls Connect. A real keyboard repeats its advertising every few milliseconds until it is connected;
    btvirt's controllers (BlueZ 5.66, emulator/btdev.c) send a scanning controller one advertising report per
    event only: when the keyboard's advertising is enabled (to the controllers scanning at that moment) and when the
    host enables scanning (for the sets advertising at that moment). The kernel can drop the report that comes right
    around its scan enable, and then it never hears the keyboard again: on a loaded machine bluetoothd-restart waited
    120 s with the plain keyboard advertising and its address on hci1's connect list, and neither side saw a
    connection (BlueZ 5.80 made btdev repeat its reports at the advertising interval for that reason, commit
    fa4d477ab "btdev: Broadcast EXT_ADV packets based on its interval"). So while it is not connected the keyboard
    advertises again every `again_every` seconds (a new advertising event), as a real keyboard keeps advertising.
    After `switch_after` seconds it is switched off and on once (its controller reset, as a person does with a
    keyboard that does not come back): after a restart of bluetoothd, advertising again did not bring a keyboard back
    in 120 s on CI's slower machine, while switched-off-and-on, which resets the keyboard's controller, never failed."""
    address = ADDR[name]
    start = time.monotonic()
    deadline = start + timeout
    again_at = start + again_every
    times = 0
    switched = False
    while True:
        try:
            if connected(address):
                if times or switched:
                    log('%s: connected after advertising again %d time(s)%s' % (
                        name, times, ', switched off and on once' if switched else ''))
                return
        except dbus.DBusException:
            pass  # BlueZ settling (just restarted): asked again
        now = time.monotonic()
        if now > deadline:
            raise Failure('%s (waited %ds; the keyboard advertised again %d time(s)%s)' % (
                what, timeout, times, ' and was switched off and on' if switched else ''))
        if now >= again_at:
            kb.do('adv', name, 'off')
            try:
                still_away = not connected(address)
            except dbus.DBusException:
                still_away = True
            if still_away and not switched and switch_after is not None and now - start >= switch_after:
                log('%s: not back after %ds; switched off and on' % (name, now - start))
                kb.do('power', name, 'off')
                kb.do('power', name, 'on')
                switched = True
            elif still_away:
                kb.do('adv', name, 'on')
                times += 1
            again_at = time.monotonic() + again_every
        time.sleep(0.5)


def advertising_again_while_away(name, predicate, again_every=15):
    """`predicate` for wait_for, with the keyboard `name` advertising again once it has not been connected for
    `again_every` seconds, as a real keyboard keeps advertising. btvirt sends one advertising report per advertising
    event (reconnects_by_itself): when the host's one connection attempt after a disconnection fails on a loaded
    machine ("Connection Failed to be Established"), the host never hears the keyboard again, and every later Connect
    waits for nothing (seen in heal-hid-missing during a .ci/run beside other builds). Not sooner: a new advertising
    event while the host is connecting resets the new link, and resetting a link while bluetoothd 5.66 resolves its
    services crashes it (seen when the keyboard advertised again right before a kblink connect); a reconnect takes
    a few seconds here."""
    address = ADDR[name]
    away = {'since': None, 'times': 0}

    def check():
        value = predicate()
        if value or connected(address):
            away['since'] = None
            return value
        now = time.monotonic()
        if away['since'] is None:
            away['since'] = now
        elif now - away['since'] >= again_every:
            kb.do('adv', name, 'off')
            kb.do('adv', name, 'on')
            away['times'] += 1
            away['since'] = now
            log('%s: advertised again while away (%d time(s))' % (name, away['times']))
        return value
    return check


def pair(name, expect_prompt=False, typed=None, timeout=90):
    """kblink pair --json; returns (exit status, events). `typed(code)` answers a display-passkey prompt.

    The keyboard is known under the host adapter first, and under no keyboard adapter: kblinkd pairs the device
    BlueZ knows by that address, and a copy under a keyboard adapter (left by a scan on every adapter; the host
    adapter's own copy of a keyboard never paired goes when the host adapter powers off) would pair the keyboard
    with another keyboard."""
    alone(name)
    clean_strays()
    if host_device(ADDR[name]) is None:
        rediscover(name)
    argv = [KBLINK, '--bus', 'system', 'pair', ADDR[name], '--json', '--timeout', str(timeout)]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    events = []
    deadline = time.monotonic() + timeout + 60
    killer = threading.Timer(timeout + 60, proc.kill)
    killer.start()
    for line in proc.stdout:
        line = line.strip()
        if not line:
            continue
        event = json.loads(line)
        events.append(event)
        if event.get('event') == 'prompt' and event.get('kind') == 'display-passkey' and event.get('entered') == 0:
            if typed:
                typed(event['code'])
        if time.monotonic() > deadline:
            break
    try:
        status = proc.wait(max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        raise Failure('kblink pair %s did not finish' % name)
    finally:
        killer.cancel()
    err = proc.stderr.read()
    with open(os.path.join(OUT, 'kblink.log'), 'a') as f:
        f.write('$ kblink pair %s -> %d\n%s\n%s\n' % (ADDR[name], status, json.dumps(events), err))
    return status, events, err


def finished(events):
    return next((e for e in events if e.get('event') == 'finished'), {})


def expect_paired(name):
    device = wait_for('%s paired, trusted and connected in BlueZ' % name,
                      lambda: (lambda d: d if d and d['Paired'] and d['Trusted'] and d['Connected'] else None)(
                          host_device(ADDR[name])), 30)
    return device


@scenario('pair-just-works')
def pair_just_works():
    kb.do('agent', 'justworks')
    status, events, err = pair('plain')
    end = finished(events)
    check(status == 0 and end.get('ok'), 'pair failed (exit %d): %s %s' % (status, end.get('message'), err.strip()))
    check(not any(e.get('event') == 'prompt' for e in events), 'Just Works showed a prompt: %s' % events)
    expect_paired('plain')


@scenario('trust', needs=['pair-just-works'])
def trust():
    kblink('untrust', ADDR['plain'], check_ok=True)
    wait_for('Trusted false in BlueZ after untrust', lambda: not host_device(ADDR['plain'])['Trusted'], 20)
    listed = kblink_json('list')
    entry = next((k for k in listed if k['address'].upper() == ADDR['plain']), None)
    check(entry is not None and entry['trusted'] is False, 'kblink list does not show it untrusted: %s' % entry)
    kblink('trust', ADDR['plain'], check_ok=True)
    wait_for('Trusted true in BlueZ after trust', lambda: host_device(ADDR['plain'])['Trusted'], 20)


@scenario('info-device-information', needs=['pair-just-works'])
def info():
    def read():
        data = kblink_json('info', ADDR['plain'])
        return data if data.get('readAt') and data.get('manufacturer') else None
    data = wait_for('kblink info shows the Device Information strings', read, 60, interval=2)
    expected = {'manufacturer': 'RealStack Labs', 'model': 'K75-plain', 'serial': 'SN-plain-0001',
                'firmwareRevision': '2.5.0', 'hardwareRevision': 'rev P', 'softwareRevision': 'zephyr-3.5.5'}
    wrong = {k: data.get(k) for k, v in expected.items() if data.get(k) != v}
    check(not wrong, 'wrong Device Information fields: %s' % wrong)
    vendor, product = data.get('vendor') or {}, data.get('product') or {}
    check(vendor.get('id') == '0x1d50' and vendor.get('source') == 'usb',
          'vendor is %s, not the keyboard\'s usb 0x1d50 (BlueZ\'s own is 0x1d6b)' % vendor)
    check(product.get('id') == '0x6105' and product.get('version') == '0x0205',
          'product is %s, not the keyboard\'s 0x6105 version 0x0205' % product)


def expect_presence(address, attached, what, timeout=PRESENCE_GRACE):
    """Waits until kblinkd counts the keyboard at `address` once (as `bluetooth`, its evdev node not listed on its
    own) when `attached`, or not at all; HardwareKeyboardAttached must agree with the list either way."""
    label = LABELS[next(n for n, a in ADDR.items() if a == address)]

    def ok():
        flag, entries = presence()
        bluetooth = [e for e in entries if e[0] == 'bluetooth' and e[1].upper() == address]
        evdev = [e for e in entries if e[0] == 'evdev' and e[2] == label]
        if flag != bool(entries):
            return False
        return (len(bluetooth) == 1 and not evdev) if attached else (not bluetooth and not evdev)
    try:
        wait_for(what, ok, timeout)
    except Failure as failure:
        listed = [k for k in kblink_json('list') if k['address'].upper() == address]
        device = host_device(address)
        raise Failure('%s; kblinkd says %s, lists %s; BlueZ: connected %s; evdev keyboards for it: %d' % (
            failure, presence(), [(k['paired'], k['connected']) for k in listed],
            device and bool(device.get('Connected')), len(evdev_keyboards(address))))


@scenario('presence-attached', needs=['pair-just-works'])
def presence_attached():
    address = ADDR['plain']
    try:
        wait_for('the evdev keyboard that BlueZ\'s hog plugin creates', lambda: evdev_keyboards(address), 30)
    except Failure:
        with open('/proc/bus/input/devices') as f:
            log('/proc/bus/input/devices:\n' + f.read())
        raise
    expect_presence(address, True, 'one Bluetooth keyboard counted once, attached')


@scenario('disconnect-stays-away', needs=['pair-just-works'])
def disconnect_stays_away():
    address = ADDR['plain']
    status, out, err = kblink('disconnect', address)
    check(status == 0, 'kblink disconnect exited %d: %s' % (status, err.strip()))
    wait_for('BlueZ shows it disconnected', lambda: not connected(address), 30)
    expect_presence(address, False, 'the flag turns false once disconnected (whatever the evdev node does)')
    # The keyboard keeps advertising; a trusted, bonded HID keyboard would be reconnected by BlueZ within seconds.
    stays('BlueZ connected the keyboard again after kblink disconnect', lambda: not connected(address), 20)
    check(host_device(address)['Trusted'], 'kblink disconnect left the keyboard untrusted')
    said = (out + err).lower()
    check('kblink connect' in said, 'kblink disconnect does not say how to get it back: %r' % (out + err))


@scenario('connect-again', needs=['pair-just-works'])
def connect_again():
    address = ADDR['plain']
    alone('plain')
    kblink('connect', address, check_ok=True)
    wait_for('BlueZ shows it connected', lambda: connected(address), 60)
    expect_presence(address, True, 'attached again, counted once')


@scenario('switched-off-and-on', needs=['pair-just-works'])
def switched_off():
    address = ADDR['plain']
    settled('plain')
    kb.do('power', 'plain', 'off')
    wait_for('BlueZ shows the switched-off keyboard disconnected', lambda: not connected(address), 60)
    expect_presence(address, False, 'the flag turns false when the keyboard is switched off')
    kb.do('power', 'plain', 'on')
    reconnects_by_itself('plain', 'the trusted keyboard reconnects by itself once switched on', 90)
    expect_presence(address, True, 'attached again after switching on')


HOGP = '00001812-0000-1000-8000-00805f9b34fb'


def figure(name, value):
    """A measured figure: logged, and kept in OUT/figures.txt, which scripts/real-bluez-test prints at the end."""
    log('figure', name, value)
    with open(os.path.join(OUT, 'figures.txt'), 'a') as f:
        f.write('%s %s\n' % (name, value))


def calls_mark():
    """Where the calls to bluetoothd recorded from now on start (a byte of OUT/dbus-monitor.log)."""
    return os.path.getsize(os.path.join(OUT, 'dbus-monitor.log'))


def calls_to_device(address, since):
    """The Device1 methods kblinkd called on `address`'s device object since `since` (calls_mark()), in order, as
    bluetoothd received them: guest.sh's dbus-monitor records every method call to org.bluez. (bluetoothd's own
    debug log names the caller of ConnectProfile only: src/device.c logs Connect and Disconnect of an LE device
    without it.)"""
    owner = str(bus.get_name_owner('org.kblink1'))
    path = '/org/bluez/%s/dev_%s' % (HOST, address.replace(':', '_'))
    with open(os.path.join(OUT, 'dbus-monitor.log'), errors='replace') as f:
        f.seek(since)
        text = f.read()
    return re.findall(r'^method call .* sender=%s -> destination=org\.bluez .* path=%s; interface=org\.bluez\.Device1; '
                      r'member=(\w+)$' % (re.escape(owner), re.escape(path)), text, re.MULTILINE)


def heal_steps(calls):
    """How many healing steps `calls` hold: each ConnectProfile is one, each Disconnect (and the Connect after it)
    another, power-cycling aside (off by default)."""
    return calls.count('ConnectProfile') + calls.count('Disconnect')


@scenario('heal-hid-missing', needs=['pair-just-works'])
def heal_hid_missing():
    """A keyboard whose firmware comes up without its HID service (so BlueZ's hog plugin makes no input device) on a
    connection and with it on the next: kblinkd notices (no evdev node within [Health] Deadline), heals it with no
    user action (an LE keyboard: no ConnectProfile, which bluetoothd sends over BR/EDR; disconnect and connect
    brings the keyboard back with its HID service), within 30 s of the link coming up, and kblink info names the
    heal."""
    address = ADDR['plain']
    alone('plain')
    if connected(address):
        settled('plain')
        before = kblink_json('info', address).get('reconnectTime') or {}
        if before.get('count'):
            figure('reconnect-ms-last', before.get('lastMilliseconds'))
            figure('reconnect-ms-median', '%s (%s reconnects)' % (before.get('medianMilliseconds'), before['count']))
        kblink('disconnect', address, check_ok=True)
        wait_for('the plain keyboard disconnected', lambda: not connected(address), 30)
    # The keyboard drops HID once and the host must see that: bluetoothd reads the new database hash on the link's
    # first round trips, and a link that goes down before that (btvirt's links can) comes back resolved from
    # bluetoothd's cache, HID service and input device included. That is bluetoothd's cache, not kblinkd's doing: the
    # keyboard drops HID again, up to three links.
    for attempt in range(1, 4):
        if connected(address):
            settled('plain')
            kblink('disconnect', address, check_ok=True)
            wait_for('the plain keyboard disconnected', lambda: not connected(address), 30)
        kb.do('hid', 'plain', 'missing-once')
        since = calls_mark()
        kblink('connect', address, check_ok=True)
        wait_for('the plain keyboard connected', lambda: connected(address), 60)
        device = wait_for('its services resolved', lambda: (lambda d: d if d and d.get('ServicesResolved') else None)(
            host_device(address)), 60, interval=0.2)
        up = time.monotonic()
        uuids = [str(u) for u in device.get('UUIDs', [])]
        nodes = evdev_keyboards(address)
        if HOGP not in uuids and not nodes:
            break
        came_up = 'the keyboard came up with its HID service (UUIDs %s) or an input device (%s)' % (uuids, nodes)
        check(attempt < 3, '%s on 3 links: nothing to heal' % came_up)
        log('link %d: %s, from bluetoothd\'s cache; dropping HID again' % (attempt, came_up))
    wait_for('kblinkd says it is healing', lambda: kblink_json('info', address).get('health') in ('waiting', 'healing'),
             30, interval=1)
    wait_for('the evdev keyboard node back (typing again) with no user action',
             advertising_again_while_away('plain', lambda: evdev_keyboards(address)), 90, interval=0.2)
    healed_after = time.monotonic() - up
    figure('heal-hid-missing-s', '%.1f' % healed_after)
    check(healed_after <= 30, 'typing again only %.1f s after the link came up, not within 30 s' % healed_after)
    info = wait_for('kblink info says working and names the heal', lambda: (lambda d: d if d.get('health') == 'working'
                    and any(h.get('outcome') == 'healed' for h in d.get('heals') or []) else None)(
                        kblink_json('info', address)), 30, interval=1)
    heals = info['heals']
    log('heals: %s; reconnect time %s' % (heals, info.get('reconnectTime')))
    figure('heal-reconnect-ms-kblinkd', (info.get('reconnectTime') or {}).get('lastMilliseconds'))
    _, text, _ = kblink('info', address, check_ok=True)
    healed = next(h for h in heals if h.get('outcome') == 'healed')
    check(re.search(r'Heal.*%s: healed' % re.escape(healed['step']), text),
          'kblink info does not name the heal: %r' % text)
    # The user's connect, then the heal: disconnect and connect, no ConnectProfile (an LE keyboard), within the
    # budget's 3 steps.
    calls = calls_to_device(address, since)
    log('kblinkd\'s calls on the keyboard during the heal: %s' % calls)
    check(calls[:3] == ['Connect', 'Disconnect', 'Connect'] and 'ConnectProfile' not in calls
          and heal_steps(calls) <= 3 and calls.count('Connect') - 1 <= 3,
          'kblinkd called more than the user\'s Connect and a budget of 3 disconnect-and-connect steps: %s' % calls)


def set_host_powered(on):
    """Adapter1.Powered of the computer's adapter, as bluetoothctl power and the desktops' switches do (bluetoothd
    answers Busy while a power change is under way: asked again)."""
    properties = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + HOST), 'org.freedesktop.DBus.Properties')

    def done():
        if bool(properties.Get('org.bluez.Adapter1', 'Powered')) != on:
            properties.Set('org.bluez.Adapter1', 'Powered', dbus.Boolean(on))
        return bool(properties.Get('org.bluez.Adapter1', 'Powered')) == on
    wait_for('the host adapter powered %s' % ('on' if on else 'off'), done, 60, interval=1)


@scenario('adapter-power-cycle', needs=['pair-just-works'])
def adapter_power_cycle():
    """The computer's adapter powered off and on: every keyboard that was connected (one: the rig keeps one link at a
    time) comes back and types (its evdev node) with no user action; kblinkd's connect requests stay within the
    [Health] budget (bluetoothd's log); a keyboard the user then disconnects is neither healed nor connected."""
    address = ADDR['plain']
    alone('plain')
    if not connected(address):
        kblink('connect', address, check_ok=True)
        wait_for('the plain keyboard connected', lambda: connected(address), 60)
    wait_for('its evdev keyboard node', lambda: evdev_keyboards(address), 60)
    settled('plain')
    since = calls_mark()
    set_host_powered(False)
    wait_for('BlueZ shows the keyboard disconnected once the adapter is off', lambda: not connected(address), 60)
    wait_for('kblinkd says asleep (paired and trusted, not failed)',
             lambda: kblink_json('info', address).get('health') == 'asleep', 30, interval=1)
    on = time.monotonic()
    set_host_powered(True)
    reconnects_by_itself('plain', 'the plain keyboard back by itself once the adapter is on again', 120)
    wait_for('its evdev keyboard node back (typing again) with no user action', lambda: evdev_keyboards(address), 60,
             interval=0.2)
    figure('adapter-power-cycle-back-s', '%.1f' % (time.monotonic() - on))
    wait_for('kblinkd says working', lambda: kblink_json('info', address).get('health') == 'working', 30, interval=1)
    calls = calls_to_device(address, since)
    log('kblinkd\'s calls on the keyboard after the power cycle: %s' % calls)
    check(heal_steps(calls) <= 3 and calls.count('Connect') <= 3,
          'kblinkd took more steps than its budget of 3 after the power cycle: %s' % calls)
    # The user disconnects it: nothing heals it, nothing connects it again.
    kblink('disconnect', address, check_ok=True)
    wait_for('the plain keyboard disconnected', lambda: not connected(address), 30)
    since = calls_mark()
    stays('the keyboard came back after kblink disconnect', lambda: not connected(address), 15)
    health = kblink_json('info', address).get('health')
    check(health == 'disconnected', 'after kblink disconnect its health is %s, not disconnected' % health)
    check(not calls_to_device(address, since), 'kblinkd called BlueZ on a keyboard the user disconnected: %s'
          % calls_to_device(address, since))


def kblinkd_said(text, since):
    with open(os.path.join(OUT, 'kblinkd.log'), errors='replace') as f:
        f.seek(since)
        return text in f.read()


@scenario('resume-logind', needs=['pair-just-works'])
def resume_logind():
    """A suspend and resume announced by logind (python-dbusmock's logind template, on the guest's system bus, emits
    PrepareForSleep): the computer's adapter goes off while it sleeps, as in a suspend; kblinkd pauses healing, and
    after the resume the keyboard that was connected comes back by itself and types, with no user action, and
    kblinkd's connect requests stay within the budget."""
    address = ADDR['plain']
    alone('plain')
    if not connected(address):
        kblink('connect', address, check_ok=True)
        wait_for('the plain keyboard connected', lambda: connected(address), 60)
    wait_for('its evdev keyboard node', lambda: evdev_keyboards(address), 60)
    settled('plain')
    logind = Daemon([sys.executable, '-m', 'dbusmock', '--system', '--template', 'logind'], 'logind-mock.log')
    logind.start()
    try:
        wait_for('the logind mock on the system bus', lambda: bus.name_has_owner('org.freedesktop.login1'), 60)
        mock = dbus.Interface(bus.get_object('org.freedesktop.login1', '/org/freedesktop/login1'),
                              'org.freedesktop.DBus.Mock')
        said = os.path.getsize(os.path.join(OUT, 'kblinkd.log'))
        mock.EmitSignal('org.freedesktop.login1.Manager', 'PrepareForSleep', 'b', [dbus.Boolean(True)])
        wait_for('kblinkd pauses healing for the sleep', lambda: kblinkd_said('going to sleep', said), 30)
        set_host_powered(False)
        wait_for('BlueZ shows the keyboard disconnected while the computer sleeps', lambda: not connected(address), 60)
        since = calls_mark()
        resumed = time.monotonic()
        mock.EmitSignal('org.freedesktop.login1.Manager', 'PrepareForSleep', 'b', [dbus.Boolean(False)])
        set_host_powered(True)
        wait_for('kblinkd notices the resume', lambda: kblinkd_said('the computer resumed', said), 30)
        reconnects_by_itself('plain', 'the plain keyboard back by itself after the resume', 120)
        wait_for('its evdev keyboard node back (typing again) with no user action', lambda: evdev_keyboards(address),
                 60, interval=0.2)
        figure('resume-back-s', '%.1f' % (time.monotonic() - resumed))
        wait_for('kblinkd says working', lambda: kblink_json('info', address).get('health') == 'working', 30,
                 interval=1)
        calls = calls_to_device(address, since)
        log('kblinkd\'s calls on the keyboard after the resume: %s' % calls)
        check(heal_steps(calls) <= 3 and calls.count('Connect') <= 3,
              'kblinkd took more steps than its budget of 3 after the resume: %s' % calls)
    finally:
        logind.kill(signal.SIGTERM)


@scenario('pair-passkey-entry')
def pair_passkey():
    kb.do('agent', 'keyboardonly')
    shown = []

    def typed(code):
        shown.append(code)
        kb.do('type', code)
    status, events, err = pair('passkey', typed=typed)
    end = finished(events)
    check(shown, 'no passkey was shown: %s %s' % (events, err.strip()))
    check(re.fullmatch(r'\d{6}', shown[0]), 'the passkey shown is not six digits: %r' % shown[0])
    check(status == 0 and end.get('ok'), 'pair failed (exit %d): %s %s' % (status, end.get('message'), err.strip()))
    expect_paired('passkey')


def rediscover(name):
    """Scans until BlueZ knows `name` again under the host adapter (a forgotten keyboard is removed from BlueZ)."""
    def found():
        if host_device(ADDR[name]) is not None:
            return True
        kblink('scan', '--timeout', 10, '--json', timeout=90)
        clean_strays()
        return host_device(ADDR[name]) is not None
    wait_for('a scan finds %s again' % name, found, 120, interval=1)


def forget_both(name):
    kblink('forget', ADDR[name], check_ok=True)
    wait_for('BlueZ forgot %s' % name, lambda: host_device(ADDR[name]) is None
             or not host_device(ADDR[name]).get('Paired'), 30)
    kb.do('forget-host', name)
    kb.do('adv', name, 'on')
    rediscover(name)


def nothing_kept(name):
    device = host_device(ADDR[name])
    check(device is None or (not device.get('Paired') and not device.get('Trusted')),
          'something was kept: %s' % (dict(device) if device else None))


@scenario('pair-wrong-passkey', needs=['pair-passkey-entry'])
def pair_wrong_passkey():
    forget_both('passkey')

    def typed(code):
        kb.do('type', '%06d' % ((int(code) + 1) % 1000000))
    status, events, err = pair('passkey', typed=typed)
    end = finished(events)
    check(status == 1, 'pair with a wrong passkey exited %d, not 1' % status)
    check(end.get('ok') is False and 'passkey' in (end.get('message') or '').lower(),
          'no clear error: %s / %s' % (end, err.strip()))
    wait_for('nothing kept after the wrong passkey', lambda: nothing_kept('passkey') or True, 20)
    nothing_kept('passkey')


@scenario('pair-timeout', needs=['pair-wrong-passkey'])
def pair_timeout():
    kb.do('forget-host', 'passkey')
    rediscover('passkey')
    kb.do('type-never')
    status, events, err = pair('passkey', timeout=20)
    end = finished(events)
    check(status == 1, 'pair that nobody typed exited %d, not 1' % status)
    check(end.get('ok') is False and end.get('message'), 'no clear error: %s / %s' % (end, err.strip()))
    time.sleep(2)
    nothing_kept('passkey')
    kb.do('agent', 'justworks')


@scenario('battery-per-part')
def battery_split():
    status, events, err = pair('split')
    check(status == 0 and finished(events).get('ok'), 'pairing the split keyboard failed: %s %s' % (
        finished(events).get('message'), err.strip()))

    def parts():
        data = kblink_json('info', ADDR['split'])
        battery = {b['part']: b['level'] for b in data.get('battery') or []}
        return battery if len(battery) == 2 else None
    battery = wait_for('two battery parts in kblink info', parts, 60, interval=2)
    check(battery == {'left': 81, 'right': 64}, 'battery parts are %s, not left 81 / right 64' % battery)
    kb.do('battery', 'split', 1, 42)
    data = kblink_json('info', ADDR['split'], '--refresh', timeout=120)
    battery = {b['part']: b['level'] for b in data.get('battery') or []}
    check(battery == {'left': 81, 'right': 42}, 'after the right half dropped to 42: %s' % battery)


def key_action(name, key):
    shown = kblink_json('keymap', 'show', ADDR[name])
    return next((k['action'] for k in shown['keys'] if k['key'] == key), None)


@scenario('zmk-studio-push-pull')
def zmk_studio():
    status, events, err = pair('studio')
    check(status == 0 and finished(events).get('ok'), 'pairing failed: %s %s' % (finished(events).get('message'), err))
    # The keyboard holds its own keymap (layer 0: usage 0x04 + position, not kblink's default), read into the base
    # when it connected (or by the push first): one edit writes exactly one binding. Position 51 is A.
    kblink('keymap', 'set', ADDR['studio'], 'A', 'KC_B', check_ok=True)
    pushed = kblink_json('keymap', 'push', ADDR['studio'], timeout=300)
    check(pushed.get('ok'), 'push failed: %s' % pushed)
    check(pushed.get('driver') == 'zmk-studio', 'driver is %s' % pushed.get('driver'))
    check(pushed.get('written') == 1 and [c['key'] for c in pushed.get('changes', [])] == ['A'],
          'the push wrote %s binding(s), not only A: %s' % (pushed.get('written'), pushed.get('changes')))
    saved = kb.do('studio-get', 0, 51)
    check(saved == '11 %d' % 0x070005, 'the keyboard saved %r at A, not Key Press B (11 %d)' % (saved, 0x070005))
    check(kb.do('studio-get', 0, 50) == '11 %d' % (0x070000 | (0x04 + 50)), 'the key next to A was overwritten: %s'
          % kb.do('studio-get', 0, 50))
    pulled = kblink_json('keymap', 'pull', ADDR['studio'], timeout=300)
    check(pulled.get('ok') and pulled.get('changed') == 0, 'a pull after the push changed the draft: %s' % pulled)
    # Behind kblink's back (another Studio client): S (position 52) becomes Z; pull must bring it in.
    kb.do('studio-set', 0, 52, 11, 0x07001D)
    kblink_json('keymap', 'pull', ADDR['studio'], timeout=300)
    action = key_action('studio', 'S')
    check(action and 'Z' in action.upper(), 'after pull, S does %r, not Z' % action)


@scenario('zmk-studio-layers')
def zmk_studio_layers():
    if not connected(ADDR['studio']):
        status, events, err = pair('studio')
        check(status == 0 and finished(events).get('ok'), 'pairing failed: %s %s' % (finished(events).get('message'),
                                                                                      err))
    # The keyboard holds 4 layers named 'Layer N'; the draft removes its last one and renames layer 1.
    check(kb.do('studio-layers').startswith('4 '), 'the keyboard does not hold 4 layers: %s' % kb.do('studio-layers'))
    kblink('keymap', 'layer', 'remove', ADDR['studio'], '3', check_ok=True)
    kblink('keymap', 'layer', 'rename', ADDR['studio'], '1', 'Nav', check_ok=True)
    pushed = kblink_json('keymap', 'push', ADDR['studio'], timeout=300)
    check(pushed.get('ok'), 'push failed: %s' % pushed)
    layers = kb.do('studio-layers')
    check(layers == '3 Layer 0|Nav|Layer 2', 'after the push the keyboard holds %r, not 3 layers with Nav' % layers)
    pulled = kblink_json('keymap', 'pull', ADDR['studio'], timeout=300)
    check(pulled.get('ok') and pulled.get('deviceLayers') == 3, 'the pull after the push: %s' % pulled)
    shown = kblink_json('keymap', 'show', ADDR['studio'], '--layer', '1')
    check(shown.get('layerName') == 'Nav' and shown.get('layers') == 3, 'after pull, keymap show says %s layers, '
          'layer 1 named %r' % (shown.get('layers'), shown.get('layerName')))


@scenario('via-push-pull')
def via():
    status, events, err = pair('via')
    check(status == 0 and finished(events).get('ok'), 'pairing failed: %s %s' % (finished(events).get('message'), err))
    wait_for('a hidraw node for the VIA keyboard', lambda: hidraw_nodes(ADDR['via']), 30)
    # The keyboard holds its own keymap (0x04 + matrix index, not kblink's default), read into the base when it
    # connected (or by the push first): one edit writes exactly one binding. A sits at row 3, column 1.
    kblink('keymap', 'set', ADDR['via'], 'A', 'KC_B', check_ok=True)
    code, out, err = kblink('keymap', 'push', ADDR['via'], '--json', timeout=300)
    check(code == 0, 'push failed (exit %d): %s %s; keyboard: %s' % (code, out.strip()[-300:], err.strip()[-300:],
                                                                       via_kb.do('log')))
    pushed = json.loads(out)
    check(pushed.get('written') == 1 and [c['key'] for c in pushed.get('changes', [])] == ['A'],
          'the push wrote %s binding(s), not only A: %s' % (pushed.get('written'), pushed.get('changes')))
    check(via_kb.do('via-get', 0, 3, 1) == '0x0005', 'the keyboard holds %s at A, not KC_B' % via_kb.do(
        'via-get', 0, 3, 1))
    pulled = kblink_json('keymap', 'pull', ADDR['via'], timeout=300)
    check(pulled.get('ok') and pulled.get('changed') == 0, 'a pull after the push changed the draft: %s' % pulled)
    via_kb.do('via-set', 0, 3, 2, 0x001D)  # S becomes Z behind kblink's back
    kblink_json('keymap', 'pull', ADDR['via'], timeout=300)
    action = key_action('via', 'S')
    check(action and 'Z' in action.upper(), 'after pull, S does %r, not Z' % action)


KEY_F1, KEY_BRIGHTNESSDOWN = 59, 224  # linux/input-event-codes.h
FNMODE = '/sys/module/hid_apple/parameters/fnmode'
FIX_HOST = os.path.join(BUILD, 'kblink-fix-host')
FIX_ROOT = '/run/fix-host-root'  # what kblink-fix-host writes in the guest, whose / is read-only (writable_root)


def evdev_node(address):
    """/dev/input/eventN of the keyboard's evdev keyboard node, or None."""
    for block in evdev_keyboards(address):
        found = re.search(r'H: Handlers=.*\b(event\d+)', block)
        if found:
            return '/dev/input/' + found.group(1)
    return None


def keys_down(node, press, seconds=8):
    """Opens the evdev node, runs `press()`, and returns the key codes that went down (EV_KEY, value 1) within
    `seconds` (struct input_event: a timeval, then type, code and value)."""
    fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
    codes = []
    try:
        press()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not codes:
            if select.select([fd], [], [], 0.5)[0]:
                data = os.read(fd, 24 * 64)
                for i in range(0, len(data) - 23, 24):
                    _, _, kind, code, value = struct.unpack('qqHHi', data[i:i + 24])
                    if kind == 1 and value == 1:
                        codes.append(code)
    finally:
        os.close(fd)
    return codes


def hid_drivers(address):
    """The drivers bound to the HID devices whose HID_UNIQ is `address` (/sys/bus/hid/devices/*)."""
    drivers = []
    for name in sorted(os.listdir('/sys/bus/hid/devices')):
        with open('/sys/bus/hid/devices/%s/uevent' % name) as f:
            if ('hid_uniq=%s' % address.lower()) not in f.read().lower():
                continue
        link = '/sys/bus/hid/devices/%s/driver' % name
        drivers.append(os.path.basename(os.readlink(link)) if os.path.islink(link) else None)
    return drivers


def doctor_hid_driver(address):
    status, out, err = kblink('doctor', address, '--json')
    report = json.loads(out)
    found = [c for c in report['checks'] if c['id'] == 'keyboard.hid-driver'
             and (c.get('subject') or '').upper() == address]
    check(len(found) == 1, 'kblink doctor (exit %d) has no keyboard.hid-driver check for %s: %s' % (
        status, address, err.strip()[-300:]))
    return found[0]


def writable_root():
    """Writable copies of what kblink-fix-host writes (/etc/modprobe.d, /etc/udev/rules.d, /var/lib) under FIX_ROOT:
    the guest's / is this machine's, read-only. `in_fix_root(argv)` runs argv where they are mounted over the real
    folders (its own mount namespace)."""
    for folder, source in (('modprobe.d', '/etc/modprobe.d'), ('rules.d', '/etc/udev/rules.d'), ('var-lib', None)):
        subprocess.run(['mkdir', '-p', '%s/%s' % (FIX_ROOT, folder)], check=True)
        if source and os.path.isdir(source):
            subprocess.run(['cp', '-a', source + '/.', '%s/%s/' % (FIX_ROOT, folder)], check=True)


def in_fix_root(argv):
    binds = ' && '.join('mount --bind %s/%s %s' % (FIX_ROOT, folder, target) for folder, target in (
        ('modprobe.d', '/etc/modprobe.d'), ('rules.d', '/etc/udev/rules.d'), ('var-lib', '/var/lib')))
    return ['unshare', '-m', 'sh', '-c', binds + ' && exec "$0" "$@"'] + argv


def start_polkit():
    """polkitd (Debian's, this machine's) on the guest's system bus, with kblinkd's policy among its actions (in its
    own mount namespace: /usr/share/polkit-1/actions is read-only here), org.kblink1.fix-host's exec.path pointing
    at the kblink-fix-host of this build, so that pkexec checks that action."""
    actions = '/run/polkit-actions'
    subprocess.run(['mkdir', '-p', actions], check=True)
    subprocess.run(['cp', '-a', '/usr/share/polkit-1/actions/.', actions + '/'], check=True)
    with open(os.path.join(HERE, '..', '..', 'systemd', 'org.kblink1.policy')) as f:
        policy = re.sub(r'(org\.freedesktop\.policykit\.exec\.path">)[^<]*', r'\g<1>' + FIX_HOST, f.read())
    with open(actions + '/org.kblink1.policy', 'w') as f:
        f.write(policy)
    stop_polkit()
    polkitd = Daemon(['unshare', '-m', 'sh', '-c', 'mount --bind %s /usr/share/polkit-1/actions && exec '
                      '/usr/lib/polkit-1/polkitd --no-debug' % actions], 'polkitd.log')
    polkitd.start()
    wait_for('our polkitd on the system bus', lambda: polkit_pid() == polkitd.proc.pid, 60)
    return polkitd


def polkit_pid():
    """The process that owns org.freedesktop.PolicyKit1, or None."""
    if not bus.name_has_owner('org.freedesktop.PolicyKit1'):
        return None
    return int(dbus.Interface(bus.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus'),
                              'org.freedesktop.DBus').GetConnectionUnixProcessID('org.freedesktop.PolicyKit1'))


def stop_polkit():
    """Stops the polkitd that the bus started on demand (D-Bus activation: Debian's, without kblinkd's policy)."""
    pid = polkit_pid()
    if pid:
        os.kill(pid, signal.SIGTERM)
        wait_for('polkitd gone from the bus', lambda: polkit_pid() != pid, 30)


def doctor_fix(*arguments):
    """kblink doctor --fix --yes or --undo, as root, through pkexec and polkit, with the writable folders."""
    argv = [KBLINK, '--bus', 'system', 'doctor', ADDR['apple']] + list(arguments)
    done = subprocess.run(in_fix_root(argv), capture_output=True, text=True, timeout=180)
    with open(os.path.join(OUT, 'kblink.log'), 'a') as f:
        f.write('$ kblink doctor %s (pkexec, writable folders) -> %d\n%s%s\n' % (
            ' '.join(arguments), done.returncode, done.stdout, done.stderr))
    check(done.returncode == 0, 'kblink doctor %s exited %d: %s' % (
        ' '.join(arguments), done.returncode, (done.stderr or done.stdout).strip()[-300:]))
    return done.stdout


@scenario('hid-apple-fnmode')
def hid_apple_fnmode():
    """A keyboard claiming an Apple keyboard's IDs binds hid-apple, whose fnmode (3, auto: 1 for a name the kernel
    does not list) turns F1 into brightness down; kblink doctor names hid-apple and fnmode; kblink doctor --fix
    refuses without polkit and writes nothing; with polkitd running, kblink doctor --fix --yes (through pkexec and
    org.kblink1.fix-host, as root) writes the drop-in and fnmode 2, and F1 sends KEY_F1 in evdev; --undo removes the
    drop-in and puts fnmode back."""
    address = ADDR['apple']
    apple_kb.do('adv', 'on')
    try:
        rediscover('apple')  # under the host adapter only: kblinkd scans on the keyboards' adapters too
        status, events, err = pair('apple')
        check(status == 0 and finished(events).get('ok'), 'pairing failed: %s %s' % (
            finished(events).get('message'), err))
        node = wait_for('the evdev keyboard node of the Mac-mode keyboard', lambda: evdev_node(address), 30)
        check(hid_drivers(address) == ['apple'], 'its HID device is bound to %s, not hid-apple' % hid_drivers(address))
        before = open(FNMODE).read().strip()
        codes = keys_down(node, lambda: apple_kb.do('press', '0x3a'))
        check(codes == [KEY_BRIGHTNESSDOWN], 'F1 with fnmode %s sent %s, not KEY_BRIGHTNESSDOWN (%d)' % (
            before, codes, KEY_BRIGHTNESSDOWN))
        hid = doctor_hid_driver(address)
        log('kblink doctor: %s' % hid)
        check(hid['status'] == 'WARN' and 'hid-apple' in hid['found'] and 'fnmode' in hid['found'],
              'kblink doctor does not warn about hid-apple and fnmode: %s' % hid)
        check(hid.get('automaticFix') == 'hid-apple-fnmode=2', 'kblink doctor\'s fix is %s' % hid.get('automaticFix'))
        # The polkitd the bus starts on demand (Debian's, no kblinkd policy) does not know org.kblink1.fix-host:
        # --fix refuses and changes nothing.
        drop_in = FIX_ROOT + '/modprobe.d/kblink-hid-apple.conf'
        status, out, err = kblink('doctor', address, '--fix', '--yes')
        check(status != 0 and 'org.kblink1.fix-host' in err and open(FNMODE).read().strip() == before,
              'kblink doctor --fix without polkit\'s org.kblink1.fix-host exited %d, fnmode %s: %s' % (
                  status, open(FNMODE).read().strip(), (err or out).strip()[-300:]))
        writable_root()
        polkitd = start_polkit()
        try:
            doctor_fix('--fix', '--yes')
            check(open(FNMODE).read().strip() == '2', 'fnmode is %s after the fix, not 2' % open(FNMODE).read().strip())
            check(os.path.exists(drop_in) and 'options hid_apple fnmode=2' in open(drop_in).read(),
                  'the fix wrote no modprobe.d drop-in with fnmode=2')
            codes = keys_down(node, lambda: apple_kb.do('press', '0x3a'))
            check(codes == [KEY_F1], 'after the fix F1 sent %s, not KEY_F1 (%d)' % (codes, KEY_F1))
            hid = doctor_hid_driver(address)
            check(hid['status'] == 'OK', 'kblink doctor after the fix: %s' % hid)
            doctor_fix('--undo')
            check(not os.path.exists(drop_in), 'the drop-in is still there after the undo')
            check(open(FNMODE).read().strip() == before, 'fnmode is %s after the undo, not %s' % (
                open(FNMODE).read().strip(), before))
        finally:
            polkitd.kill(signal.SIGTERM)
    finally:
        apple_leaves()


def apple_leaves():
    """The Mac-mode keyboard leaves (one link at a time) and stops advertising; a cleanup that fails is logged, so
    that it never hides the failure the scenario met."""
    address = ADDR['apple']
    try:
        if connected(address):
            kblink('disconnect', address)
            wait_for('the Mac-mode keyboard disconnected', lambda: not connected(address), 30)
        wait_for('the Mac-mode keyboard stops advertising', lambda: apple_kb.do('adv', 'off') == '', 30, interval=2)
    except Failure as failure:
        log('cleanup: %s' % failure)


@scenario('heal-gives-up')
def heal_gives_up():
    """A keyboard whose report map read fails on its first connection (the Mac-mode keyboard, forgotten and paired
    again, answers it with an ATT error once): BlueZ's hog plugin never reads it again for that device
    (docs/real-bluez.md, finding 13), so no step heals it: kblinkd takes the budget's 3 steps (disconnect and
    connect each: no ConnectProfile for an LE keyboard), says failed with a reason, stops calling BlueZ, and does not
    count the keyboard as attached."""
    address = ADDR['apple']
    alone('apple')
    if host_device(address) is not None:
        kblink('forget', address, check_ok=True)
        wait_for('BlueZ forgot the Mac-mode keyboard', lambda: host_device(address) is None
                 or not host_device(address).get('Paired'), 30)
    apple_kb.do('report-map', 'fail-once')
    apple_kb.do('adv', 'on')
    try:
        # Under the host adapter only: kblinkd scans on the keyboards' adapters too, and a pairing through one of
        # their copies would connect the keyboard to a keyboard's adapter.
        rediscover('apple')
        since = calls_mark()
        status, events, err = pair('apple')
        check(status == 0 and finished(events).get('ok'), 'pairing failed: %s %s' % (
            finished(events).get('message'), err))
        wait_for('the keyboard refused the read of its report map', lambda: 'report-map-read-failed' in apple_kb.events,
                 60)
        info = wait_for('kblinkd says failed after its budget', lambda: (lambda d: d if d.get('health') == 'failed'
                        else None)(kblink_json('info', address)), 150, interval=2)
        check(not evdev_keyboards(address), 'an evdev node appeared after all')
        detail = info.get('healthDetail') or ''
        check('forget' in detail and 'pair' in detail, 'the failure does not say what to do: %r' % detail)
        calls = calls_to_device(address, since)
        log('kblinkd\'s calls on the keyboard: %s; heals %s' % (calls, info.get('heals')))
        check(heal_steps(calls) == 3 and 'ConnectProfile' not in calls and calls.count('Disconnect') == 3,
              'kblinkd took %d steps, not the budget\'s 3 disconnect-and-connect steps: %s' % (heal_steps(calls), calls))
        expect_presence(address, False, 'a failed keyboard is not counted as attached')
        mark = calls_mark()
        stays('kblinkd stops trying once failed', lambda: not calls_to_device(address, mark), 20, interval=2)
        check(kblink_json('info', address).get('health') == 'failed', 'no longer failed while nothing changed')
    finally:
        apple_leaves()


@scenario('auto-apply-on-reconnect', needs=['zmk-studio-push-pull'])
def auto_apply():
    address = ADDR['studio']
    alone('studio')
    if not connected(address):
        kblink('connect', address, check_ok=True)
        wait_for('the Studio keyboard connected', lambda: connected(address), 60)
    kblink('keymap', 'auto-apply', address, 'on', check_ok=True)
    kb.do('studio-set', 0, 51, 11, 0x070004)  # the keyboard drifted: A is A again
    # It goes away and comes back through kblink: switching the keyboard's radio off right after a connection can
    # crash bluetoothd 5.66 on the keyboard's side (docs/real-bluez.md); the plain keyboard's scenario covers that.
    settled('studio')
    kblink('disconnect', address, check_ok=True)
    wait_for('the Studio keyboard disconnected', lambda: not connected(address), 60)
    kblink('connect', address, check_ok=True)
    wait_for('the Studio keyboard reconnected', lambda: connected(address), 90)
    wait_for('kblinkd re-applied B to A', lambda: kb.do('studio-get', 0, 51) == '11 %d' % 0x070005, 120, interval=2)


@scenario('bluetoothd-restart', needs=['pair-just-works'])
def bluetoothd_restart():
    """Every keyboard bonded before bluetoothd restarts is listed after it (bluetoothd loads the devices whose keys
    it stored; what it only discovered, or paired without a bond, is gone). Which keyboards are bonded depends on the
    scenarios run before: in a fresh guest after a broken stack, only those this one needs."""
    address = ADDR['plain']
    paired_before = {k['address'].upper() for k in kblink_json('list') if k['paired'] and k['bonded']}
    check(address in paired_before, 'the plain keyboard is bonded before the restart: %s' % sorted(paired_before))
    for name in BLUEZ_SERVED:  # after the restart only the plain keyboard advertises (one link at a time)
        if name != 'plain':
            kb.do('adv', name, 'off')
    via_kb.do('adv', 'off')
    alone('plain')
    if not connected(address):
        kblink('connect', address, check_ok=True)
    wait_for('the plain keyboard connected before the restart', lambda: connected(address), 60)
    bluetoothd.kill()
    wait_for('kblinkd notices BlueZ left', lambda: not manager_property('BlueZRunning'), 30)
    expect_presence(address, False, 'no keyboard attached while BlueZ is gone')
    bluetoothd.start()
    wait_for('kblinkd notices BlueZ is back', lambda: manager_property('BlueZRunning'), 60)
    # The keyboards register their GATT services and agent again; plain advertises. bluetoothd answers slowly while it
    # sets its adapters up again (keyboards.py CALL_TIMEOUT).
    kb.do('restart', 'plain', timeout=240)
    # bluetoothd put it on hci1's kernel connect list again when it started (it is paired and trusted). When it is not
    # back within a minute, the person connects it with kblink, through kblinkd's model of the restarted BlueZ: in
    # some runs the host controller scanned twice in three minutes after the restart and never connected the
    # advertising keyboard, even after the keyboard was switched off and on (docs/real-bluez.md).
    try:
        reconnects_by_itself('plain', 'the plain keyboard reconnects by itself after the restart', 60,
                             switch_after=None)
    except Failure as failure:
        log('%s; connecting it with kblink connect' % failure)
        kblink('connect', address, check_ok=True, timeout=120)
        wait_for('the plain keyboard connected with kblink connect after the restart', lambda: connected(address), 90)
    expect_presence(address, True, 'attached again after bluetoothd restarted', timeout=60)
    listed = {k['address'].upper() for k in kblink_json('list')}
    check(paired_before <= listed, 'kblink list lost keyboards bonded before the restart: %s (listed: %s)' % (
        sorted(paired_before - listed), sorted(listed)))


@scenario('forget', needs=['pair-just-works'])
def forget():
    address = ADDR['plain']
    kblink('forget', address, check_ok=True)
    wait_for('BlueZ no longer has it paired', lambda: host_device(address) is None
             or not host_device(address).get('Paired'), 30)
    wait_for('kblink list no longer shows it paired', lambda: not any(
        k['address'].upper() == address and k['paired'] for k in kblink_json('list')), 30)
    wait_for('not attached once forgotten', lambda: all(e[1].upper() != address for e in presence()[1]), 30)


@scenario('battery-upower', needs=['battery-per-part'])
def battery_upower():
    """UPower, started here, lists the split keyboard, under bluetoothd -E (so BatteryProviderManager1 exists).
    It lists one battery for it: bluetoothd publishes one Battery1 per device, on the device's path (src/battery.c),
    from the device's first Battery Service ("More than one BATT service exists for this device"), and ignores a
    provider's battery for a device that already has one, which this scenario checks with a provider of its own.
    So the right half cannot reach UPower through BlueZ (docs/real-bluez.md, docs/desktop.md)."""
    global bluetoothd
    address = ADDR['split']
    path = '/org/bluez/%s/dev_%s' % (HOST, address.replace(':', '_'))
    # Last, because it restarts bluetoothd with experimental features (-E): after such a restart kblinkd stopped
    # following BlueZ in three runs of three (docs/real-bluez.md), and no later scenario may depend on it.
    for name in BLUEZ_SERVED:
        if name != 'split':
            kb.do('adv', name, 'off')
    via_kb.do('adv', 'off')
    alone('split')
    bluetoothd.kill()
    wait_for('bluetoothd gone', lambda: not bus.name_has_owner('org.bluez'), 30)
    bluetoothd = Daemon(BLUETOOTHD_ARGV + ['-E'], 'bluetoothd.log')
    bluetoothd.start()
    wait_for('bluetoothd back with its adapters', lambda: HOST in adapters(), 90)
    kb.do('restart', 'split', timeout=240)

    attempts = []

    def connect():  # as in reconnects_by_itself: a keyboard that does not come back is switched off and on, once
        if not connected(address):
            if len(attempts) == 2:
                log('split: two connection attempts failed; switched off and on')
                kb.do('power', 'split', 'off')
                kb.do('power', 'split', 'on')
            attempts.append(time.monotonic())
            dbus.Interface(bus.get_object('org.bluez', path), 'org.bluez.Device1').Connect(timeout=60)
        return connected(address)
    wait_for('the split keyboard connected to bluetoothd -E', connect, 180, interval=3)
    def own_battery():  # bluetoothd registers Battery1 first and reads the level a moment later
        found = bluez_objects().get(dbus.ObjectPath(path), {}).get('org.bluez.Battery1')
        return found if found and int(found.get('Percentage', 0)) > 0 else None
    battery = wait_for('BlueZ\'s Battery1 on the split keyboard, with its level', own_battery, 60)
    check(str(battery.get('Source')) == 'GATT Battery Service',
          'Battery1 of the split keyboard has Source %r, not BlueZ\'s own' % battery.get('Source'))
    left = int(battery['Percentage'])
    upowerd = Daemon(['/usr/libexec/upowerd', '-v'], 'upowerd.log')
    upowerd.start()
    provider = None
    try:
        def entries():
            done = subprocess.run(['upower', '--dump'], capture_output=True, text=True, timeout=60)
            with open(os.path.join(OUT, 'upower-dump.txt'), 'w') as f:
                f.write(done.stdout)
            return [b for b in done.stdout.split('\n\n') if 'dev_' + address.replace(':', '_') in b
                    or LABELS['split'] in b]
        found = wait_for('upower --dump lists the split keyboard', entries, 120, interval=2)
        levels = [int(m.group(1)) for b in found for m in [re.search(r'percentage:\s+(\d+)', b)] if m]
        check(levels == [left], 'upower lists %s for the split keyboard, not one battery at %d %%' % (levels, left))

        # A provider's battery for the same device: bluetoothd keeps its own.
        provider = subprocess.Popen(
            [sys.executable, '-u', os.path.join(HERE, 'battery_provider.py'), HOST, path, '42', 'rig: right half'],
            stdout=subprocess.PIPE, stderr=open(os.path.join(OUT, 'battery-provider.err'), 'a'), text=True)
        line = provider.stdout.readline().strip()
        check(line == 'registered', 'the rig\'s battery provider was not registered: %s' % line)
        bluetoothd_log = os.path.join(OUT, 'bluetoothd.log')
        wait_for('bluetoothd ignores a second battery for the split keyboard',
                 lambda: 'is already provided, ignoring the new one' in open(bluetoothd_log).read(), 60)
        battery = bluez_objects()[dbus.ObjectPath(path)]['org.bluez.Battery1']
        check(str(battery.get('Source')) == 'GATT Battery Service' and int(battery['Percentage']) == left,
              'the provider replaced BlueZ\'s own battery: %s' % dict(battery))
        check(entries() and len(entries()) == 1, 'upower lists the split keyboard %d times' % len(entries()))
    finally:
        if provider:
            provider.kill()
        upowerd.kill(signal.SIGTERM)


def bluetoothd_signal():
    """The signal that crashed bluetoothd, or None while it runs or after the rig stopped it itself (SIGKILL, SIGTERM:
    bluetoothd-restart and battery-upower do)."""
    code = bluetoothd.proc.poll() if bluetoothd.proc is not None else None
    return -code if code is not None and code < 0 and -code not in (signal.SIGKILL, signal.SIGTERM) else None


def kernel_oops_frame():
    """The first frame of the Bluetooth module within 40 lines after an Oops or a kernel BUG in the guest's kernel
    log, without its timestamp; None when there is none."""
    lines = subprocess.run(['dmesg'], capture_output=True, text=True).stdout.splitlines()
    for i, line in enumerate(lines):
        if 'Oops' in line or 'kernel BUG' in line:
            for frame in lines[i:i + 40]:
                if '[bluetooth]' in frame:
                    return re.sub(r'^\[ *[0-9.]*\] *', '', frame).strip()
    return None


def stack_broken():
    """Why the guest's Bluetooth stack cannot be trusted any more, or None. Debian 12's bluetoothd 5.66 can die of
    SIGSEGV in its ATT/GATT clean-up as a link is reset while it still sets the link up, and its 6.1 kernel can oops
    in hci_chan_del as bluetoothd closes an L2CAP socket then (docs/real-bluez.md). Neither is kblink's, and after
    either every later scenario would fail for it: starting bluetoothd again in the same guest did not bring the
    stack back reliably (it once hung for 90 s, then was killed)."""
    signal_number = bluetoothd_signal()
    if signal_number is not None:
        return 'bluetoothd was killed by signal %d (a BlueZ 5.66 bug)' % signal_number
    frame = kernel_oops_frame()
    if frame:
        return 'the kernel oopsed in its Bluetooth code (%s; a kernel bug)' % frame
    return None


# Where each scenario run so far started in OUT/bluetoothd.log: (name, byte offset), in order.
scenario_starts = []


def bluetoothd_log_size():
    try:
        return os.path.getsize(os.path.join(OUT, 'bluetoothd.log'))
    except OSError:
        return 0


def lost_att_writes():
    """Lines on the ATT PDUs bluetoothd could not write during the last scenario and the one before it. BlueZ before
    5.78 takes such a write for a sent one (can_write_data in src/shared/att.c), so the peer waiting for it drops the
    link when ATT's 30 s timeout ends, which can fail the next scenario as well as this one (docs/real-bluez.md,
    finding 17)."""
    starts = scenario_starts[-2:]
    if not starts:
        return []
    with open(os.path.join(OUT, 'bluetoothd.log'), 'rb') as f:
        f.seek(starts[0][1])
        text = f.read().decode('utf-8', 'replace')
    lines = []
    offset = starts[0][1]
    for index, (scenario, start) in enumerate(starts):
        end = starts[index + 1][1] if index + 1 < len(starts) else None
        part = text[start - offset:None if end is None else end - offset]
        lost = [l for l in part.splitlines() if 'bt_att_chan_write()' in l and 'write failed:' in l]
        if lost:
            lines.append('  bluetoothd could not write %d ATT PDU(s) during %s (%s); BlueZ before 5.78 takes that '
                         'for sent, and the peer drops the link 30 s later (docs/real-bluez.md, finding 17)'
                         % (len(lost), scenario, lost[-1].split('write failed:', 1)[1].strip()))
    return lines


def run_scenario(name, function):
    """Runs one scenario; returns its result line and why the stack broke during it (None when it did not)."""
    t0 = time.monotonic()
    since = time.strftime('%H:%M:%S')
    scenario_starts.append((name, bluetoothd_log_size()))
    crash_file = os.path.join(OUT, 'crash-bluetoothd-in.txt')  # scripts/real-bluez-test --crash-bluetoothd-in NAME
    if os.path.exists(crash_file) and open(crash_file).read().split() == [name]:
        log('%s: crashing bluetoothd (SIGSEGV), as asked, to check the recovery' % name)
        bluetoothd.kill(signal.SIGSEGV)
    line = attempt(name, function)
    broken = stack_broken()
    if not line.startswith('PASS') or broken:
        stuck = diagnose_failure(name, since, broken)
        broken = broken or stuck
    return line, broken, t0


def attempt(name, function):
    try:
        function()
        return 'PASS %s' % name
    except Failure as failure:
        return 'FAIL %s: %s' % (name, failure)
    except Exception as error:
        traceback.print_exc()
        return 'FAIL %s: %s: %s' % (name, type(error).__name__, error)


def diagnose_failure(name, since, broken=None):
    """The kernel's Bluetooth errors (the console shows only critical ones) and a few lines on the failure; returns
    why the host is stuck when the HCI trace shows it (``hci_trace.STUCK``), else None."""
    with open(os.path.join(OUT, 'dmesg.log'), 'w') as f:
        subprocess.run(['dmesg'], stdout=f, stderr=subprocess.STDOUT)
    return diagnose(name, since, broken)


def diagnose(name, since, broken=None):
    """Appends a few lines on a failed scenario (or one during which the stack broke) to OUT/diagnosis.txt, which
    scripts/real-bluez-test prints after the results (CI keeps only the end of the output): whether bluetoothd still
    runs, why the stack broke, the kernel's Bluetooth complaints, and what the HCI trace shows since the scenario
    started. Returns why the host is stuck when the trace shows it (``hci_trace.STUCK``), else None."""
    lines = ['%s:' % name]
    stuck = None
    alive = bluetoothd.proc is not None and bluetoothd.proc.poll() is None
    lines.append('  bluetoothd %s' % ('running' if alive else 'gone (exit %s)' % bluetoothd.proc.returncode))
    if broken:
        lines.append('  the stack broke: %s' % broken)
    try:
        lines += lost_att_writes()
    except OSError as error:  # the diagnosis never hides the failure it explains
        lines.append('  bluetoothd.log not read: %s' % error)
    done = subprocess.run(['dmesg'], capture_output=True, text=True)
    complaints = [l for l in done.stdout.splitlines() if re.search(r'Bluetooth: |BUG|list_del|general protection', l)]
    if complaints:
        lines.append('  kernel: %d Bluetooth line(s), last: %s' % (len(complaints), complaints[-1].strip()[:160]))
    # Decoding the trace takes a minute under TCG late in a run, and later failures mostly follow from the first ones.
    traced = sum(1 for r in results if not r.startswith('PASS'))
    if traced <= 2:
        log('%s failed: reading the HCI trace for its diagnosis' % name)  # progress, for the host's watchdog
        try:
            keyboards = {n: (ADDR[n], CONTROLLER[n]) for n in ADDR if n in CONTROLLER}
            summary, stuck = hci_trace.summarize(TRACE, since, int(HOST[3:]), keyboards)
            lines += summary
        except Exception as error:  # the diagnosis never hides the failure it explains
            lines.append('  HCI trace not read: %s' % error)
    with open(os.path.join(OUT, 'diagnosis.txt'), 'a') as f:
        f.write('\n'.join(lines) + '\n')
    return stuck


def main():
    global HOST, ADDR_HOST, kb, via_kb, apple_kb, bluetoothd, kblinkd
    # The VIA keyboard takes the last controller through the HCI user channel before bluetoothd starts, so
    # bluetoothd never sees it.
    via_kb = Keyboards([VENV_PYTHON, '-u', os.path.join(HERE, 'via_keyboard.py'), '6'], 'via-keyboard')
    ADDR['via'] = via_kb.ready.split('via=', 1)[1].strip().upper()
    log('the VIA keyboard is ready')  # a line of progress for the host's watchdog (REALSTACK_STALL)
    # The Mac-mode keyboard (Bumble as well) takes the controller after it, silent until its scenario.
    apple_kb = Keyboards([VENV_PYTHON, '-u', os.path.join(HERE, 'apple_keyboard.py'), '7', 'quiet'], 'apple-keyboard')
    ADDR['apple'] = apple_kb.ready.split('apple=', 1)[1].strip().upper()
    log('the Mac-mode keyboard is ready')
    # Debian's defaults (no -E; DeviceID on: bluetoothd serves its own Device Information beside the keyboards'),
    # except that discovered devices do not expire (a scan's finds stay under the host adapter until the scenarios
    # pair them, instead of being found again by whichever adapter discovers first) and one ATT channel per link
    # (with EATT's extra channels, btvirt loses the keyboards' notifications: docs/real-bluez.md).
    with open('/run/realstack-main.conf', 'w') as f:
        f.write('[General]\nTemporaryTimeout = 0\n\n[GATT]\nChannels = 1\n')
    bluetoothd = Daemon(BLUETOOTHD_ARGV, 'bluetoothd.log')
    bluetoothd.start()
    wait_for('bluetoothd with five adapters (btvirt made seven: one dead, one the VIA keyboard\'s)',
             lambda: len(adapters()) >= 5, 90)
    live = adapters()
    HOST, keyboard_adapters = live[0], live[1:5]
    ADDR_HOST = adapter_address(HOST)
    assignments = list(zip(BLUEZ_SERVED, keyboard_adapters))
    for name, hci in assignments:
        ADDR[name] = adapter_address(hci).upper()
        CONTROLLER[name] = int(hci[3:])
    CONTROLLER['via'] = 6  # via_keyboard.py's controller, taken before bluetoothd started
    CONTROLLER['apple'] = 7  # apple_keyboard.py's
    log('host adapter', HOST, ADDR_HOST, 'keyboards', ADDR)
    host_properties = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + HOST),
                                     'org.freedesktop.DBus.Properties')

    def host_powered():  # bluetoothd answers Busy while it still sets the adapter up after starting: asked again
        if not host_properties.Get('org.bluez.Adapter1', 'Powered'):
            host_properties.Set('org.bluez.Adapter1', 'Powered', dbus.Boolean(True))
        return bool(host_properties.Get('org.bluez.Adapter1', 'Powered'))
    wait_for('the host adapter powered', host_powered, 60, interval=1)
    kb = Keyboards([sys.executable, '-u', os.path.join(HERE, 'keyboards.py')] + ['%s=%s' % a for a in assignments],
                   'keyboards')
    kblinkd = Daemon([KBLINKD, '--bus', 'system', '--state-dir', '/run/kblink-state', '--log-level', 'debug'],
                     'kblinkd.log')
    kblinkd.start()
    wait_for('kblinkd on the bus', lambda: manager_property('BlueZRunning'), 60)
    log('setup done')
    only_file = os.path.join(OUT, 'only.txt')  # scripts/real-bluez-test --only NAME,NAME
    only = open(only_file).read().split() if os.path.exists(only_file) else []
    unknown = [name for name in only if name not in NEEDS]
    if unknown:
        raise Exception('no scenario named %s (scenarios.py has %s)' % (', '.join(unknown), ', '.join(NEEDS)))
    scenarios = planned(only)
    with open(os.path.join(OUT, 'planned.txt'), 'w') as f:
        f.write(''.join('%s\n' % name for name, _ in scenarios))
    for name, function in scenarios:
        line, broken, t0 = run_scenario(name, function)
        results.append(line)
        log(line, '(%.0fs)' % (time.monotonic() - t0))
        with open(os.path.join(OUT, 'results.txt'), 'a') as f:
            f.write(line.replace('\n', ' ') + '\n')
        if broken:
            # scripts/real-bluez-test runs this scenario (when it failed) and the ones after it in a fresh guest.
            log('%s: %s; no further scenario runs in this guest' % (name, broken))
            with open(os.path.join(OUT, 'broken.txt'), 'w') as f:
                f.write('%s %s\n' % (name, broken))
            break
    passed = sum(1 for r in results if r.startswith('PASS'))
    log('%d passed, %d failed' % (passed, len(results) - passed))
    if os.path.exists(TRACE):  # for reading with btmon -r
        subprocess.run(['cp', TRACE, os.path.join(OUT, 'hci.btsnoop')])
    kblinkd.kill(signal.SIGTERM)
    return 0 if passed == len(results) else 1


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Exception as error:
        traceback.print_exc()
        with open(os.path.join(OUT, 'results.txt'), 'a') as f:
            f.write('FAIL setup: %s\n' % str(error).replace('\n', ' '))
        sys.exit(1)
