import SandboxContract
import SandboxSupport
import CashoutSandbox

/// The files of a run's timeline (the Testing your app guide, "Why a run failed"): the page,
/// self-contained, that opens from a file:// URL (SandboxContract's `TimelinePage`, drawn by the
/// dashboard's own `timeline.js`), and the JSON it is drawn from, beside it.
enum TimelineFiles {
    /// `explored/explore-d24-seed7.json` → `explored/explore-d24-seed7.html`.
    static func page(beside file: String) -> String {
        (file.hasSuffix(".json") ? String(file.dropLast(5)) : file) + ".html"
    }

    /// `explored/explore-d24-seed7.html` → `explored/explore-d24-seed7.timeline.json`: not a scenario file
    /// (`ScenarioFiles.find` passes it by).
    static func data(beside page: String) -> String {
        (page.hasSuffix(".html") ? String(page.dropLast(5)) : page) + suffix
    }

    /// What the JSON form's name ends with.
    static let suffix = ".timeline.json"

    /// Writes the page at `path` and its JSON beside it, and the run's `record` (`cashout-sandbox show`'s NAME.run) when
    /// given; false, said, when it cannot.
    static func write(_ timeline: Timeline, page path: String, record: JSON? = nil) -> Bool {
        let json = timeline.json.serializedString()
        return CLI.write(TimelinePage.html(title: timeline.title, model: json), to: path)
            && CLI.write(json + "\n", to: data(beside: path))
            && (record.map { CLI.write($0.serializedString() + "\n", to: ShowCommand.record(beside: path)) } ?? true)
    }
}
