import KeyboardLinkDBus

/// How the daemon pairs keyboards.
public struct PairingOptions: Sendable, Equatable {
    /// Where our `org.bluez.Agent1` lives on the daemon's connection (outside `/org/kblink1`, which holds only
    /// the public API).
    public var agentPath: ObjectPath = "/org/kblink/agent"
    /// Ask BlueZ to make our agent the default one, so it also answers pairings other programs start
    /// (`[Pairing] DefaultAgent`). Off by default: a desktop's own agent keeps working.
    public var requestDefaultAgent = false
    /// How long `Device1.Pair` may take (bluetoothd times out a stalled pairing on its own well before).
    public var pairTimeout: Duration = .seconds(120)
    /// How long `Device1.Connect` may take after pairing.
    public var connectTimeout: Duration = .seconds(30)
    /// How long any other BlueZ call may take (trust, cancel, remove).
    public var callTimeout: Duration = .seconds(10)
    /// How long BlueZ may take to report the keyboard paired, trusted and connected once `Connect` returned.
    public var settleTimeout: Duration = .seconds(5)
    /// How long the `Pair` caller has to answer a numeric comparison or an authorization request before the answer
    /// is no (bluetoothd gives its agent 60 s).
    public var questionTimeout: Duration = .seconds(50)

    /// The documented defaults.
    public init() {}
}
