extension PythonScript {
    /// `large_echo.py ADDRESS NAME SIZE`: sends ``EchoService``'s `Echo` a byte array of SIZE bytes (pattern
    /// `i % 251`) and prints `{"step": "echoed", "length": N, "intact": BOOL}` for what came back.
    static let largeEcho = PythonScript(
        name: "large_echo.py",
        source: prelude + #"""
            address, name, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
            bus = dbus.bus.BusConnection(address)
            echo = dbus.Interface(bus.get_object(name, '/com/example/echo'), 'com.example.Echo')
            payload = bytes(i % 251 for i in range(size))
            result = echo.Echo(dbus.ByteArray(payload), byte_arrays=True, timeout=60)
            emit(step='echoed', length=len(result), intact=bytes(result) == payload)
            """#)
}
