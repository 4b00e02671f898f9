#!/usr/bin/env python3
# The real-stack rig's VIA keyboard: a BLE keyboard with its own host stack (Bumble, from PyPI, in the venv that
# scripts/real-bluez-test makes) on one btvirt controller taken over through the HCI user channel, so bluetoothd
# does not see it. Its one HID service carries a keyboard collection (report ID 1) and VIA's raw HID collection
# (usage page 0xFF60, usage 0x61, report ID 2, 32-byte input and output reports); it answers the VIA commands that
# the host writes to the /dev/hidrawN the kernel made from BlueZ's uhid device.
#
# Why not bluetoothd's GATT server like the other keyboards: bluetoothd sends notifications as Multiple Handle
# Value Notifications to a client that says it takes them, and BlueZ 5.66's hog plugin (the host side) drops
# those (fixed in 5.67, commit 2f4c576ad), so a bluetoothd-served keyboard's input reports never reach hidraw.
#
# Usage: via_keyboard.py HCI_INDEX       Commands on standard input, one answer line each (as keyboards.py):
#   via-get LAYER ROW COL | via-set LAYER ROW COL KEYCODE | log
import asyncio
import os
import sys

from bumble.core import AdvertisingData
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Descriptor, Service
from bumble.hci import Address, OwnAddressType
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from via_firmware import VIAFirmware  # noqa: E402

NAME = 'RS VIA 98'
REPORT_ID = 2
REPORT_MAP = bytes([
    0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x85, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01,
    0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00,
    0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00, 0xC0,
    0x06, 0x60, 0xFF, 0x09, 0x61, 0xA1, 0x01, 0x85, REPORT_ID,
    0x09, 0x62, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x81, 0x02,
    0x09, 0x63, 0x15, 0x00, 0x26, 0xFF, 0x00, 0x95, 0x20, 0x75, 0x08, 0x91, 0x02, 0xC0])
R, W, WNR, N = (Characteristic.READ, Characteristic.WRITE, Characteristic.WRITE_WITHOUT_RESPONSE,
                Characteristic.NOTIFY)
READABLE, RW = Characteristic.READABLE, Characteristic.READABLE | Characteristic.WRITEABLE


def say(*words):
    print(*words, flush=True)


def reference(report_id, kind):
    return [Descriptor('2908', Descriptor.READABLE, bytes([report_id, kind]))]


async def main():
    index = sys.argv[1]
    firmware = VIAFirmware()
    transport = await open_transport('hci-socket:' + index)
    device = Device.with_hci(NAME, Address('00:AA:01:0%s:00:0%s' % (index, index), Address.PUBLIC_DEVICE_ADDRESS),
                             transport.source, transport.sink)
    raw_in = Characteristic('2A4D', R | N, READABLE, bytes(32), descriptors=reference(REPORT_ID, 1))

    def on_request(connection, value):
        reply = firmware.handle(bytes(value))
        if reply is not None:
            asyncio.get_running_loop().create_task(device.notify_subscribers(raw_in, reply))

    raw_out = Characteristic('2A4D', R | W | WNR, RW, CharacteristicValue(read=lambda c: bytes(32), write=on_request),
                             descriptors=reference(REPORT_ID, 2))
    device.add_services([
        Service('1812', [
            Characteristic('2A4A', R, READABLE, bytes([0x11, 0x01, 0x00, 0x02])),
            Characteristic('2A4B', R, READABLE, REPORT_MAP),
            Characteristic('2A4D', R | N, READABLE, bytes(8), descriptors=reference(1, 1)),
            raw_in, raw_out,
            Characteristic('2A4E', R | WNR, RW, bytes([1])),
            Characteristic('2A4C', WNR, Characteristic.WRITEABLE, bytes(1)),
        ]),
        Service('180A', [
            Characteristic('2A29', R, READABLE, b'RealStack Labs'),
            Characteristic('2A24', R, READABLE, b'98-via'),
            Characteristic('2A25', R, READABLE, b'SN-via-0001'),
            Characteristic('2A26', R, READABLE, b'2.3.0'),
            Characteristic('2A50', R, READABLE, bytes([0x02, 0x50, 0x1D, 0x03, 0x61, 0x03, 0x02])),
        ]),
        Service('180F', [Characteristic('2A19', R | N, READABLE, bytes([70]))]),
    ])
    device.pairing_config_factory = lambda connection: PairingConfig(
        sc=True, mitm=False, bonding=True, delegate=PairingDelegate(io_capability=PairingDelegate.NO_OUTPUT_NO_INPUT))
    device.on('connection', lambda connection: say('event connected', connection.peer_address))
    await device.power_on()
    advertising = bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS, bytes([0x12, 0x18])),
        (AdvertisingData.APPEARANCE, (0x03C1).to_bytes(2, 'little')),
        (AdvertisingData.COMPLETE_LOCAL_NAME, NAME.encode())]))
    await device.start_advertising(own_address_type=OwnAddressType.PUBLIC, advertising_data=advertising,
                                   auto_restart=True)
    say('ready via=%s' % str(device.public_address).split('/')[0])

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while True:
        line = (await reader.readline()).decode()
        if not line:
            return
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == 'via-get':
                o = firmware.offset(*(int(w) for w in words[1:4]))
                answer = '0x%04x' % ((firmware.keymap[o] << 8) | firmware.keymap[o + 1])
            elif words[0] == 'via-set':
                o = firmware.offset(*(int(w) for w in words[1:4]))
                code = int(words[4], 0)
                firmware.keymap[o:o + 2] = bytes([code >> 8, code & 0xFF])
                answer = ''
            elif words[0] == 'adv':  # advertise (on) or stop (off: it also stops coming back after a link ends)
                if words[1] == 'on':
                    await device.start_advertising(own_address_type=OwnAddressType.PUBLIC,
                                                   advertising_data=advertising, auto_restart=True)
                else:
                    await device.stop_advertising()
                answer = ''
            elif words[0] == 'log':
                answer = 'via-requests=%d via-bad-lengths=%d' % (firmware.requests, firmware.bad_lengths)
            else:
                raise ValueError('unknown command ' + words[0])
            say('ok', words[0], answer)
        except Exception as error:  # an answer for every command, so the runner never waits in vain
            say('error', words[0], str(error).replace('\n', ' '))


asyncio.run(main())
