import KBlinkAPI
import KeyboardLinkBlueZ
import KeyboardLinkDBus

extension MethodInvocation {
    /// The keyboard whose object was called: the address in the last element of the object path
    /// (`/org/kblink1/keyboards/dev_AA_BB_CC_DD_EE_FF`).
    /// - Throws: `org.kblink1.Error.NotFound` when the path names no keyboard (the server only routes calls to
    ///   exported keyboard objects, so this means the object went away).
    func keyboardAddress() throws -> BluetoothAddress {
        try MethodCallContext(self).keyboardAddress()
    }
}

extension MethodCallContext {
    /// The keyboard whose object the call was made on.
    func keyboardAddress() throws -> BluetoothAddress {
        guard let address = try? BluetoothAddress(devicePath: path) else {
            throw KBlinkError.notFound("\(path.rawValue) is not a keyboard")
        }
        return address
    }
}
