/// Scenario results as JUnit XML, the format CI viewers (GitLab, Jenkins, GitHub annotations) read:
/// a `testsuite` per scenario (per run, for `explore`) and a `testcase` per case of it (the Testing
/// your app guide, "Cases"), classname the suite's name: a `failure` with each failure of the case and
/// the timelines of the payouts they name, a `skipped` for a case none of whose steps ran. A suite of
/// one case, one not run (`needs_app`), one expected to fail, or a file that could not be loaded (an
/// `error`: no step ran, the suite is broken, not the app) is one testcase named after the suite. The
/// suite's `system-out` holds its notes, what was found after a failure, and the output of the
/// command run beside the steps (`test --serve --exec`).
package enum JUnitReport {
    package static func xml(_ results: [ScenarioResult], suite: String = "cashout-sandbox") -> String {
        let suites = results.map { Suite($0) }
        let tests = suites.reduce(0) { $0 + $1.testcases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }, errors = suites.reduce(0) { $0 + $1.errors }
        let time = results.reduce(0) { $0 + $1.seconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites name="\#(escape(suite))" tests="\#(tests)" failures="\#(failures)" errors="\#(errors)" "#
            + #"time="\#(seconds(time))">"# + "\n"
        for suite in suites { xml += suite.xml }
        xml += "</testsuites>\n"
        return xml
    }

    /// One result's `testsuite`.
    private struct Suite {
        let result: ScenarioResult
        /// Each testcase: its name, time, and children.
        let testcases: [(name: String, time: Double, children: [String], failed: Bool, skipped: Bool)]

        init(_ result: ScenarioResult) {
            self.result = result
            let cases = result.cases
            let properties = result.clockStops > 0
                ? [#"<properties><property name="clock_stops" value="\#(result.clockStops)"/></properties>"#] : []
            guard cases.count > 1 else {
                let children = properties + JUnitReport.children(ofWhole: result)
                testcases = [(result.name, result.seconds, children, !result.passed && !result.unloadable, result.skipped != nil)]
                return
            }
            testcases = cases.map { suiteCase in
                var children = properties
                switch suiteCase.verdict {
                case .failed:
                    let type = suiteCase.subject == .app ? "CommandFailed" : "StepFailed"
                    let message = suiteCase.failures[0].split(separator: "\n", maxSplits: 1).first.map(String.init) ?? suiteCase.failures[0]
                    let timelines = result.timelineLines(of: suiteCase.cashouts, realTime: true)
                    // The app's: how it ended, and its command line.
                    let command = suiteCase.subject == .app ? result.command.map { ": " + $0.command } ?? "" : ""
                    let text = (suiteCase.failures + suiteCase.skips).joined(separator: "\n") + command
                        + (timelines.isEmpty ? "" : "\n\n" + timelines.joined(separator: "\n"))
                    children.append(#"<failure message="\#(escape(message))" type="\#(type)">\#(escape(text))</failure>"#)
                case .skipped:
                    children.append(#"<skipped message="\#(escape(suiteCase.skips.joined(separator: "; ")))"/>"#)
                case .passed:
                    break
                }
                return (suiteCase.name, suiteCase.seconds, children, suiteCase.verdict == .failed, suiteCase.verdict == .skipped)
            }
        }

        var failures: Int { result.unloadable ? 0 : testcases.count(where: \.failed) }
        var errors: Int { result.unloadable ? 1 : 0 }

        var xml: String {
            let skipped = testcases.count(where: \.skipped)
            var xml = #"  <testsuite name="\#(escape(result.name))" tests="\#(testcases.count)" failures="\#(failures)" errors="\#(errors)" "#
                + #"skipped="\#(skipped)" time="\#(seconds(result.seconds))">"# + "\n"
            for testcase in testcases {
                let opening = #"    <testcase classname="\#(escape(result.name))" name="\#(escape(testcase.name))" "#
                    + #"file="\#(escape(result.file))" time="\#(seconds(testcase.time))""#
                xml += testcase.children.isEmpty ? opening + "/>\n"
                    : opening + ">\n" + testcase.children.map { "      \($0)\n" }.joined() + "    </testcase>\n"
            }
            if let output = output { xml += "    <system-out>\(escape(output))</system-out>\n" }
            return xml + "  </testsuite>\n"
        }

        /// The suite's `system-out`: an expected failure, the run's notes, what was found after a failure, the command's
        /// output; nil for none.
        private var output: String? {
            var output: [String] = []
            if let expected = result.expectedFailure {
                output.append("failed as expected (\(expected.reason)): step \(expected.step): \(expected.message)")
            }
            output += result.notes
            if result.cases.count > 1 { output += result.foundAfterLines }
            if let command = result.command, !command.output.isEmpty { output.append(command.output) }
            return output.isEmpty ? nil : output.joined(separator: "\n")
        }
    }

    /// A whole suite's testcase elements (one of a single case, not run, expected to fail, or not loaded): a skip, each
    /// failure (or the `error` of a file not loaded), the first's text going on with what was found after it and the named
    /// payouts' timelines, as the terminal shows them, and a failed command's `failure`.
    private static func children(ofWhole result: ScenarioResult) -> [String] {
        var children: [String] = []
        if let reason = result.skipped { children.append(#"<skipped message="\#(escape(reason))"/>"#) }
        let more = [result.foundAfterLines, result.timelineLines(realTime: true)].filter { !$0.isEmpty }
        var told = more.isEmpty
        func text(_ message: String) -> String {
            defer { told = true }
            return told ? message : message + "\n\n" + more.map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
        }
        for (index, message) in result.failureTexts.enumerated() {
            let (element, type) = result.unloadable ? ("error", "ScenarioNotLoaded")
                : index > 0 && message == result.ledgerFailure ? ("failure", "LedgerMismatch") : ("failure", "StepFailed")
            children.append(#"<\#(element) message="\#(escape(message))" type="\#(type)">\#(escape(text(message)))</\#(element)>"#)
        }
        if let command = result.command, let failure = result.commandFailure {
            children.append(#"<failure message="\#(escape(failure))" type="CommandFailed">\#(escape("\(failure): \(command.command)"))</failure>"#)
        }
        return children
    }

    private static func seconds(_ value: Double) -> String {
        let millis = Int((value * 1000).rounded())
        return "\(millis / 1000).\(String(millis % 1000 + 1000).dropFirst())"
    }

    /// Text safe in XML attributes and content; characters XML 1.0 forbids become U+FFFD.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || (0xFFFE ... 0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
