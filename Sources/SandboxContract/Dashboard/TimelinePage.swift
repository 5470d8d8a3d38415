/// A timeline (CashoutSandbox's `Timeline`, its JSON) as one page that opens from a file: no
/// server, nothing loaded from the network. Resources/timeline.html with Resources/timeline.css in
/// its `<style>`, Resources/timeline.js in its `<script>`, and the model's JSON in a
/// `<script type="application/json">` that the script's boot line parses and draws
/// (`Timeline.render`). The dashboard draws the same JSON with the same script, on a cashout's page
/// (`GET /sandbox/cashouts/{id}/timeline`).
package enum TimelinePage {
    /// The page of `model` (the timeline's JSON text), titled `title`.
    package static func html(title: String, model: String) -> String {
        DashboardFile.text(PackageResources.timeline_html, filling: [
            "TITLE": escaped(title),
            "STYLE": DashboardFile.text(PackageResources.timeline_css),
            "SCRIPT": DashboardFile.text(PackageResources.timeline_js),
            "DATA": scriptSafe(model),
        ])
    }

    /// `text` as HTML text: `&`, `<`, `>` and quotes as entities.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// JSON text that can sit inside a `<script>` element: every `<` as `\u003c`. A script element's
    /// text ends at the first `</script` whatever the JSON says, and a `<!--` in it changes how the
    /// browser looks for that end; JSON has `<` only inside strings, where `\u003c` is the same
    /// character, so the data parses as it was. (U+2028 and U+2029 are valid in JSON strings and
    /// JSON.parse takes them: nothing to do.)
    static func scriptSafe(_ json: String) -> String {
        json.replacing("<", with: "\\u003c")
    }
}
