import Foundation

/// A Python helper kept as source text here and written to a temporary file when a test runs it, so that the
/// test target needs no extra resources. Scripts print one JSON object per line on standard output.
struct PythonScript: Sendable {
    /// The file name, for messages.
    let name: String
    /// The Python source.
    let source: String

    /// Writes the script to a fresh temporary directory and starts it with ``CrossImplementation/python``.
    /// - Throws: when the file cannot be written or the interpreter cannot start.
    func start(_ arguments: [String], environment: [String: String]? = nil) throws -> ToolProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kblink-python-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent(name)
        try Data(source.utf8).write(to: file)
        return try ToolProcess(
            CrossImplementation.python, ["-u", file.path] + arguments, environment: environment,
            removingWhenDone: directory)
    }

    /// Helpers every script shares: JSON output and a type-keeping rendering of dbus-python values.
    static let prelude = #"""
        import json
        import sys

        import dbus
        import dbus.mainloop.glib
        import dbus.service
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)


        def plain(value):
            """A dbus-python value as JSON data (the D-Bus type is reported separately by kind())."""
            if isinstance(value, dbus.Boolean):
                return bool(value)
            if isinstance(value, (dbus.Byte, dbus.Int16, dbus.UInt16, dbus.Int32, dbus.UInt32, dbus.Int64,
                                  dbus.UInt64)):
                return int(value)
            if isinstance(value, dbus.Double):
                return float(value)
            if isinstance(value, str):
                return str(value)
            if isinstance(value, dict):
                return {str(key): plain(item) for key, item in value.items()}
            if isinstance(value, (list, tuple)):
                return [plain(item) for item in value]
            return repr(value)


        def kind(value):
            """The dbus-python class name: UInt32, String, Dictionary, Struct, ..."""
            return type(value).__name__


        def describe(value):
            """'UInt32:7', 'String:"x"': what this side decoded, type and value."""
            return kind(value) + ':' + json.dumps(plain(value), sort_keys=True, ensure_ascii=False)


        def emit(**fields):
            print(json.dumps(fields, sort_keys=True, ensure_ascii=False), flush=True)


        def error_of(call):
            """Runs call(); returns the D-Bus error name and message it raised, or nulls."""
            try:
                call()
            except dbus.exceptions.DBusException as error:
                return {'error': error.get_dbus_name(), 'message': error.get_dbus_message()}
            return {'error': None, 'message': None}

        """#
}
