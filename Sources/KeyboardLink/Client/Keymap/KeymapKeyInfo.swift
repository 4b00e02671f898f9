import KBlinkAPI

/// One key of a keyboard's layout as `GetKeys()` reports it (``KeyGeometry``).
public typealias KeymapKeyInfo = KeyGeometry
