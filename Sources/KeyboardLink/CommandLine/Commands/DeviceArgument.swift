import InsetCore
import KBlinkAPI
import KeyboardLinkClient
import KeyboardLinkDBus
import KeyboardLinkKeymap
import KeyboardLinkSupport

/// The DEVICE argument of the commands that act on one keyboard: an address or the start of a name.
enum DeviceArgument {
    /// `text` when it can designate a keyboard. Checked before kblink connects: an empty text is a prefix of every
    /// name, so kblinkd would otherwise answer that it matches every keyboard.
    /// - Throws: `ParsedArguments.UsageError` when it is empty or only white space.
    static func checked(_ text: String) throws -> String {
        guard text.contains(where: { !$0.isWhitespace }) else {
            throw ParsedArguments.UsageError(
                "DEVICE is empty: give a keyboard's address (AA:BB:CC:DD:EE:FF) or the start of its name "
                    + "(see 'kblink list')")
        }
        return text
    }
}
