@testable import SandboxContract
@testable import SandboxSupport
import Testing
import Foundation

/// The standalone timeline page (`TimelinePage`, Resources/timeline.html): one file that opens from
/// disk, whose title and data cannot end their elements, and that loads nothing from the network.
@Suite struct TimelinePageTests {
    /// A title is HTML text; the model's JSON keeps no `<` (a `</script>` or `<!--` in it would end or
    /// change its script element) and parses to the same value.
    @Test func theTitleAndTheModelCannotEndTheirElements() throws {
        let title = #"</title><script>alert("t")</script> & 'x'"#
        let model = #"{"title":"</script><script>alert(1)</script>","entries":[{"text":"<!-- <script> \u2028"}]}"#
        let page = TimelinePage.html(title: title, model: model)
        #expect(page.contains("<title>&lt;/title&gt;&lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; &#39;x&#39;</title>"))
        let open = #"<script type="application/json" id="timeline-data">"#
        let start = try #require(page.range(of: open))
        let end = try #require(page[start.upperBound...].range(of: "</script>"))
        let data = String(page[start.upperBound..<end.lowerBound])
        #expect(!data.contains("<"), "\(data)")
        #expect(try JSON.parse(data) == JSON.parse(model))
        // The data element and the script, nothing else: no element the title or the data opened.
        #expect(page.ranges(of: "<script").count == 2 && page.ranges(of: "</script>").count == 2)
        #expect(page.ranges(of: "<title>").count == 1 && page.ranges(of: "</title>").count == 1)
        #expect(page.ranges(of: "<!--").isEmpty)
    }

    /// Its style, script and data are in it: nothing to fetch (no `src=`, `href=`, `@import` or
    /// `url(`), no URL of any other place, and every placeholder filled.
    @Test func thePageIsWholeAndLoadsNothing() throws {
        let page = TimelinePage.html(title: "Explore D24, run 3", model: #"{"title":"t","findings":[],"cashouts":[],"entries":[]}"#)
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains(#"<meta charset="utf-8">"#))
        #expect(page.contains("<title>Explore D24, run 3</title>"))
        #expect(page.contains(".tl-lanes {") && page.contains("const Timeline = (function () {") && page.contains("Timeline.render("))
        for loads in ["src=", "href=", "@import", "url(", "http://", "https://", "//fonts."] {
            #expect(!page.contains(loads), "the page has \(loads)")
        }
        #expect(try page.matches(of: Regex(#"__[A-Z][A-Z0-9_]*__"#)).isEmpty, "a placeholder is left")
    }
}
