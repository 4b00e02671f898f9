extension PythonScript {
    /// A python3-dbus client of ``EchoService``: `echo_client.py ADDRESS NAME`.
    ///
    /// It calls methods and reads and sets properties (one JSON line per step), subscribes to `Pinged`,
    /// `PropertiesChanged` and the ObjectManager's `InterfacesAdded`/`InterfacesRemoved` at `/com/example`, prints
    /// `{"step": "ready"}`, then prints each signal it receives and exits after five of them.
    static let echoClient = PythonScript(
        name: "echo_client.py",
        source: prelude + #"""
            address, name = sys.argv[1], sys.argv[2]
            PATH = '/com/example/echo'
            IFACE = 'com.example.Echo'
            MANAGER = '/com/example'
            bus = dbus.bus.BusConnection(address)

            # get_object introspects: dbus-python takes every argument signature from the XML we generate, so a
            # plain Python 7 travels as the variant Echo declares.
            echo_object = bus.get_object(name, PATH)
            echo = dbus.Interface(echo_object, IFACE)
            props = dbus.Interface(echo_object, dbus.PROPERTIES_IFACE)
            manager = dbus.Interface(bus.get_object(name, MANAGER), 'org.freedesktop.DBus.ObjectManager')

            result = echo.Concat('kb', 'link')
            emit(step='concat', kind=kind(result), value=plain(result))
            result = echo.Add(40, 2)
            emit(step='add', kind=kind(result), value=plain(result))
            result = echo.Echo(7)
            emit(step='echo-int', kind=kind(result), variant_level=result.variant_level, value=plain(result))
            result = echo.Echo(dbus.Dictionary(
                {'count': dbus.UInt16(3), 'name': 'Aula', 'tags': dbus.Array(['a', 'b'], signature='s')},
                signature='sv'))
            emit(step='echo-dict', kind=kind(result), signature=str(result.signature),
                 value={key: describe(item) for key, item in result.items()})
            result = echo.Echo(dbus.Struct(('F87', dbus.Int64(-5), True), signature='sxb'))
            emit(step='echo-struct', kind=kind(result), value=[describe(item) for item in result])
            emit(step='fail', **error_of(lambda: echo.Fail('no thanks')))
            emit(step='unknown-method', **error_of(lambda: echo_object.Missing(dbus_interface=IFACE)))
            emit(step='wrong-arguments', **error_of(lambda: echo.Add('x', 'y', signature='ss')))

            result = props.Get(IFACE, 'Name')
            emit(step='get', kind=kind(result), value=plain(result))
            result = props.GetAll(IFACE)
            emit(step='get-all', value={key: describe(item) for key, item in result.items()})
            emit(step='set', returned=repr(props.Set(IFACE, 'Volume', dbus.UInt32(42))),
                 after=describe(props.Get(IFACE, 'Volume')))
            emit(step='set-refused', after=describe(props.Get(IFACE, 'Volume')),
                 **error_of(lambda: props.Set(IFACE, 'Volume', dbus.UInt32(500))))
            emit(step='set-wrong-type', **error_of(lambda: props.Set(IFACE, 'Volume', 'loud')))
            emit(step='set-read-only', **error_of(lambda: props.Set(IFACE, 'Name', 'other')))
            emit(step='get-unknown', **error_of(lambda: props.Get(IFACE, 'Missing')))
            result = manager.GetManagedObjects()
            emit(step='managed-objects',
                 value={str(path): {interface: sorted(properties) for interface, properties in interfaces.items()}
                        for path, interfaces in result.items()})

            loop = GLib.MainLoop()
            received = []


            def on_signal(*args, **where):
                emit(signal=where['member'], path=str(where['path']), args=[describe(arg) for arg in args])
                received.append(where['member'])
                if len(received) == 5:
                    loop.quit()


            where = dict(member_keyword='member', path_keyword='path')
            echo.connect_to_signal('Pinged', on_signal, **where)
            props.connect_to_signal('PropertiesChanged', on_signal, **where)
            manager.connect_to_signal('InterfacesAdded', on_signal, **where)
            manager.connect_to_signal('InterfacesRemoved', on_signal, **where)
            emit(step='ready')
            GLib.timeout_add_seconds(20, loop.quit)
            loop.run()
            emit(step='done', received=received)
            """#)
}
