import Testing

@testable import InsetCore

@Suite("PointFormat")
struct PointFormatTests {
    @Test("point values: whole numbers bare, fractions up to thousandths, -0 as 0")
    func pointFormat() {
        #expect(PointFormat.text(335) == "335")
        #expect(PointFormat.text(167.5) == "167.5")
        #expect(PointFormat.text(-0.0) == "0")
        #expect(PointFormat.text(1.0 / 3) == "0.333")
        #expect(PointFormat.text(-12.0004) == "-12")
        #expect(PointFormat.text(.nan) == "nan")
        #expect(PointFormat.text(-.infinity) == "-inf")
        #expect(PointFormat.text(1e20) == "1e+20")
    }
}
