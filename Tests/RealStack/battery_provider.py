#!/usr/bin/python3
# A battery provider of the real-stack rig's own (guest side): registers with bluetoothd's
# org.bluez.BatteryProviderManager1 on an adapter and supplies one org.bluez.BatteryProvider1 object, to see what
# the real bluetoothd does with a battery for a device that already has its own (scenario battery-upower).
#
# Usage: battery_provider.py HCI DEVICE_PATH PERCENTAGE SOURCE
# Prints "registered" once bluetoothd accepted the registration (or "error ..."), then serves until killed.
import sys

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
ROOT = '/rig/batteryprovider'
hci, device, percentage, source = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]


class Root(dbus.service.Object):
    @dbus.service.method('org.freedesktop.DBus.ObjectManager', out_signature='a{oa{sa{sv}}}')
    def GetManagedObjects(self):
        return {dbus.ObjectPath(ROOT + '/battery0'): {'org.bluez.BatteryProvider1': {
            'Device': dbus.ObjectPath(device), 'Percentage': dbus.Byte(percentage), 'Source': source}}}


root = Root(bus, ROOT)
manager = dbus.Interface(bus.get_object('org.bluez', '/org/bluez/' + hci), 'org.bluez.BatteryProviderManager1')
manager.RegisterBatteryProvider(dbus.ObjectPath(ROOT), reply_handler=lambda: print('registered', flush=True),
                                error_handler=lambda e: print('error', e, flush=True))
GLib.MainLoop().run()
