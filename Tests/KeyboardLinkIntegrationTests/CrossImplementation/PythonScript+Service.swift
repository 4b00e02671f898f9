extension PythonScript {
    /// A python3-dbus service on a GLib main loop: `service.py ADDRESS`.
    ///
    /// It owns `com.example.PyService` and exports `com.example.Py` at `/com/example/Py` with methods of several
    /// signatures, properties served by its own `org.freedesktop.DBus.Properties`, and the signal `Tick`. It prints
    /// `{"ready": NAME, "unique": UNIQUE}` once the name is owned and exits when `Quit` is called.
    static let service = PythonScript(
        name: "service.py",
        source: prelude + #"""
            address = sys.argv[1]
            NAME = 'com.example.PyService'
            PATH = '/com/example/Py'
            IFACE = 'com.example.Py'
            bus = dbus.bus.BusConnection(address)
            loop = GLib.MainLoop()


            class Refused(dbus.DBusException):
                _dbus_error_name = 'com.example.Py.Error.Refused'


            class Service(dbus.service.Object):
                def __init__(self):
                    super().__init__(bus, PATH)
                    self.properties = {
                        'Label': dbus.String('initial'),
                        'Level': dbus.Byte(3),
                        'Tags': dbus.Array(['wireless', 'rgb'], signature='s'),
                        'Info': dbus.Dictionary({'model': dbus.String('Aula F87'), 'keys': dbus.UInt16(87)},
                                                signature='sv'),
                    }

                @dbus.service.method(IFACE, in_signature='a{sv}', out_signature='a{ss}')
                def Inspect(self, values):
                    return {key: describe(value) for key, value in values.items()}

                @dbus.service.method(IFACE, in_signature='a{sv}', out_signature='a{sv}')
                def EchoDict(self, values):
                    return values

                @dbus.service.method(IFACE, in_signature='', out_signature='a(sss)')
                def Keyboards(self):
                    return [('bluetooth', 'AA:BB:CC:DD:EE:FF', 'Aula F87'), ('usb', '3151:4002', 'Keychron K2')]

                @dbus.service.method(IFACE, in_signature='a(sss)', out_signature='as')
                def Names(self, keyboards):
                    return [keyboard[2] for keyboard in keyboards]

                @dbus.service.method(IFACE, in_signature='ybnqiuxtdsog', out_signature='s')
                def Basics(self, y, b, n, q, i, u, x, t, d, s, o, g):
                    return json.dumps([describe(value) for value in (y, b, n, q, i, u, x, t, d, s, o, g)],
                                      ensure_ascii=False)

                @dbus.service.method(IFACE, in_signature='s', out_signature='')
                def Refuse(self, reason):
                    raise Refused(reason)

                @dbus.service.method(IFACE, in_signature='su', out_signature='')
                def Change(self, label, count):
                    self.properties['Label'] = dbus.String(label)
                    self.PropertiesChanged(IFACE, {'Label': self.properties['Label']}, dbus.Array([], signature='s'))
                    self.Tick(dbus.UInt32(count), dbus.Dictionary({'label': dbus.String(label)}, signature='sv'))

                @dbus.service.method(IFACE, in_signature='', out_signature='')
                def Quit(self):
                    GLib.idle_add(loop.quit)

                @dbus.service.signal(IFACE, signature='ua{sv}')
                def Tick(self, count, details):
                    pass

                @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='ss', out_signature='v')
                def Get(self, interface, name):
                    if interface != IFACE or name not in self.properties:
                        raise dbus.DBusException('no property ' + name,
                                                 name='org.freedesktop.DBus.Error.UnknownProperty')
                    return self.properties[name]

                @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='s', out_signature='a{sv}')
                def GetAll(self, interface):
                    if interface != IFACE:
                        raise dbus.DBusException('no interface ' + interface,
                                                 name='org.freedesktop.DBus.Error.UnknownInterface')
                    return dbus.Dictionary(self.properties, signature='sv')

                @dbus.service.method(dbus.PROPERTIES_IFACE, in_signature='ssv', out_signature='')
                def Set(self, interface, name, value):
                    if interface != IFACE or name != 'Label':
                        raise dbus.DBusException(name + ' is read-only',
                                                 name='org.freedesktop.DBus.Error.PropertyReadOnly')
                    self.properties['Label'] = dbus.String(value)
                    self.PropertiesChanged(IFACE, {'Label': self.properties['Label']}, dbus.Array([], signature='s'))

                @dbus.service.signal(dbus.PROPERTIES_IFACE, signature='sa{sv}as')
                def PropertiesChanged(self, interface, changed, invalidated):
                    pass


            service = Service()
            owned = dbus.service.BusName(NAME, bus, do_not_queue=True)
            emit(ready=NAME, unique=bus.get_unique_name())
            GLib.timeout_add_seconds(60, loop.quit)
            loop.run()
            emit(step='done')
            """#)
}
