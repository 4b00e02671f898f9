import KeyboardLinkDBus

/// How the daemon pairs keyboards.
package struct PairingOptions: Sendable, Equatable {
    /// Where our `org.bluez.Agent1` lives on the daemon's connection (outside `/org/kblink1`, which holds only
    /// the public API).
    package var agentPath: ObjectPath = "/org/kblink/agent"
    /// Ask BlueZ to make our agent the default one, so it also answers pairings other programs start
    /// (`[Pairing] DefaultAgent`). Off by default: a desktop's own agent keeps working.
    package var requestDefaultAgent = false
    /// How long `Device1.Pair` may take (bluetoothd times out a stalled pairing on its own well before).
    package var pairTimeout: Duration = .seconds(120)
    /// How long `Device1.Connect` may take after pairing.
    package var connectTimeout: Duration = .seconds(30)
    /// How long any other BlueZ call may take (trust, cancel, remove).
    package var callTimeout: Duration = .seconds(10)
    /// How long BlueZ may take to report the keyboard paired, trusted and connected once `Connect` returned.
    package var settleTimeout: Duration = .seconds(5)
    /// How long the `Pair` caller has to answer a numeric comparison or an authorization request before the answer
    /// is no (bluetoothd gives its agent 60 s).
    package var questionTimeout: Duration = .seconds(50)

    /// The documented defaults.
    package init() {}
}
