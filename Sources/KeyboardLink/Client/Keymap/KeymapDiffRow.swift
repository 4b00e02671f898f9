import KBlinkAPI

/// One row of `Diff()` (``DiffRow``).
public typealias KeymapDiffRow = DiffRow
