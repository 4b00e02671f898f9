import KeyboardLinkBlueZ
import KeyboardLinkDBus
import KeyboardLinkKeymap

/// Names of the `org.kblink1` API (`docs/dbus-api.md`).
public enum KBlink {
    public static let service: BusName = "org.kblink1"
    public static let managerPath: ObjectPath = "/org/kblink1"
    public static let keyboardsPath: ObjectPath = "/org/kblink1/keyboards"
    public static let managerInterface = KBlinkContract.Manager.interface
    public static let keyboardInterface = KBlinkContract.Keyboard.interface
    public static let keymapInterface = KBlinkContract.Keymap.interface
    /// What kblinkd accepts from any caller before it decides anything (docs/dbus-api.md, "Authorization"): a call's
    /// arguments up to ``KBlinkMethodDeclaration.defaultMaximumBodySize`` (standard interfaces included: `Properties.Set` of a
    /// 16 MB value is refused from its length), 32 calls waiting for an answer per caller, and no message from any
    /// peer decoded to more than 1,048,576 values (far above a `GetManagedObjects` of a thousand BlueZ devices,
    /// about 100,000).
    public static let callLimits = CallLimits(
        maximumBodySize: KBlinkMethodDeclaration.defaultMaximumBodySize, maximumCallsInFlightPerCaller: 32,
        maximumValuesPerMessage: 1 << 20)
    /// The daemon's version.
    public static let version = "0.1.0"

    /// The object path of a keyboard: `/org/kblink1/keyboards/dev_AA_BB_CC_DD_EE_FF`.
    public static func keyboardPath(_ address: BluetoothAddress) -> ObjectPath {
        keyboardsPath.appending(element: address.pathElement)
    }
}
