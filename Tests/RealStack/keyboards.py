#!/usr/bin/python3
# The test keyboards of the real-stack rig, as BLE peripherals served by bluetoothd's own GATT server
# (GattManager1.RegisterApplication) and advertised with LEAdvertisingManager1, each on its own btvirt adapter.
#
# Usage: keyboards.py NAME=hciN [NAME=hciN ...]    (names: plain, passkey, split, studio, via)
#
# Commands arrive on standard input, one per line; every answer and event is one line on standard output
# ("ok ...", "error ...", or an event such as "passkey-asked plain"). The scenario runner (scenarios.py) drives it.
#   agent justworks|keyboardonly      the default agent's IO capability (it answers the keyboard adapters' pairings)
#   type DIGITS | type-wrong | type-never  how the next RequestPasskey is answered (the person at the keyboard)
#   adv KB on|off                     advertise (pairing mode / waiting for its host) or stop
#   power KB on|off                   switch the keyboard's radio on or off
#   battery KB INDEX LEVEL            set a Battery Level and notify it
#   forget-host KB                    the keyboard drops its bond with the host (RemoveDevice on its adapter)
#   studio-get LAYER POS | studio-set LAYER POS BEHAVIOR PARAM1   the ZMK Studio keyboard's saved keymap
#   studio-layers                     its saved layer count and names (`4 Layer 0|Layer 1|...`)
#   via-get LAYER ROW COL | via-set LAYER ROW COL KEYCODE         the VIA keyboard's keymap
#   hid KB missing-once               the keyboard serves its GATT database without its HID service until its next
#                                     link goes down, then with it again (a firmware that came up without HID)
#   hid KB present                    the keyboard serves its HID service again now (a pending missing-once is dropped)
#   log                               counters (writes seen) for the scenario checks
import sys
import time

import dbus
import dbus.service
import dbus.mainloop.glib
from gi.repository import GLib

from via_firmware import VIAFirmware

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
GATT_SVC, GATT_CHR, GATT_DSC = 'org.bluez.GattService1', 'org.bluez.GattCharacteristic1', 'org.bluez.GattDescriptor1'
PROPS, OM = 'org.freedesktop.DBus.Properties', 'org.freedesktop.DBus.ObjectManager'
ADAPTER_IF = 'org.bluez.Adapter1'


def say(*words):
    print(*words, flush=True)


# How long one call to bluetoothd may take. Right after bluetoothd (re)started, under TCG on a loaded machine, it sets
# up five adapters before it answers anything else: a call then waited out libdbus's default 25 s (NoReply).
CALL_TIMEOUT = 90


def set_adapter(props, name, value, patience=30):
    """Sets an Adapter1 property; bluetoothd answers org.bluez.Error.Busy while it still sets an adapter up after
    starting (or while a power change is under way), so Busy is asked again, every half second, for `patience` s."""
    deadline = time.monotonic() + patience
    while True:
        try:
            props.Set(ADAPTER_IF, name, value, timeout=CALL_TIMEOUT)
            return
        except dbus.DBusException as error:
            if error.get_dbus_name() != 'org.bluez.Error.Busy' or time.monotonic() > deadline:
                raise
        time.sleep(0.5)


class Obj(dbus.service.Object):
    def __init__(self, path, iface, props):
        self.path, self.iface, self.props = path, iface, props
        dbus.service.Object.__init__(self, bus, path)

    @dbus.service.method(PROPS, in_signature='s', out_signature='a{sv}')
    def GetAll(self, iface):
        return self.props

    @dbus.service.signal(PROPS, signature='sa{sv}as')
    def PropertiesChanged(self, iface, changed, invalidated):
        pass


class Service(Obj):
    def __init__(self, app, uuid):
        index = len(app.services)
        super().__init__('%s/service%d' % (app.path, index), GATT_SVC, {'UUID': uuid, 'Primary': True})
        self.chars = []
        app.services.append(self)


class Char(Obj):
    """A characteristic; `on_write(bytes)` handles writes, `notify(bytes)` sends a notification or indication."""

    def __init__(self, service, uuid, flags, value=b'', on_write=None):
        index = len(service.chars)
        super().__init__('%s/char%d' % (service.path, index), GATT_CHR,
                         {'UUID': uuid, 'Service': dbus.ObjectPath(service.path), 'Flags': dbus.Array(flags, 's')})
        self.value, self.on_write, self.descs, self.notifying = bytes(value), on_write, [], False
        service.chars.append(self)

    @dbus.service.method(GATT_CHR, in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        offset = int(options.get('offset', 0))
        return dbus.Array(self.value[offset:], signature='y')

    @dbus.service.method(GATT_CHR, in_signature='aya{sv}')
    def WriteValue(self, value, options):
        data = bytes(value)
        if self.on_write:
            self.on_write(data)
        else:
            self.value = data

    @dbus.service.method(GATT_CHR)
    def StartNotify(self):
        self.notifying = True

    @dbus.service.method(GATT_CHR)
    def StopNotify(self):
        self.notifying = False

    def notify(self, data):
        self.value = bytes(data)
        self.PropertiesChanged(GATT_CHR, {'Value': dbus.Array(self.value, signature='y')}, [])


class Desc(Obj):
    def __init__(self, char, uuid, value):
        index = len(char.descs)
        super().__init__('%s/desc%d' % (char.path, index), GATT_DSC,
                         {'UUID': uuid, 'Characteristic': dbus.ObjectPath(char.path), 'Flags': dbus.Array(['read'], 's')})
        self.value = bytes(value)
        char.descs.append(self)

    @dbus.service.method(GATT_DSC, in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        return dbus.Array(self.value, signature='y')


class Advertisement(dbus.service.Object):
    def __init__(self, path, name):
        self.path, self.name = path, name
        dbus.service.Object.__init__(self, bus, path)

    @dbus.service.method(PROPS, in_signature='s', out_signature='a{sv}')
    def GetAll(self, iface):
        return {'Type': 'peripheral', 'ServiceUUIDs': dbus.Array(['1812'], signature='s'),
                'Appearance': dbus.UInt16(0x03C1), 'LocalName': self.name, 'Discoverable': True}

    @dbus.service.method('org.bluez.LEAdvertisement1')
    def Release(self):
        pass


class App(dbus.service.Object):
    def __init__(self, path):
        self.path, self.services = path, []
        self.hidden = set()  # service UUIDs left out of what bluetoothd is given (`hid KB missing-once`)
        dbus.service.Object.__init__(self, bus, path)

    @dbus.service.method(OM, out_signature='a{oa{sa{sv}}}')
    def GetManagedObjects(self):
        out = {}
        for s in self.services:
            if s.props['UUID'] in self.hidden:
                continue
            out[dbus.ObjectPath(s.path)] = {GATT_SVC: s.props}
            for c in s.chars:
                out[dbus.ObjectPath(c.path)] = {GATT_CHR: c.props}
                for d in c.descs:
                    out[dbus.ObjectPath(d.path)] = {GATT_DSC: d.props}
        return out


# HID: a boot-style keyboard with report id 1 (modifiers, reserved, six keys).
KEYBOARD_REPORT_MAP = bytes([
    0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x85, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01,
    0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00,
    0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xC0])
# VIA's raw HID collection (usage page 0xFF60, usage 0x61), report id 2, 32 bytes each way, as a BLE keyboard
# with one HID service carries it beside its keyboard collection.
VIA_REPORT_ID = 2
RAW_HID_REPORT_MAP = bytes([
    0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0x85, VIA_REPORT_ID,
    0x09, 0x62, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x81, 0x02,
    0x09, 0x63, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x91, 0x02, 0xC0])


def add_hid(app, report_map, raw_hid_handler=None):
    hid = Service(app, '1812')
    Char(hid, '2a4a', ['read'], bytes([0x11, 0x01, 0x00, 0x02]))  # HID Information
    Char(hid, '2a4b', ['read'], report_map)  # Report Map
    keys = Char(hid, '2a4d', ['read', 'notify'], bytes(8))  # Input report 1
    Desc(keys, '2908', bytes([0x01, 0x01]))
    raw_in = None
    if raw_hid_handler:
        raw_in = Char(hid, '2a4d', ['read', 'notify'], bytes(32))  # Input report 2 (VIA's answers)
        Desc(raw_in, '2908', bytes([VIA_REPORT_ID, 0x01]))
        raw_out = Char(hid, '2a4d', ['read', 'write', 'write-without-response'], bytes(32),
                       on_write=lambda data: raw_hid_handler(data, raw_in))  # Output report 2 (VIA's requests)
        Desc(raw_out, '2908', bytes([VIA_REPORT_ID, 0x02]))
    Char(hid, '2a4e', ['read', 'write-without-response'], bytes([1]))  # Protocol Mode
    Char(hid, '2a4c', ['write-without-response'], bytes(1))  # Control Point
    return raw_in


def add_device_information(app, fields, pnp):
    dis = Service(app, '180a')
    for uuid, text in fields:
        Char(dis, uuid, ['read'], text.encode())
    Char(dis, '2a50', ['read'], bytes([pnp[0], pnp[1] & 0xFF, pnp[1] >> 8, pnp[2] & 0xFF, pnp[2] >> 8,
                                       pnp[3] & 0xFF, pnp[3] >> 8]))


def add_battery(app, level, description=None):
    bas = Service(app, '180f')
    char = Char(bas, '2a19', ['read', 'notify'], bytes([level]))
    if description:
        Desc(char, '2901', description.encode())
    return char


# ---- ZMK Studio: framing and the protobuf messages our driver sends (docs/protocols.md) ----
SOF, EOF, ESC = 0xAB, 0xAD, 0xAC


def frame(payload):
    out = [SOF]
    for b in payload:
        if b in (SOF, EOF, ESC):
            out.append(ESC)
        out.append(b)
    out.append(EOF)
    return bytes(out)


def varint(n):
    out = bytearray()
    n &= (1 << 64) - 1
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, data):
    return varint((number << 3) | 2) + varint(len(data)) + data


def zigzag(n):
    return (n << 1) ^ (n >> 31)


def unzigzag(n):
    return (n >> 1) ^ -(n & 1)


def parse(data):
    """Protobuf fields: {number: [value, ...]}, varints as ints and length-delimited fields as bytes."""
    fields, i = {}, 0
    while i < len(data):
        key, i = read_varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = read_varint(data, i)
        elif wire == 2:
            length, i = read_varint(data, i)
            value, i = data[i:i + length], i + length
        else:
            raise ValueError('wire type %d' % wire)
        fields.setdefault(number, []).append(value)
    return fields


def read_varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


BEHAVIORS = [(11, 'Key Press'), (12, 'Momentary Layer'), (13, 'Transparent'), (14, 'None'), (15, 'Toggle Layer'),
             (16, 'Studio Unlock')]


class StudioFirmware:
    """ZMK Studio's RPC side: 4 layers of 87 keys (the AULA F87 layout), unlocked, edits staged until saved."""

    def __init__(self, char_ref):
        self.char_ref = char_ref
        keys = 87
        base = [(11, (0x07 << 16) | (0x04 + i % 0x60)) for i in range(keys)]
        self.saved = [list(base)] + [[(13, 0)] * keys for _ in range(3)]
        self.active = [list(layer) for layer in self.saved]
        # Layer ids apart from indices (remove_layer takes a layer out of the order), names by id.
        self.saved_ids, self.saved_names = [0, 1, 2, 3], {i: 'Layer %d' % i for i in range(4)}
        self.active_ids, self.active_names = list(self.saved_ids), dict(self.saved_names)
        self.buffer, self.in_frame, self.escaped = bytearray(), False, False
        self.sets = self.saves = 0

    def receive(self, data):
        for b in data:
            if self.escaped:
                self.buffer.append(b)
                self.escaped = False
            elif b == SOF:
                self.buffer, self.in_frame = bytearray(), True
            elif not self.in_frame:
                continue
            elif b == ESC:
                self.escaped = True
            elif b == EOF:
                self.in_frame = False
                self.handle(bytes(self.buffer))
            else:
                self.buffer.append(b)

    def send(self, response):
        data = frame(response)
        for i in range(0, len(data), 20):
            self.char_ref().notify(data[i:i + 20])

    def handle(self, payload):
        request = parse(payload)
        rid = request.get(1, [0])[0]
        notifications = []
        if 3 in request:
            core = parse(request[3][0])
            if 1 in core:
                answer = field_bytes(3, field_bytes(1, field_bytes(1, b'RS Studio F87') + field_bytes(2, b'\x52\x53')))
            elif 2 in core:
                answer = field_bytes(3, field_varint(2, 1))  # UNLOCKED
            else:
                answer = field_bytes(2, field_varint(2, 2))  # RPC_NOT_FOUND
        elif 4 in request:
            behaviors = parse(request[4][0])
            if 1 in behaviors:
                answer = field_bytes(4, field_bytes(1, b''.join(field_varint(1, b) for b, _ in BEHAVIORS)))
            elif 2 in behaviors:
                wanted = parse(behaviors[2][0]).get(1, [0])[0]
                name = dict(BEHAVIORS).get(wanted)
                answer = (field_bytes(4, field_bytes(2, field_varint(1, wanted) + field_bytes(2, name.encode())))
                          if name else field_bytes(2, field_varint(2, 0)))
            else:
                answer = field_bytes(2, field_varint(2, 2))
        elif 5 in request:
            keymap = parse(request[5][0])
            if 1 in keymap:
                layers = b''
                for index, layer in enumerate(self.active):
                    bindings = b''.join(field_bytes(3, field_varint(1, zigzag(b)) + field_varint(2, p))
                                        for b, p in layer)
                    lid = self.active_ids[index]
                    name = self.active_names.get(lid, '').encode()
                    layers += field_bytes(1, field_varint(1, lid) + field_bytes(2, name) + bindings)
                answer = field_bytes(5, field_bytes(1, layers + field_varint(2, 0) + field_varint(3, 20)))
            elif 2 in keymap:
                edit = parse(keymap[2][0])
                lid, position = edit.get(1, [0])[0], edit.get(2, [0])[0]
                layer = self.active_ids.index(lid) if lid in self.active_ids else len(self.active)
                binding = parse(edit.get(3, [b''])[0])
                behavior, param1 = unzigzag(binding.get(1, [0])[0]), binding.get(2, [0])[0]
                if layer < len(self.active) and position < len(self.active[layer]):
                    self.active[layer][position] = (behavior, param1)
                    self.sets += 1
                    notifications.append(field_bytes(2, field_bytes(5, field_varint(1, 1))))
                    answer = field_bytes(5, field_varint(2, 0))
                else:
                    answer = field_bytes(5, field_varint(2, 1))
            elif 3 in keymap:
                answer = field_bytes(5, field_varint(3, int(self.active != self.saved)))
            elif 4 in keymap:
                self.saved = [list(layer) for layer in self.active]
                self.saved_ids, self.saved_names = list(self.active_ids), dict(self.active_names)
                self.saves += 1
                notifications.append(field_bytes(2, field_bytes(5, field_varint(1, 0))))
                answer = field_bytes(5, field_bytes(4, field_varint(1, 1)))
            elif 5 in keymap:
                self.active = [list(layer) for layer in self.saved]
                self.active_ids, self.active_names = list(self.saved_ids), dict(self.saved_names)
                notifications.append(field_bytes(2, field_bytes(5, field_varint(1, 0))))
                answer = field_bytes(5, field_varint(5, 1))
            elif 10 in keymap:  # remove_layer { layer_index }: ok {} or err INVALID_INDEX (2)
                index = parse(keymap[10][0]).get(1, [0])[0]
                if index < len(self.active) and len(self.active) > 1:
                    del self.active[index]
                    del self.active_ids[index]
                    notifications.append(field_bytes(2, field_bytes(5, field_varint(1, 1))))
                    answer = field_bytes(5, field_bytes(10, field_bytes(1, b'')))
                else:
                    answer = field_bytes(5, field_bytes(10, field_varint(2, 2)))
            elif 12 in keymap:  # set_layer_props { layer_id, name }: an empty name is OK and changes nothing, as in ZMK
                props = parse(keymap[12][0])
                lid, name = props.get(1, [0])[0], props.get(2, [b''])[0].decode()
                if not name:
                    answer = field_bytes(5, field_varint(12, 0))
                elif lid not in self.active_ids:
                    answer = field_bytes(5, field_varint(12, 2))
                else:
                    self.active_names[lid] = name
                    notifications.append(field_bytes(2, field_bytes(5, field_varint(1, 1))))
                    answer = field_bytes(5, field_varint(12, 0))
            else:
                answer = field_bytes(2, field_varint(2, 2))
        else:
            answer = field_bytes(2, field_varint(2, 2))
        for n in notifications:  # ZMK sends what a request raised before its answer
            self.send(n)
        self.send(field_bytes(1, field_varint(1, rid) + answer))


class Keyboard:
    def __init__(self, name, adapter):
        self.name, self.adapter = name, adapter
        self.path = '/rs/' + name
        self.app = App(self.path)
        self.adv = None
        self.batteries = []
        self.studio = self.via = None
        self.registrations = []  # callbacks of the re-registrations asked, the first one running (register_again)
        self.hid_watch = None  # the signal match of a pending `hid KB missing-once`
        label = {'plain': 'RS Plain K75', 'passkey': 'RS Passkey K75', 'split': 'RS Split Corne',
                 'studio': 'RS Studio F87', 'via': 'RS VIA 98'}[name]
        self.label = label
        if name == 'via':
            self.via = VIAFirmware()

            def answer(data, reply_char):
                reply = self.via.handle(data)
                if reply is not None:
                    reply_char.notify(reply)
            add_hid(self.app, KEYBOARD_REPORT_MAP + RAW_HID_REPORT_MAP, raw_hid_handler=answer)
        else:
            add_hid(self.app, KEYBOARD_REPORT_MAP)
        add_device_information(self.app, [
            ('2a29', 'RealStack Labs'), ('2a24', label.split()[-1] + '-' + name), ('2a25', 'SN-%s-0001' % name),
            ('2a26', '2.%d.0' % len(name)), ('2a27', 'rev %s' % name[0].upper()), ('2a28', 'zephyr-3.5.%d' % len(name)),
        ], (0x02, 0x1D50, 0x6100 + len(name), 0x0200 + len(name)))
        if name == 'split':
            self.batteries.append(add_battery(self.app, 81, 'Left'))
            self.batteries.append(add_battery(self.app, 64, 'Right'))
        else:
            self.batteries.append(add_battery(self.app, 77))
        if name == 'studio':
            chars = []
            self.studio = StudioFirmware(lambda: chars[0])
            svc = Service(self.app, '00000000-0196-6107-c967-c5cfb1c2482a')
            chars.append(Char(svc, '00000001-0196-6107-c967-c5cfb1c2482a', ['read', 'write', 'indicate'],
                              on_write=self.studio.receive))

    def adapter_object(self):
        return bus.get_object('org.bluez', '/org/bluez/' + self.adapter)

    # bluetoothd calls back into this process while it registers an application or an advertisement
    # (GetManagedObjects, GetAll), so those calls are made asynchronously; `done(error)` runs once they answered.
    def start(self, done, advertise=True):
        adapter = self.adapter_object()
        props = dbus.Interface(adapter, PROPS)
        set_adapter(props, 'Alias', self.label)
        set_adapter(props, 'Powered', dbus.Boolean(True))
        dbus.Interface(adapter, 'org.bluez.GattManager1').RegisterApplication(
            dbus.ObjectPath(self.path), {}, reply_handler=lambda: self.advertise(advertise, done),
            error_handler=lambda e: done('RegisterApplication on %s: %s' % (self.adapter, e)), timeout=CALL_TIMEOUT)

    def advertise(self, on, done):
        manager = dbus.Interface(self.adapter_object(), 'org.bluez.LEAdvertisingManager1')
        if on and self.adv is None:
            self.adv = Advertisement(self.path + '/adv', self.label)
            manager.RegisterAdvertisement(dbus.ObjectPath(self.adv.path), {}, reply_handler=lambda: done(None),
                                          error_handler=lambda e: done('RegisterAdvertisement: %s' % e),
                                          timeout=CALL_TIMEOUT)
        elif not on and self.adv is not None:
            adv, self.adv = self.adv, None

            def finished(error):
                adv.remove_from_connection()
                done(error)
            manager.UnregisterAdvertisement(dbus.ObjectPath(adv.path), reply_handler=lambda: finished(None),
                                            error_handler=lambda e: finished('UnregisterAdvertisement: %s' % e))
        else:
            done(None)

    def power(self, on, done):
        """Switches the keyboard off (stops advertising, ends its links from its side, powers its radio off) or
        on (radio on, advertising again). The order matters with btvirt: a controller powered off with a link up
        leaves the other side's link up forever (no supervision timeout in the emulator), and a keyboard still
        advertising is reconnected by the host before the radio is off."""
        props = dbus.Interface(self.adapter_object(), PROPS)
        if on:
            set_adapter(props, 'Powered', dbus.Boolean(True))
            if self.adv is not None:
                self.adv.remove_from_connection()
                self.adv = None
            self.advertise(True, done)
            return

        def radio_off(error):
            if error:
                done(error)
                return
            try:
                set_adapter(props, 'Powered', dbus.Boolean(False))
            except dbus.DBusException as failure:
                done('powering off: %s' % failure)
                return
            done(None)
        self.advertise(False, lambda error: self.disconnect_links(radio_off) if not error else done(error))

    def register_again(self, done):
        """Gives bluetoothd the GATT application again (it asks GetManagedObjects anew): what `App.hidden` leaves out
        is gone from the keyboard's database, or back in it. bluetoothd changes the database hash, so the host
        discovers the services again on its next connection. One re-registration runs at a time (an unregister
        that overtook another's register would fail): the others wait their turn, and each serves `App.hidden` as
        it is when its turn comes."""
        self.registrations.append(done)
        if len(self.registrations) == 1:
            self.register_next()

    def register_next(self):
        manager = dbus.Interface(self.adapter_object(), 'org.bluez.GattManager1')

        def finish(error):
            done = self.registrations.pop(0)
            done(error)
            if self.registrations:
                self.register_next()

        def register():
            manager.RegisterApplication(dbus.ObjectPath(self.path), {}, reply_handler=lambda: finish(None),
                                        error_handler=lambda e: finish('RegisterApplication: %s' % e))
        manager.UnregisterApplication(dbus.ObjectPath(self.path), reply_handler=register,
                                      error_handler=lambda e: finish('UnregisterApplication: %s' % e))

    def stop_hid_watch(self):
        if self.hid_watch is not None:
            self.hid_watch.remove()
            self.hid_watch = None

    def hid_present(self, done):
        """Serves the HID service again now, and forgets a pending `missing-once`."""
        self.stop_hid_watch()
        self.app.hidden = set()
        self.register_again(done)

    def hid_missing_once(self, done):
        """Serves the database without the HID service (so the host's hog plugin makes no input device) until the
        keyboard's next link goes down, then with it again: the firmware came up without HID once. Asked again
        while one is pending, it starts over (the earlier one's link never counts)."""
        self.stop_hid_watch()
        self.app.hidden = {'1812'}
        prefix = '/org/bluez/%s/dev_' % self.adapter
        state = {}

        def changed(interface, properties, invalidated, path=None):
            # The link went down: Connected false, or ServicesResolved false (bluetoothd 5.66 can announce a link
            # that went down and came straight back up as ServicesResolved false with Connected still true). Only
            # the link that came up after this was asked counts: the signals of the link that went down just before
            # (a kblink disconnect) can arrive after it, and serving HID again then, with a new link coming up,
            # resets that link (the database changes under it) and crashes bluetoothd 5.66.
            if interface != 'org.bluez.Device1' or not path.startswith(prefix) or not self.app.hidden:
                return
            down = not properties.get('Connected', True) or not properties.get('ServicesResolved', True)
            if not down:
                if properties.get('Connected') or properties.get('ServicesResolved'):
                    state['up'] = True
                return
            if not state.get('up'):
                return
            self.stop_hid_watch()
            self.app.hidden = set()
            self.register_again(lambda error: say('event hid-back', self.name, error or 'ok'))
        self.hid_watch = bus.add_signal_receiver(changed, 'PropertiesChanged', PROPS, 'org.bluez',
                                                 path_keyword='path')
        self.register_again(done)

    def disconnect_links(self, done):
        om = dbus.Interface(bus.get_object('org.bluez', '/'), OM)
        prefix = '/org/bluez/%s/dev_' % self.adapter
        links = [path for path, interfaces in om.GetManagedObjects().items()
                 if path.startswith(prefix) and interfaces.get('org.bluez.Device1', {}).get('Connected')]
        step = all_done(len(links), done)
        for path in links:
            dbus.Interface(bus.get_object('org.bluez', path), 'org.bluez.Device1').Disconnect(
                reply_handler=lambda: step(None), error_handler=lambda e: step(None))


def all_done(count, done):
    """A callback to give to `count` asynchronous steps; `done(first error or None)` once all answered."""
    state = {'left': count, 'error': None}
    if count == 0:
        done(None)

    def step(error):
        state['error'] = state['error'] or error
        state['left'] -= 1
        if state['left'] == 0:
            done(state['error'])
    return step


class Agent(dbus.service.Object):
    """The keyboards' default agent: answers the pairings that reach the keyboard adapters."""

    def __init__(self, path, owner):
        dbus.service.Object.__init__(self, bus, path)
        self.owner = owner

    @dbus.service.method('org.bluez.Agent1', in_signature='ou')
    def RequestConfirmation(self, dev, passkey):
        say('event confirm', passkey)

    @dbus.service.method('org.bluez.Agent1', in_signature='o')
    def RequestAuthorization(self, dev):
        say('event authorize')

    @dbus.service.method('org.bluez.Agent1', in_signature='os')
    def AuthorizeService(self, dev, uuid):
        pass

    @dbus.service.method('org.bluez.Agent1', in_signature='ouq')
    def DisplayPasskey(self, dev, passkey, entered):
        say('event display', passkey, entered)

    @dbus.service.method('org.bluez.Agent1', in_signature='o', out_signature='u', async_callbacks=('ok', 'err'))
    def RequestPasskey(self, dev, ok, err):
        say('event passkey-asked', dev)
        self.owner.pending_passkey = (ok, err)
        self.owner.answer_passkey()

    @dbus.service.method('org.bluez.Agent1', in_signature='o', out_signature='s')
    def RequestPinCode(self, dev):
        return '000000'

    @dbus.service.method('org.bluez.Agent1')
    def Release(self):
        pass

    @dbus.service.method('org.bluez.Agent1')
    def Cancel(self):
        say('event agent-cancel')
        self.owner.pending_passkey = None


class Rig:
    def __init__(self, assignments):
        self.keyboards = {}
        for name, adapter in assignments:
            self.keyboards[name] = Keyboard(name, adapter)
        self.agent, self.agent_serial = None, 0
        self.pending_passkey, self.typing = None, None

    def set_agent(self, capability):
        self.capability = capability
        manager = dbus.Interface(bus.get_object('org.bluez', '/org/bluez'), 'org.bluez.AgentManager1')
        if self.agent is not None:
            try:
                manager.UnregisterAgent(dbus.ObjectPath(self.agent.path))
            except dbus.DBusException:
                pass
            self.agent.remove_from_connection()
        self.agent_serial += 1
        self.agent = Agent('/rs/agent%d' % self.agent_serial, self)
        self.agent.path = '/rs/agent%d' % self.agent_serial
        manager.RegisterAgent(dbus.ObjectPath(self.agent.path), capability, timeout=CALL_TIMEOUT)
        manager.RequestDefaultAgent(dbus.ObjectPath(self.agent.path), timeout=CALL_TIMEOUT)

    def start_all(self, done, advertising=None):
        """Starts every keyboard; only those in `advertising` (all when None) advertise."""
        step = all_done(len(self.keyboards), done)
        for keyboard in self.keyboards.values():
            keyboard.start(step, advertise=advertising is None or keyboard.name in advertising)

    def answer_passkey(self):
        if self.pending_passkey is None or self.typing is None:
            return
        ok, err = self.pending_passkey
        typing, self.typing = self.typing, None
        if typing == 'never':
            return  # the person never types: the pairing times out or is canceled
        self.pending_passkey = None
        GLib.timeout_add(300, lambda: (ok(dbus.UInt32(int(typing))), False)[1])

    def command(self, words):
        kb = lambda: self.keyboards[words[1]]
        op = words[0]
        if op == 'agent':
            self.set_agent({'justworks': 'NoInputNoOutput', 'keyboardonly': 'KeyboardOnly'}[words[1]])
        elif op == 'type':
            self.typing = words[1]
            self.answer_passkey()
        elif op == 'type-never':
            self.typing = 'never'
        elif op == 'adv':
            return lambda done: kb().advertise(words[2] == 'on', done)
        elif op == 'power':
            return lambda done: kb().power(words[2] == 'on', done)
        elif op == 'hid':
            if words[2] not in ('missing-once', 'present'):
                raise ValueError('hid KB missing-once|present')
            if words[2] == 'present':
                return lambda done: kb().hid_present(done)
            return lambda done: kb().hid_missing_once(done)
        elif op == 'battery':
            kb().batteries[int(words[2])].notify(bytes([int(words[3])]))
        elif op == 'forget-host':
            adapter = kb().adapter_object()
            om = dbus.Interface(bus.get_object('org.bluez', '/'), OM)
            prefix = '/org/bluez/%s/dev_' % kb().adapter
            for path in list(om.GetManagedObjects()):
                if path.startswith(prefix) and '/' not in path[len(prefix):]:
                    dbus.Interface(adapter, ADAPTER_IF).RemoveDevice(path)
        elif op == 'forget-others':
            adapter = kb().adapter_object()
            om = dbus.Interface(bus.get_object('org.bluez', '/'), OM)
            prefix = '/org/bluez/%s/dev_' % kb().adapter
            keep = '/org/bluez/%s/dev_%s' % (kb().adapter, words[2].upper().replace(':', '_'))
            for path, interfaces in list(om.GetManagedObjects().items()):
                if 'org.bluez.Device1' in interfaces and path.startswith(prefix) and path != keep:
                    dbus.Interface(adapter, ADAPTER_IF).RemoveDevice(path)
        elif op == 'restart':
            # bluetoothd restarted: it forgot our agent, GATT applications and advertisements.
            if self.agent is not None:
                self.agent.remove_from_connection()
                self.agent = None
            self.set_agent(self.capability)
            for keyboard in self.keyboards.values():
                if keyboard.adv is not None:
                    keyboard.adv.remove_from_connection()
                    keyboard.adv = None
            return lambda done: self.start_all(done, advertising=set(words[1:]) or None)
        elif op == 'studio-get':
            b, p = self.keyboards['studio'].studio.saved[int(words[1])][int(words[2])]
            return '%d %d' % (b, p)
        elif op == 'studio-layers':  # the saved layers: their count and names
            fw = self.keyboards['studio'].studio
            return '%d %s' % (len(fw.saved), '|'.join(fw.saved_names.get(i, '') for i in fw.saved_ids))
        elif op == 'studio-set':
            fw = self.keyboards['studio'].studio
            layer, pos, b, p = (int(w, 0) for w in words[1:5])
            fw.saved[layer][pos] = fw.active[layer][pos] = (b, p)
        elif op == 'via-get':
            fw = self.keyboards['via'].via
            o = fw.offset(*(int(w) for w in words[1:4]))
            return '0x%04x' % ((fw.keymap[o] << 8) | fw.keymap[o + 1])
        elif op == 'via-set':
            fw = self.keyboards['via'].via
            o = fw.offset(*(int(w) for w in words[1:4]))
            code = int(words[4], 0)
            fw.keymap[o:o + 2] = bytes([code >> 8, code & 0xFF])
        elif op == 'log':
            s, v = self.keyboards['studio'].studio, self.keyboards['via'].via
            return 'studio-sets=%d studio-saves=%d via-requests=%d via-bad-lengths=%d' % (
                s.sets, s.saves, v.requests, v.bad_lengths)
        else:
            raise ValueError('unknown command ' + op)
        return ''


def main():
    rig = Rig([arg.split('=', 1) for arg in sys.argv[1:]])
    rig.set_agent('NoInputNoOutput')
    def started(error):
        if error:
            say('failed', error)
            loop.quit()
        else:
            say('ready', ' '.join('%s=%s' % (k.name, k.adapter) for k in rig.keyboards.values()))
    GLib.idle_add(lambda: rig.start_all(started) and False)

    def on_input(source, condition):
        line = sys.stdin.readline()
        if not line:
            loop.quit()
            return False
        words = line.split()
        if not words:
            return True
        def finish(error):
            if error:
                say('error', words[0], str(error).replace('\n', ' '))
            else:
                say('ok', words[0], '')
        try:
            answer = rig.command(words)
            if callable(answer):
                answer(finish)
            else:
                say('ok', words[0], answer)
        except Exception as error:  # an answer for every command, so the runner never waits in vain
            say('error', words[0], str(error).replace('\n', ' '))
        return True

    loop = GLib.MainLoop()
    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_input)
    loop.run()


if __name__ == '__main__':
    main()
