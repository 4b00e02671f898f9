import KeyboardLinkTestSupport
import Testing

@testable import InsetCore

@Suite("Rect and friends")
struct RectTests {
    @Test("edges and size")
    func edges() {
        let rect = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(rect.minX == 10)
        #expect(rect.maxX == 40)
        #expect(rect.minY == 20)
        #expect(rect.maxY == 60)
        #expect(rect.size == Size(width: 30, height: 40))
    }

    @Test("intersection of overlapping rectangles")
    func intersection() {
        let a = Rect(x: 0, y: 0, width: 100, height: 100)
        let b = Rect(x: 50, y: 80, width: 100, height: 100)
        #expect(a.intersection(b) == Rect(x: 50, y: 80, width: 50, height: 20))
        #expect(b.intersection(a) == Rect(x: 50, y: 80, width: 50, height: 20))
        #expect(a.intersects(b))
    }

    @Test("touching, disjoint, empty and NaN rectangles share no area")
    func noIntersection() {
        let a = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(a.intersection(Rect(x: 0, y: 100, width: 100, height: 10)) == nil)  // touching edge
        #expect(a.intersection(Rect(x: 200, y: 0, width: 10, height: 10)) == nil)
        #expect(a.intersection(Rect(x: 10, y: 10, width: 0, height: 10)) == nil)
        #expect(a.intersection(Rect(x: 10, y: 10, width: -5, height: 10)) == nil)
        #expect(a.intersection(Rect(x: .nan, y: 10, width: 5, height: 10)) == nil)
        #expect(a.intersection(Rect(x: 10, y: 10, width: 5, height: .nan)) == nil)
        #expect(Rect(x: 10, y: 10, width: .nan, height: 5).intersection(a) == nil)
    }

    @Test("zero means all four numbers, empty means no area")
    func zeroAndEmpty() {
        #expect(Rect.zero.isZero)
        #expect(!Rect(x: 1, y: 0, width: 0, height: 0).isZero)
        #expect(Rect(x: 1, y: 0, width: 0, height: 0).isEmpty)
        #expect(Rect(x: 0, y: 0, width: 5, height: .nan).isEmpty)
        #expect(!Rect(x: 0, y: 0, width: 5, height: 1).isEmpty)
    }

    @Test("offset, contains and inset")
    func transforms() {
        let rect = Rect(x: 10, y: 20, width: 30, height: 40)
        #expect(rect.offsetBy(dx: -10, dy: 5) == Rect(x: 0, y: 25, width: 30, height: 40))
        #expect(rect.contains(Point(x: 10, y: 20)))
        #expect(!rect.contains(Point(x: 40, y: 20)))
        #expect(
            rect.inset(by: Insets(top: 5, left: 2, bottom: 10, right: 3)) == Rect(x: 12, y: 25, width: 25, height: 25))
        #expect(rect.inset(by: Insets(top: 50)).height == 0)
    }

    @Test("finiteness and validity")
    func finiteness() {
        #expect(Rect(x: 0, y: 0, width: 1, height: 1).isFinite)
        #expect(!Rect(x: .infinity, y: 0, width: 1, height: 1).isFinite)
        #expect(Size(width: 0, height: 3).isValid)
        #expect(!Size(width: -1, height: 3).isValid)
        #expect(!Size(width: .nan, height: 3).isValid)
        #expect(!Insets(bottom: .nan).isFinite)
    }

    @Test("window geometry converts between screen and view coordinates")
    func conversion() {
        let geometry = WindowGeometry(screen: LayoutFixtures.screen, windowFrame: LayoutFixtures.stageManagerWindow)
        let keyboard = geometry.convertFromScreen(LayoutFixtures.dockedKeyboard)
        #expect(keyboard == Rect(x: -100, y: 911, width: 1024, height: 355))
        #expect(geometry.convertToScreen(keyboard) == LayoutFixtures.dockedKeyboard)
        #expect(geometry.effectiveViewBounds == Rect(x: 0, y: 0, width: 700, height: 900))
    }
}
