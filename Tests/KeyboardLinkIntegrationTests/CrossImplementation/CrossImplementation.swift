import Testing

/// Checks against D-Bus implementations nobody here wrote: gdbus (GLib), busctl (sd-bus), python3-dbus (libdbus
/// through Python) and python-dbusmock. Each test starts its own private bus; run them all with
/// `swift test --filter CrossImplementation`.
@Suite("Cross-implementation checks")
enum CrossImplementation {
    /// The interpreter with python3-dbus, python3-gi and python3-dbusmock (Debian packages); another python3
    /// may come first on PATH.
    static let python = "/usr/bin/python3"
}
