/// A layout request that cannot be answered: which input is wrong and what it must be.
package struct LayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input at fault, such as `window.width` or `events[1].duration`.
    package let input: String
    /// What is wrong and what to give instead.
    package let problem: String

    /// Creates an error.
    package init(input: String, problem: String) {
        self.input = input
        self.problem = problem
    }

    package var description: String { "\(input) \(problem)" }

    /// A number that is NaN or infinite.
    static func notFinite(_ input: String, _ value: Double) -> LayoutError {
        LayoutError(input: input, problem: "must be a finite number of points; got \(PointFormat.text(value))")
    }

    /// A number below zero where only zero or more makes sense.
    static func negative(_ input: String, _ value: Double) -> LayoutError {
        LayoutError(input: input, problem: "must not be negative; got \(PointFormat.text(value))")
    }
}
