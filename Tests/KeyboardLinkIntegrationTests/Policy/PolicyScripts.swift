/// The Python programs the policy tests run under `/usr/bin/python3` (python3-dbus, GLib main loop).
enum PolicyScripts {
    /// Owns `org.kblink1` and serves a Manager, a keyboard and an agent; prints `ready UNIQUE_NAME` when set up.
    static let service = #"""
        # A stand-in for kblinkd with the org.kblink1 shapes the policy names: a Manager, a keyboard with
        # the Keyboard and Keymap interfaces, and a pairing agent on a second connection.
        # Usage: service.py BUS_ADDRESS
        import sys
        import dbus
        import dbus.service
        import dbus.mainloop.glib
        from gi.repository import GLib

        PROPS = dbus.PROPERTIES_IFACE
        MANAGER = 'org.kblink1.Manager'
        KEYBOARD = 'org.kblink1.Keyboard'
        KEYMAP = 'org.kblink1.Keymap'
        KEYBOARD_PATH = '/org/kblink1/keyboards/dev_AA_BB_CC_DD_EE_FF'


        class Properties(dbus.service.Object):
            def __init__(self, bus, path, properties):
                super().__init__(bus, path)
                self.properties = properties

            @dbus.service.method(PROPS, in_signature='ss', out_signature='v')
            def Get(self, interface, name):
                return self.properties[interface][name]

            @dbus.service.method(PROPS, in_signature='s', out_signature='a{sv}')
            def GetAll(self, interface):
                return self.properties.get(interface, {})

            @dbus.service.method(PROPS, in_signature='ssv', out_signature='')
            def Set(self, interface, name, value):
                self.properties[interface][name] = value
                self.PropertiesChanged(interface, {name: value}, [])

            @dbus.service.signal(PROPS, signature='sa{sv}as')
            def PropertiesChanged(self, interface, changed, invalidated):
                pass


        class Manager(Properties):
            def __init__(self, bus, keyboard):
                super().__init__(bus, '/org/kblink1', {MANAGER: {
                    'Version': dbus.String('0.0-test'),
                    'HardwareKeyboardAttached': dbus.Boolean(False),
                    'Discovering': dbus.Boolean(False),
                }})
                self.keyboard = keyboard

            @dbus.service.method(MANAGER, in_signature='', out_signature='')
            def StartDiscovery(self):
                self.properties[MANAGER]['Discovering'] = dbus.Boolean(True)

            @dbus.service.method(MANAGER, in_signature='s', out_signature='o')
            def Pair(self, device):
                return dbus.ObjectPath(KEYBOARD_PATH)

            @dbus.service.method(MANAGER, in_signature='s', out_signature='')
            def CancelPairing(self, device):
                pass

            @dbus.service.method(MANAGER, in_signature='', out_signature='a(osssbbba(sy)a{ss}sbss)')
            def ListKeyboards(self):
                return dbus.Array([
                    (dbus.ObjectPath(KEYBOARD_PATH), 'AA:BB:CC:DD:EE:FF', 'Board', 'Board', True, True, False,
                     dbus.Array([('main', dbus.Byte(50))], signature='(sy)'), dbus.Dictionary({}, signature='ss'),
                     'none', True, 'working', ''),
                ], signature='(osssbbba(sy)a{ss}sbss)')

            @dbus.service.method(MANAGER, in_signature='a{sv}', out_signature='a{sv}')
            def ResolveInsets(self, request):
                return {'bottom': dbus.Double(0.0)}

            @dbus.service.method('org.freedesktop.DBus.ObjectManager', in_signature='', out_signature='a{oa{sa{sv}}}')
            def GetManagedObjects(self):
                return {KEYBOARD_PATH: self.keyboard.properties}

            def tick(self):
                # A steady broadcast so a client can check that signals reach every user.
                flag = not self.properties[MANAGER]['HardwareKeyboardAttached']
                self.properties[MANAGER]['HardwareKeyboardAttached'] = dbus.Boolean(flag)
                self.PropertiesChanged(MANAGER, {'HardwareKeyboardAttached': dbus.Boolean(flag)}, [])
                return True


        class Keyboard(Properties):
            def __init__(self, bus):
                super().__init__(bus, KEYBOARD_PATH, {
                    KEYBOARD: {'Address': dbus.String('AA:BB:CC:DD:EE:FF'), 'Connected': dbus.Boolean(False)},
                    KEYMAP: {'Layout': dbus.String('aula-f87'), 'CurrentZone': dbus.String('standard')},
                })
                self.bindings = {'KC_A': 'KC_A'}

            @dbus.service.method(KEYBOARD, in_signature='', out_signature='')
            def Connect(self):
                self.properties[KEYBOARD]['Connected'] = dbus.Boolean(True)

            @dbus.service.method(KEYMAP, in_signature='su', out_signature='a(ss)')
            def GetBindings(self, zone, layer):
                return sorted(self.bindings.items())

            @dbus.service.method(KEYMAP, in_signature='suss', out_signature='(sussbs)')
            def SetBinding(self, zone, layer, key, action):
                self.bindings[key] = action
                return ('standard', layer, key, action, True, '')

            @dbus.service.method(KEYMAP, in_signature='', out_signature='a(sussss)')
            def Diff(self):
                return dbus.Array([], signature='(sussss)')

            @dbus.service.method(KEYMAP, in_signature='', out_signature='s')
            def ExportProfile(self):
                return '{}'


        class Agent(dbus.service.Object):
            # Stands for the org.bluez.Agent1 kblinkd registers; bluetoothd (root) calls it at its unique name.
            @dbus.service.method('org.bluez.Agent1', in_signature='', out_signature='')
            def Release(self):
                pass


        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        # Raises org.freedesktop.DBus.Error.AccessDenied if the policy does not let this user own the name.
        name = dbus.service.BusName('org.kblink1', bus, do_not_queue=True)
        keyboard = Keyboard(bus)
        manager = Manager(bus, keyboard)
        # A second connection without the well-known name, so only the Agent1 rule can let calls reach it.
        agent_bus = dbus.bus.BusConnection(sys.argv[1])
        agent = Agent(agent_bus, '/org/kblink1/agent')
        GLib.timeout_add(100, manager.tick)
        print('ready', agent_bus.get_unique_name(), flush=True)
        GLib.MainLoop().run()
        """#

    /// Runs every probe and prints a JSON object: probe -> `ok` or the D-Bus error name.
    static let client = #"""
        # Calls each probe on org.kblink1 and prints one JSON object: probe name -> "ok" or the D-Bus error name.
        # Usage: client.py BUS_ADDRESS AGENT_UNIQUE_NAME
        import json
        import sys
        import dbus
        import dbus.mainloop.glib
        from gi.repository import GLib

        PROPS = 'org.freedesktop.DBus.Properties'
        MANAGER_PATH = '/org/kblink1'
        KEYBOARD_PATH = '/org/kblink1/keyboards/dev_AA_BB_CC_DD_EE_FF'
        PROBES = [
            ('Introspect', MANAGER_PATH, 'org.freedesktop.DBus.Introspectable', 'Introspect', '', ()),
            ('Get', MANAGER_PATH, PROPS, 'Get', 'ss', ('org.kblink1.Manager', 'Version')),
            ('GetAll', MANAGER_PATH, PROPS, 'GetAll', 's', ('org.kblink1.Manager',)),
            ('GetManagedObjects', MANAGER_PATH, 'org.freedesktop.DBus.ObjectManager', 'GetManagedObjects', '', ()),
            ('Ping', MANAGER_PATH, 'org.freedesktop.DBus.Peer', 'Ping', '', ()),
            ('ListKeyboards', MANAGER_PATH, 'org.kblink1.Manager', 'ListKeyboards', '', ()),
            ('ResolveInsets', MANAGER_PATH, 'org.kblink1.Manager', 'ResolveInsets', 'a{sv}', ({},)),
            ('GetBindings', KEYBOARD_PATH, 'org.kblink1.Keymap', 'GetBindings', 'su', ('standard', 0)),
            ('Diff', KEYBOARD_PATH, 'org.kblink1.Keymap', 'Diff', '', ()),
            ('ExportProfile', KEYBOARD_PATH, 'org.kblink1.Keymap', 'ExportProfile', '', ()),
            ('StartDiscovery', MANAGER_PATH, 'org.kblink1.Manager', 'StartDiscovery', '', ()),
            ('StartDiscoveryWithoutInterface', MANAGER_PATH, None, 'StartDiscovery', '', ()),
            ('Set', KEYBOARD_PATH, PROPS, 'Set', 'ssv', ('org.kblink1.Keymap', 'CurrentZone', dbus.String('number'))),
            ('Connect', KEYBOARD_PATH, 'org.kblink1.Keyboard', 'Connect', '', ()),
            ('Pair', MANAGER_PATH, 'org.kblink1.Manager', 'Pair', 's', ('AA:BB:CC:DD:EE:FF',)),
            ('CancelPairing', MANAGER_PATH, 'org.kblink1.Manager', 'CancelPairing', 's', ('AA:BB:CC:DD:EE:FF',)),
            ('SetBinding', KEYBOARD_PATH, 'org.kblink1.Keymap', 'SetBinding', 'suss', ('standard', 0, 'KC_A', 'KC_B')),
            ('AgentRelease', '/org/kblink1/agent', 'org.bluez.Agent1', 'Release', '', ()),
        ]

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        agent_name = sys.argv[2]
        results = {}
        for name, path, interface, member, signature, args in PROBES:
            destination = 'org.kblink1'
            if interface == 'org.bluez.Agent1':
                destination = agent_name
            try:
                bus.call_blocking(destination, path, interface, member, signature, args, timeout=10)
                results[name] = 'ok'
            except dbus.exceptions.DBusException as error:
                results[name] = error.get_dbus_name()
        try:
            bus.request_name('org.kblink1', dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
            results['RequestName'] = 'ok'
        except dbus.exceptions.DBusException as error:
            results['RequestName'] = error.get_dbus_name()

        loop = GLib.MainLoop()
        results['Signal'] = 'timeout'
        def received(*args):
            results['Signal'] = 'ok'
            loop.quit()
        bus.add_signal_receiver(received, signal_name='PropertiesChanged', dbus_interface=PROPS, path=MANAGER_PATH)
        GLib.timeout_add(10000, loop.quit)
        loop.run()
        print(json.dumps(results, sort_keys=True), flush=True)
        """#
}
