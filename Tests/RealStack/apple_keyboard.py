#!/usr/bin/env python3
# The real-stack rig's Mac-mode keyboard: a BLE keyboard with its own host stack (Bumble, as via_keyboard.py, on one
# btvirt controller taken through the HCI user channel before bluetoothd starts) whose Device Information claims an
# Apple keyboard's IDs (PnP ID USB 0x05AC:0x0255, the Aluminium Wireless Keyboard 2011, ANSI), as Keychron's and
# many other keyboards do in their Mac mode, so the guest kernel binds hid-apple to the uhid device BlueZ's hog
# plugin makes. Its name is not Apple's and is on no list of the kernel's (non_apple_keyboards), so hid-apple's
# fnmode 3 (auto) turns its F-row into media keys. Bumble sends plain Handle Value Notifications, so its key presses
# reach evdev (a keyboard served by bluetoothd 5.66 cannot deliver them: docs/real-bluez.md).
#
# Usage: apple_keyboard.py HCI_INDEX [quiet]   (quiet: it does not advertise until told)   Commands on standard input, one answer line each (as keyboards.py):
#   press USAGE       presses and releases the key with that HID usage (0x3A: F1), Fn not held
#   report-map fail-once   the next read of its Report Map is answered with an ATT error (Unlikely Error)
#   adv on|off        advertise, or stop
import asyncio
import sys

from bumble.att import ATT_Error, ErrorCode
from bumble.core import AdvertisingData
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Descriptor, Service
from bumble.hci import Address, OwnAddressType
from bumble.pairing import PairingConfig, PairingDelegate
from bumble.transport import open_transport

NAME = 'RS Mac K2'
# A keyboard report (ID 1) with Apple's Fn key after the six key bytes: usage page 0xFF, usage 0x03, one bit (then
# seven bits of padding). hid-apple maps that usage to KEY_FN; on a keyboard without it, Debian 12's 6.1 kernel says
# "Fn key not found (Apple Wireless Keyboard clone?), disabling Fn key handling" and leaves the F-row alone.
REPORT_MAP = bytes([
    0x05, 0x01, 0x09, 0x06, 0xA1, 0x01, 0x85, 0x01, 0x05, 0x07, 0x19, 0xE0, 0x29, 0xE7, 0x15, 0x00, 0x25, 0x01,
    0x75, 0x01, 0x95, 0x08, 0x81, 0x02, 0x95, 0x01, 0x75, 0x08, 0x81, 0x01, 0x95, 0x06, 0x75, 0x08, 0x15, 0x00,
    0x25, 0x65, 0x05, 0x07, 0x19, 0x00, 0x29, 0x65, 0x81, 0x00,
    0x05, 0xFF, 0x09, 0x03, 0x15, 0x00, 0x25, 0x01, 0x75, 0x01, 0x95, 0x01, 0x81, 0x02,
    0x95, 0x07, 0x75, 0x01, 0x81, 0x01, 0xC0])
REPORT_SIZE = 9  # modifiers, reserved, six keys, Fn
APPLE_PNP_ID = bytes([0x02, 0xAC, 0x05, 0x55, 0x02, 0x50, 0x01])  # USB source, 0x05AC, 0x0255, version 0x0150
R, W, WNR, N = (Characteristic.READ, Characteristic.WRITE, Characteristic.WRITE_WITHOUT_RESPONSE,
                Characteristic.NOTIFY)
READABLE, RW = Characteristic.READABLE, Characteristic.READABLE | Characteristic.WRITEABLE


def say(*words):
    print(*words, flush=True)


async def main():
    index = sys.argv[1]
    transport = await open_transport('hci-socket:' + index)
    device = Device.with_hci(NAME, Address('00:AA:01:0%s:00:0%s' % (index, index), Address.PUBLIC_DEVICE_ADDRESS),
                             transport.source, transport.sink)
    failing = {'report-map': False}

    def read_report_map(connection):
        if failing['report-map']:
            failing['report-map'] = False
            say('event report-map-read-failed')
            raise ATT_Error(ErrorCode.UNLIKELY_ERROR)
        return REPORT_MAP

    keys = Characteristic('2A4D', R | N, READABLE, bytes(REPORT_SIZE),
                          descriptors=[Descriptor('2908', Descriptor.READABLE, bytes([1, 1]))])
    device.add_services([
        Service('1812', [
            Characteristic('2A4A', R, READABLE, bytes([0x11, 0x01, 0x00, 0x02])),
            Characteristic('2A4B', R, READABLE, CharacteristicValue(read=read_report_map)),
            keys,
            Characteristic('2A4E', R | WNR, RW, bytes([1])),
            Characteristic('2A4C', WNR, Characteristic.WRITEABLE, bytes(1)),
        ]),
        Service('180A', [
            Characteristic('2A29', R, READABLE, b'RealStack Labs'),
            Characteristic('2A24', R, READABLE, b'K2-mac'),
            Characteristic('2A25', R, READABLE, b'SN-mac-0001'),
            Characteristic('2A26', R, READABLE, b'1.2.0'),
            Characteristic('2A50', R, READABLE, APPLE_PNP_ID),
        ]),
        Service('180F', [Characteristic('2A19', R | N, READABLE, bytes([88]))]),
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
    if 'quiet' not in sys.argv[2:]:
        await device.start_advertising(own_address_type=OwnAddressType.PUBLIC, advertising_data=advertising,
                                       auto_restart=True)
    say('ready apple=%s' % str(device.public_address).split('/')[0])

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
            if words[0] == 'press':
                usage = int(words[1], 0)
                await device.notify_subscribers(keys, bytes([0, 0, usage]) + bytes(REPORT_SIZE - 3))
                await asyncio.sleep(0.1)
                await device.notify_subscribers(keys, bytes(REPORT_SIZE))
                answer = ''
            elif words[0] == 'report-map' and words[1:] == ['fail-once']:
                failing['report-map'] = True
                answer = ''
            elif words[0] == 'adv':  # advertise (on) or stop (off: it also stops coming back after a link ends)
                if words[1] == 'on':
                    await device.start_advertising(own_address_type=OwnAddressType.PUBLIC,
                                                   advertising_data=advertising, auto_restart=True)
                else:
                    await device.stop_advertising()
                answer = ''
            else:
                raise ValueError('unknown command ' + words[0])
            say('ok', words[0], answer)
        except Exception as error:  # an answer for every command, so the runner never waits in vain
            say('error', words[0], str(error).replace('\n', ' '))


asyncio.run(main())
