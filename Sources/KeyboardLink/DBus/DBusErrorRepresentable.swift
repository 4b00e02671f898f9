/// An error that has a D-Bus form: a handler that throws one is answered with ``dbusError``'s name and message.
///
/// An API's own error type conforms to answer with its error names while the binding knows nothing of them (as
/// zbus's `DBusError` derive does); ``DBusError`` conforms as itself. The binding checks for this protocol wherever a
/// thrown error becomes a reply; any other error is answered as `org.freedesktop.DBus.Error.Failed` with its
/// description.
public protocol DBusErrorRepresentable: Error {
    /// The error as it travels: a validated name and a message for people.
    var dbusError: DBusError { get }
}

extension DBusError: DBusErrorRepresentable {
    /// The error itself.
    public var dbusError: DBusError { self }
}
