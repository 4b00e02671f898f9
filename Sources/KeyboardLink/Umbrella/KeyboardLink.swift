// KeyboardLink: every library target of kblink under one import, for the package's own tests, benchmarks and
// programs. It is a target, not a product: all it re-exports is `package` but for the binding, the contract and the
// client, which embedders get as products of their own (docs/embedding.md), so it would give a program outside the
// package nothing more. The daemon and the CLI import only the targets they need.
@_exported import InsetCore
@_exported import KBlinkAPI
@_exported import KeyboardLinkAuthorization
@_exported import KeyboardLinkBlueZ
@_exported import KeyboardLinkClient
@_exported import KeyboardLinkCommandLine
@_exported import KeyboardLinkDBus
@_exported import KeyboardLinkDesktop
@_exported import KeyboardLinkDoctor
@_exported import KeyboardLinkDrivers
@_exported import KeyboardLinkFirmware
@_exported import KeyboardLinkHostFix
@_exported import KeyboardLinkKeymap
@_exported import KeyboardLinkKeymapFiles
@_exported import KeyboardLinkPairing
@_exported import KeyboardLinkPresence
@_exported import KeyboardLinkService
@_exported import KeyboardLinkSimulator
@_exported import KeyboardLinkSupport
